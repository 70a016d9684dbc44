"""Append throughput and latency: the agent's own ``SessionDB.append_message`` against our server.

(a) the agent, in-process, appending one message per call to a copy of the 500k-message store;
(b) ``hermes serve`` taking single-message ``POST /sessions/{id}/messages`` from 16 concurrent keep-alive
    clients on the same store: msgs/s, p50/p99 and the ratio to (a) (targets: >= 10x, p99 <= 25 ms);
(c) the same load on a 10k-message store: p99 at 500k over p99 at 10k (target <= 2x);
(d) batches of 1000 messages per request against a raw ``sqlite3`` ``executemany`` of the same rows into a
    copy of the same store, one transaction per 1000 (target >= 50 %);
(e) the storage floor under (b): raw ``sqlite3``, no HTTP and no Python server, committing transactions of 16
    messages (what the server's group commits hold under (b)) into a copy of the same store with the agent's
    FTS triggers. Its transaction p99 is a lower bound for (b)'s request p99, since a request waits for the
    transaction in progress and then for its own.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.build_store import INSERT_MESSAGE, LARGE, SMALL, StoreSpec, copy_store, message_row
from bench.common import (
    LeanClient,
    bench_home,
    json_body,
    percentile,
    print_figures,
    process_cpu_seconds,
    serve,
)
from bench.corpus import Corpus

CONCURRENCY = 16
BATCH_SIZE = 1000
# Fields of a turn the API accepts on append (the corpus adds nothing else).
TURN_FIELDS = ("role", "content", "tool_calls", "tool_call_id", "tool_name", "finish_reason")


def turns(n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` realistic turns (several conversations, so languages and roles mix)."""
    corpus = Corpus(seed)
    out: list[dict[str, Any]] = []
    while len(out) < n:
        out += corpus.messages(min(40, n - len(out)))
    return [{k: t[k] for k in TURN_FIELDS if t.get(k) is not None} for t in out]


def agent_appends(spec: StoreSpec, n: int) -> dict[str, float]:
    """(a) ``SessionDB.append_message`` one call per message, sequentially, in this process."""
    from hermes_state import SessionDB

    batch = turns(n, seed=11)
    with bench_home() as home:
        path = copy_store(spec, home)
        db = SessionDB(db_path=path)
        sid = db.create_session("20260101_000000_abcdef", "cli", model="bench")
        for turn in batch[:50]:  # warm the caches the way the server's warm-up does
            db.append_message(sid, **turn)
        latencies = []
        maintenance = maintenance_cpu = 0.0
        cpu_started = time.process_time()
        started = time.perf_counter()
        for turn in batch:
            t0, c0 = time.perf_counter(), time.process_time()
            db.append_message(sid, **turn)
            spent = time.perf_counter() - t0
            latencies.append(spent)
            # Every 1000th write the agent runs an FTS 'optimize' (a full index merge) inline.
            if db._write_count % db._OPTIMIZE_EVERY_N_WRITES == 0:
                maintenance += spent
                maintenance_cpu += time.process_time() - c0
        elapsed = time.perf_counter() - started
        cpu = time.process_time() - cpu_started
        db.close()
    return {
        "msgs_per_s": n / elapsed,
        "cpu_ms_per_msg": cpu / n * 1000,
        "steady_cpu_ms_per_msg": (cpu - maintenance_cpu) / n * 1000,
        "steady_msgs_per_s": n / (elapsed - maintenance),
        "fts_optimize_s": maintenance,
        "p50_ms": percentile(latencies, 50) * 1000,
        "p99_ms": percentile(latencies, 99) * 1000,
    }


async def _create_sessions(port: int, n: int) -> list[str]:
    client = await LeanClient(port).connect()
    ids = []
    for _ in range(n):
        status, body = await client.request(
            "POST", "/sessions", json_body({"source": "cli", "model": "bench"})
        )
        if status != 201:
            raise RuntimeError(f"POST /sessions answered {status}: {body[:300]!r}")
        ids.append(orjson.loads(body)["id"])
    client.close()
    return ids


async def _single_append_load(
    ports: Sequence[int], pids: Sequence[int], duration: float, warmup: float
) -> tuple[int, float, list[float], float]:
    """:data:`CONCURRENCY` clients spread over the servers on ``ports``, one message per request: messages
    counted, seconds, latencies, and the CPU seconds of the processes ``pids`` over the timed window."""
    sessions: list[tuple[int, str]] = []
    for index in range(CONCURRENCY):
        port = ports[index % len(ports)]
        sessions.extend((port, sid) for sid in await _create_sessions(port, 1))
    bodies = [json_body(t) for t in turns(4000, seed=23)]
    latencies: list[float] = []
    counted = 0
    # perf_counter, not loop.time(): uvloop's clock has millisecond resolution.
    clock = time.perf_counter
    measure_from = clock() + warmup
    stop_at = measure_from + duration

    async def worker(index: int) -> None:
        nonlocal counted
        port, session_id = sessions[index]
        client = await LeanClient(port).connect()
        path = f"/sessions/{session_id}/messages"
        i = index * 250
        try:
            while True:
                t0 = clock()
                if t0 >= stop_at:
                    return
                status, body = await client.request("POST", path, bodies[i % len(bodies)])
                t1 = clock()
                if status != 201:
                    raise RuntimeError(f"append answered {status}: {body[:300]!r}")
                if t0 >= measure_from:
                    latencies.append(t1 - t0)
                    counted += 1
                i += 1
        finally:
            client.close()

    async def cpu_meter() -> float:
        # The server's CPU time over the measured window: a load-independent cost per message.
        await asyncio.sleep(max(0.0, measure_from - clock()))
        before = sum(map(process_cpu_seconds, pids))
        await asyncio.sleep(max(0.0, stop_at - clock()))
        return sum(map(process_cpu_seconds, pids)) - before

    meter = asyncio.ensure_future(cpu_meter())
    await asyncio.gather(*(worker(i) for i in range(CONCURRENCY)))
    return counted, duration, latencies, await meter


def server_single_appends(spec: StoreSpec, duration: float) -> dict[str, float]:
    """(b)/(c) 16 concurrent clients, one message per request, closed loop, for ``duration`` seconds."""
    with bench_home() as home:
        copy_store(spec, home)
        with serve(home) as server:
            load = _single_append_load([server.port], [server.process.pid], duration, warmup=1.0)
            counted, elapsed, latencies, cpu = _run(load)
    return {
        "msgs_per_s": counted / elapsed,
        "server_cpu_ms_per_msg": cpu / counted * 1000,
        "p50_ms": percentile(latencies, 50) * 1000,
        "p99_ms": percentile(latencies, 99) * 1000,
    }


def _run(coro: Any) -> Any:
    try:
        import uvloop

        return uvloop.run(coro)
    except ImportError:
        return asyncio.run(coro)


async def _batch_load(port: int, batches: list[list[dict[str, Any]]]) -> float:
    (sid,) = await _create_sessions(port, 1)
    client = await LeanClient(port).connect()
    path = f"/sessions/{sid}/messages"
    bodies = [json_body({"messages": b}) for b in batches]
    status, body = await client.request("POST", path, bodies[0])  # warm-up
    if status != 201:
        raise RuntimeError(f"batch append answered {status}: {body[:300]!r}")
    started = time.perf_counter()
    for payload in bodies[1:]:
        status, body = await client.request("POST", path, payload)
        if status != 201:
            raise RuntimeError(f"batch append answered {status}: {body[:300]!r}")
    elapsed = time.perf_counter() - started
    client.close()
    return (len(bodies) - 1) * BATCH_SIZE / elapsed


def server_batches(spec: StoreSpec, batches: list[list[dict[str, Any]]]) -> float:
    """(d) msgs/s for sequential 1000-message batch requests."""
    with bench_home() as home:
        copy_store(spec, home)
        with serve(home) as server:
            rate: float = _run(_batch_load(server.port, batches))
    return rate


def _raw_session(path: Path) -> tuple[sqlite3.Connection, str]:
    """A raw ``sqlite3`` connection to ``path`` with the server's durability settings (WAL,
    synchronous=NORMAL) and a new session to write into, for the raw baselines (d) and (e)."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA foreign_keys=ON")
    sid = "20260101_000000_fedcba"
    conn.execute("INSERT INTO sessions (id, source, started_at) VALUES (?, 'cli', ?)", (sid, time.time()))
    return conn, sid


def raw_executemany(spec: StoreSpec, batches: list[list[dict[str, Any]]]) -> float:
    """(d) baseline: the same rows through ``executemany``, one transaction per batch, like the server's
    durability (WAL, synchronous=NORMAL), counters updated as the agent does."""
    with bench_home() as home:
        conn, sid = _raw_session(copy_store(spec, home))
        elapsed = 0.0
        for index, batch in enumerate(batches):
            t0 = time.perf_counter()
            now = time.time()
            rows = [message_row(sid, turn, now) for turn in batch]
            calls = sum(len(t.get("tool_calls") or ()) for t in batch if t["role"] == "assistant")
            conn.execute("BEGIN IMMEDIATE")
            conn.executemany(INSERT_MESSAGE, rows)
            conn.execute(
                "UPDATE sessions SET message_count = message_count + ?, "
                "tool_call_count = tool_call_count + ? WHERE id = ?",
                (len(rows), calls, sid),
            )
            conn.execute("COMMIT")
            if index > 0:  # the first batch warms the cache, as on the server
                elapsed += time.perf_counter() - t0
        conn.close()
    return (len(batches) - 1) * BATCH_SIZE / elapsed


def storage_floor(spec: StoreSpec, n: int, per_txn: int = CONCURRENCY) -> dict[str, float]:
    """(e) transaction latency of raw group commits of ``per_txn`` messages, counters updated per message."""
    with bench_home() as home:
        conn, sid = _raw_session(copy_store(spec, home))
        batch = turns(n, seed=23)
        latencies = []
        for start in range(0, len(batch), per_txn):
            t0 = time.perf_counter()
            conn.execute("BEGIN IMMEDIATE")
            for turn in batch[start : start + per_txn]:
                conn.execute(INSERT_MESSAGE, message_row(sid, turn, time.time()))
                conn.execute("UPDATE sessions SET message_count = message_count + 1 WHERE id = ?", (sid,))
            conn.execute("COMMIT")
            latencies.append(time.perf_counter() - t0)
        conn.close()
    return {
        "msgs_per_s": n / sum(latencies),
        "txn_p50_ms": percentile(latencies, 50) * 1000,
        "txn_p90_ms": percentile(latencies, 90) * 1000,
        "txn_p99_ms": percentile(latencies, 99) * 1000,
        "txn_max_ms": max(latencies) * 1000,
    }


def run(duration: float = 8.0, agent_n: int = 2000, n_batches: int = 11) -> dict[str, float]:
    """Run every part, print the figures, and return them for the summary table."""
    agent = agent_appends(LARGE, agent_n)
    print_figures(f"(a) agent SessionDB.append_message, {LARGE.messages:,} stored", agent)
    large = server_single_appends(LARGE, duration)
    # Conservative: against the agent's steady state, i.e. without its periodic inline FTS optimize.
    large["ratio_to_agent_steady"] = large["msgs_per_s"] / agent["steady_msgs_per_s"]
    large["ratio_to_agent_measured"] = large["msgs_per_s"] / agent["msgs_per_s"]
    print_figures(f"(b) server, {CONCURRENCY} clients, single appends, {LARGE.messages:,} stored", large)
    small = server_single_appends(SMALL, duration)
    print_figures(f"(c) server, {CONCURRENCY} clients, single appends, {SMALL.messages:,} stored", small)
    p99_ratio = large["p99_ms"] / small["p99_ms"]
    print(f"  p99 at {LARGE.messages:,} / p99 at {SMALL.messages:,}: {p99_ratio:.2f}x (target <= 2x)")
    all_turns = turns(n_batches * BATCH_SIZE, seed=31)
    batches = [all_turns[i : i + BATCH_SIZE] for i in range(0, len(all_turns), BATCH_SIZE)]
    batch_rate = server_batches(LARGE, batches)
    raw_rate = raw_executemany(LARGE, batches)
    batch = {"server_msgs_per_s": batch_rate, "raw_executemany_msgs_per_s": raw_rate}
    batch["ratio"] = batch_rate / raw_rate
    print_figures(f"(d) batches of {BATCH_SIZE}, {LARGE.messages:,} stored", batch)
    floor = storage_floor(LARGE, 12_000)
    print_figures(
        f"(e) storage floor: raw sqlite3, {CONCURRENCY} messages per transaction, {LARGE.messages:,} stored",
        floor,
    )
    return {
        "agent_msgs_per_s": agent["msgs_per_s"],
        "agent_steady_msgs_per_s": agent["steady_msgs_per_s"],
        "agent_p50_ms": agent["p50_ms"],
        "agent_p99_ms": agent["p99_ms"],
        "server_msgs_per_s": large["msgs_per_s"],
        "server_cpu_ms_per_msg": large["server_cpu_ms_per_msg"],
        "agent_cpu_ms_per_msg": agent["cpu_ms_per_msg"],
        "agent_steady_cpu_ms_per_msg": agent["steady_cpu_ms_per_msg"],
        "server_p50_ms": large["p50_ms"],
        "server_p99_ms": large["p99_ms"],
        "server_vs_agent": large["ratio_to_agent_steady"],
        "server_vs_agent_measured": large["ratio_to_agent_measured"],
        "small_p99_ms": small["p99_ms"],
        "p99_large_over_small": p99_ratio,
        "batch_msgs_per_s": batch_rate,
        "raw_msgs_per_s": raw_rate,
        "batch_vs_raw": batch["ratio"],
        "floor_txn_p50_ms": floor["txn_p50_ms"],
        "floor_txn_p99_ms": floor["txn_p99_ms"],
    }


def main() -> None:
    """Command line: ``python bench/append.py [--duration S]``."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--duration", type=float, default=8.0, help="seconds of load per server run")
    parser.add_argument("--agent-n", type=int, default=2000, help="appends timed on the agent")
    args = parser.parse_args()
    run(args.duration, args.agent_n)


if __name__ == "__main__":
    main()
