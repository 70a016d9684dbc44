"""Lifecycle benchmarks: export, import, and appends during a prune.

(a) Export of the large store (``s500k``, ~1 GB with its FTS indexes): the agent's ``export_all`` serialised
    to JSONL the way ``hermes sessions export`` writes it, against ``GET /export.jsonl`` from ``hermes serve``
    read over loopback; bytes/s of each and the ratio (target >= 3x), plus the server's peak growth of
    anonymous RSS during the export (target <= 64 MB; mmap'd file pages are the page cache, shown apart).
(b) Import of the first ``--import-messages`` messages' worth of that export into an empty store through
    ``POST /import`` (target >= 20,000 messages/s, acknowledged), then the time until the background indexer
    has both FTS indexes complete, with 4 clients appending single messages meanwhile (their p50/p99); the
    same import with ``wait_for_index=true`` and no other traffic (search-ready when answered); and the
    agent's ``import_sessions`` on the same lines (in chunks under its caps) for reference.
(c) A prune of ~100,000 messages while 4 keep-alive clients append single messages: append p50/p99 during
    the prune (target p99 < 100 ms) against the same load without a prune.

Figures and ratios are printed, never asserted. The machine is shared, so run it when it is quiet.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.build_store import LARGE, SMALL, StoreSpec, copy_store
from bench.common import TOKEN, LeanClient, Server, bench_home, json_body, percentile, print_figures, serve

APPENDERS = 4
PRUNE_TARGET_MESSAGES = 100_000


def _descendants(pid: int) -> list[int]:
    # Children started from any thread (export renders run on executor threads), not only the main one.
    out: list[int] = []
    children: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            children += [int(c) for c in (task / "children").read_text().split()]
    except OSError:
        return out
    for child in children:
        out += [child, *_descendants(child)]
    return out


def _rss_kib(pid: int, field: str = "RssAnon:") -> int:
    # RssAnon: heap and stacks. The mmap'd database pages (RssFile) are the OS page cache, shared and
    # reclaimable, so they are reported apart and not counted as the server's memory growth. The server's
    # child processes (the export render workers) count as the server's memory.
    total = 0
    for proc in (pid, *_descendants(pid)):
        try:
            with open(f"/proc/{proc}/status") as fh:
                total += next((int(line.split()[1]) for line in fh if line.startswith(field)), 0)
        except OSError:
            continue
    return total


class RssSampler:
    """Samples a process's resident memory every 20 ms in a background thread."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.start_kib = _rss_kib(pid)
        self.peak_kib = self.start_kib
        self.file_start_kib = _rss_kib(pid, "RssFile:")
        self.file_peak_kib = self.file_start_kib
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(0.02):
            self.peak_kib = max(self.peak_kib, _rss_kib(self.pid))
            self.file_peak_kib = max(self.file_peak_kib, _rss_kib(self.pid, "RssFile:"))

    def __enter__(self) -> RssSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def agent_export(path: Path) -> tuple[int, float]:
    """(bytes, seconds) of ``SessionDB.export_all`` written as JSONL, as ``hermes sessions export`` does."""
    from hermes_state import SessionDB

    db = SessionDB(db_path=path)
    started = time.perf_counter()
    size = 0
    for session in db.export_all():
        size += len((json.dumps(session, ensure_ascii=False) + "\n").encode("utf-8"))
    elapsed = time.perf_counter() - started
    db.close()
    return size, elapsed


def server_export(home: Path, keep: Path, keep_messages: int) -> dict[str, float]:
    """Stream ``GET /export.jsonl``; keep the first ``keep_messages`` messages' lines for the import bench."""
    kept = 0
    with serve(home) as server, keep.open("wb") as out, httpx.Client(timeout=None) as http:
        buffer = b""
        with RssSampler(server.process.pid) as rss:
            started = time.perf_counter()
            size = 0
            with http.stream(
                "GET", f"{server.base_url}/export.jsonl", headers={"Authorization": f"Bearer {TOKEN}"}
            ) as resp:
                resp.raise_for_status()
                for chunk in resp.iter_raw(1 << 20):
                    size += len(chunk)
                    if kept < keep_messages:
                        buffer += chunk
                        *lines, buffer = buffer.split(b"\n")
                        for line in lines:
                            if kept < keep_messages:
                                out.write(line + b"\n")
                                kept += line.count(b'"role":')
            elapsed = time.perf_counter() - started
    return {
        "bytes": size,
        "seconds": elapsed,
        "rss_start_mb": rss.start_kib / 1024,
        "rss_peak_mb": rss.peak_kib / 1024,
        "rss_growth_mb": (rss.peak_kib - rss.start_kib) / 1024,
        "rss_file_growth_mb": (rss.file_peak_kib - rss.file_start_kib) / 1024,
    }


def _pending(port: int) -> int:
    with httpx.Client(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30) as http:
        return int(http.get(f"http://127.0.0.1:{port}/stats").json()["indexing"]["pending_messages"])


async def _appends_while(
    port: int, what: str, other: Callable[[LeanClient, list[float]], Awaitable[dict[str, float]]]
) -> dict[str, float]:
    """Single-message appends to one new session from APPENDERS clients until ``other`` (given the set-up
    connection and the latencies so far) returns: its figures, then the appends' count and latencies."""
    setup = await LeanClient(port).connect()
    status, body = await setup.request("POST", "/sessions", json_body({"source": "cli", "model": "bench"}))
    if status != 201:
        raise RuntimeError(f"POST /sessions answered {status}: {body[:200]!r}")
    sid = orjson.loads(body)["id"]
    latencies: list[float] = []
    done = asyncio.Event()
    figures: dict[str, float] = {}

    async def appender(i: int) -> None:
        client = await LeanClient(port).connect()
        payload = json_body({"role": "user", "content": f"append while {what} {i} — ünïcode 東京"})
        try:
            while not done.is_set():
                t0 = time.perf_counter()
                status, body = await client.request("POST", f"/sessions/{sid}/messages", payload)
                if status != 201:
                    raise RuntimeError(f"append answered {status}: {body[:200]!r}")
                latencies.append(time.perf_counter() - t0)
        finally:
            client.close()

    async def leader() -> None:
        figures.update(await other(setup, latencies))
        done.set()

    await asyncio.gather(leader(), *(appender(i) for i in range(APPENDERS)))
    setup.close()
    figures.update(
        appends=len(latencies),
        p50_ms=percentile(latencies, 50) * 1000,
        p99_ms=percentile(latencies, 99) * 1000,
    )
    return figures


async def _until_indexed(setup: LeanClient, latencies: list[float]) -> dict[str, float]:
    """Until the background indexer has caught up."""
    while True:
        status, body = await setup.request("GET", "/stats")
        if status == 200 and orjson.loads(body)["indexing"]["pending_messages"] == 0:
            return {}
        await asyncio.sleep(0.05)


@contextmanager
def _import_server() -> Iterator[tuple[Server, httpx.Client]]:
    """A server on an empty store that takes an import body of any size, and a client for it."""
    os.environ["HERMES_MAX_BODY_BYTES"] = str(4 << 30)
    try:
        with bench_home() as home, serve(home) as server, server.client() as client:
            yield server, client
    finally:
        os.environ.pop("HERMES_MAX_BODY_BYTES", None)


def _post_import(client: httpx.Client, jsonl: Path, params: dict[str, str]) -> httpx.Response:
    with jsonl.open("rb") as fh:
        return client.post(
            "/import", params=params, content=fh, headers={"content-type": "application/jsonl"}, timeout=None
        )


def server_import(jsonl: Path) -> dict[str, float]:
    """POST the file to an empty store: acknowledged messages/s, then the time until the background indexer
    has put every message in both FTS indexes, with 4 clients appending single messages meanwhile."""
    with _import_server() as (server, client):
        started = time.perf_counter()
        resp = _post_import(client, jsonl, {})
        acknowledged = time.perf_counter() - started
        resp.raise_for_status()
        report = resp.json()
        pending_at_ack = _pending(server.port)
        appends = asyncio.run(_appends_while(server.port, "indexing", _until_indexed))
        indexed = time.perf_counter() - started
    return {
        "messages": report["messages"],
        "sessions": report["imported"],
        "seconds": acknowledged,
        "pending_at_ack": pending_at_ack,
        "indexed_seconds": indexed,
        "appends_while_indexing": appends["appends"],
        "append_p50_ms": appends["p50_ms"],
        "append_p99_ms": appends["p99_ms"],
    }


def server_import_search_ready(jsonl: Path) -> float:
    """Seconds of ``POST /import?wait_for_index=true`` into an empty store with no other traffic."""
    with _import_server() as (server, client):
        started = time.perf_counter()
        resp = _post_import(client, jsonl, {"wait_for_index": "true"})
        elapsed = time.perf_counter() - started
        resp.raise_for_status()
        if resp.json()["index_pending"] or _pending(server.port):
            raise RuntimeError("wait_for_index answered before the indexes were complete")
    return elapsed


def agent_import(jsonl: Path) -> dict[str, float]:
    """The agent's ``import_sessions`` on the same lines, in chunks under its caps (500 sessions, 50k)."""
    from hermes_state import SessionDB

    lines = [orjson.loads(x) for x in jsonl.read_bytes().splitlines() if x.strip()]
    too_big = [s for s in lines if len(s.get("messages") or ()) > 10_000]
    lines = [s for s in lines if len(s.get("messages") or ()) <= 10_000]
    with bench_home() as home:
        db = SessionDB(db_path=home / "state.db")
        messages = 0
        started = time.perf_counter()
        chunk: list[dict[str, Any]] = []
        chunk_messages = 0
        for session in [*lines, None]:
            n = len(session.get("messages") or ()) if session else 0
            if session is None or len(chunk) >= 400 or chunk_messages + n > 40_000:
                if chunk:
                    result = db.import_sessions(chunk)
                    if result["ok"]:
                        messages += chunk_messages
                chunk, chunk_messages = [], 0
            if session is not None:
                chunk.append(session)
                chunk_messages += n
        elapsed = time.perf_counter() - started
        db.close()
    return {"messages": messages, "seconds": elapsed, "sessions_over_cap": len(too_big)}


def _prune_days(path: Path) -> float:
    """The smallest age (in whole days) whose prune takes at least PRUNE_TARGET_MESSAGES messages."""
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(
            "SELECT s.started_at, s.message_count FROM sessions s WHERE s.ended_at IS NOT NULL "
            "ORDER BY s.started_at"
        ).fetchall()
    finally:
        conn.close()
    total = 0
    now = time.time()
    for started, count in rows:
        total += count or 0
        if total >= PRUNE_TARGET_MESSAGES:
            return max(0.0, (now - started) / 86400)
    return 0.0


async def _appends_during(port: int, prune_body: bytes | None, duration: float) -> dict[str, float]:
    async def pruner(setup: LeanClient, latencies: list[float]) -> dict[str, float]:
        await asyncio.sleep(0.5)
        latencies.clear()  # measure only while the prune runs
        if prune_body is None:
            await asyncio.sleep(duration)
            return {}
        t0 = time.perf_counter()
        status, body = await setup.request("POST", "/maintenance/prune", prune_body)
        prune_s = time.perf_counter() - t0
        if status != 200:
            raise RuntimeError(f"prune answered {status}: {body[:200]!r}")
        report = orjson.loads(body)
        pruned = {"pruned_sessions": report["pruned"], "pruned_messages": report["messages"]}
        return {"prune_s": prune_s, **pruned}

    return await _appends_while(port, "pruning", pruner)


def prune_under_load(spec: StoreSpec) -> dict[str, float]:
    """(c) append latency during a ~100k-message prune, and the same load without one."""
    with bench_home() as home:
        path = copy_store(spec, home)
        days = _prune_days(path)
        body = json_body({"older_than_days": days})
        with serve(home) as server:
            quiet = asyncio.run(_appends_during(server.port, None, 5.0))
            busy = asyncio.run(_appends_during(server.port, body, 0.0))
    return {
        "older_than_days": days,
        "pruned_sessions": busy["pruned_sessions"],
        "pruned_messages": busy["pruned_messages"],
        "prune_s": busy["prune_s"],
        "appends_during_prune": busy["appends"],
        "p50_ms_during_prune": busy["p50_ms"],
        "p99_ms_during_prune": busy["p99_ms"],
        "p50_ms_without_prune": quiet["p50_ms"],
        "p99_ms_without_prune": quiet["p99_ms"],
    }


def run(spec: StoreSpec, import_messages: int, parts: set[str]) -> dict[str, dict[str, Any]]:
    """The measurements named in ``parts`` (export, import, prune); returns their figures."""
    out: dict[str, dict[str, Any]] = {}
    if parts & {"export", "import"}:
        with bench_home() as home:
            path = copy_store(spec, home)
            agent_bytes, agent_s = agent_export(path)
            keep = home / "export-head.jsonl"
            ours = server_export(home, keep, import_messages)
            out["export"] = {
                "store_mb": path.stat().st_size / 1e6,
                "agent_mb": agent_bytes / 1e6,
                "agent_mb_per_s": agent_bytes / agent_s / 1e6,
                "server_mb": ours["bytes"] / 1e6,
                "server_mb_per_s": ours["bytes"] / ours["seconds"] / 1e6,
                "ratio": (ours["bytes"] / ours["seconds"]) / (agent_bytes / agent_s),
                "server_anon_rss_start_mb": ours["rss_start_mb"],
                "server_anon_rss_growth_mb": ours["rss_growth_mb"],
                "server_mmap_file_rss_growth_mb": ours["rss_file_growth_mb"],
            }
            if "import" in parts:
                imported = server_import(keep)
                search_ready_s = server_import_search_ready(keep)
                baseline = agent_import(keep)
                agent_rate = baseline["messages"] / baseline["seconds"] if baseline["seconds"] else 0.0
                out["import"] = {
                    "messages": imported["messages"],
                    "server_msgs_per_s_acknowledged": imported["messages"] / imported["seconds"],
                    "index_pending_at_ack": imported["pending_at_ack"],
                    "server_s_until_fully_indexed": imported["indexed_seconds"],
                    "server_msgs_per_s_fully_indexed": imported["messages"] / imported["indexed_seconds"],
                    "server_msgs_per_s_wait_for_index_no_appends": imported["messages"] / search_ready_s,
                    "agent_msgs_per_s": agent_rate,
                    "ratio_acknowledged": imported["messages"] / imported["seconds"] / agent_rate
                    if agent_rate
                    else 0.0,
                    "appends_while_indexing": imported["appends_while_indexing"],
                    "append_p50_ms_while_indexing": imported["append_p50_ms"],
                    "append_p99_ms_while_indexing": imported["append_p99_ms"],
                    "agent_sessions_over_its_cap": baseline["sessions_over_cap"],
                }
    if "prune" in parts:
        out["prune"] = prune_under_load(spec)
    return out


def main() -> None:
    """Run and print."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--store", choices=[SMALL.name, LARGE.name], default=LARGE.name)
    parser.add_argument("--import-messages", type=int, default=100_000)
    parser.add_argument("--parts", default="export,import,prune", help="comma-separated: export,import,prune")
    args = parser.parse_args()
    spec = LARGE if args.store == LARGE.name else SMALL
    for title, figures in run(spec, args.import_messages, set(args.parts.split(","))).items():
        print_figures(f"lifecycle: {title} ({spec.name})", figures)


if __name__ == "__main__":
    main()
