"""Single-message appends on PostgreSQL against SQLite, in the same run (issue 15's append target).

16 keep-alive clients, closed loop, one message per ``POST /sessions/{id}/messages``, for ``--duration``
seconds after a warm-up, against real ``hermes serve`` processes:

- SQLite: one server on a fresh ``$HERMES_HOME/state.db`` (the baseline);
- PostgreSQL, 1 replica: one server on a fresh database of a throwaway server (``tests/pg_cluster.py``, or
  ``--url``); target: at least 1x SQLite's messages per second;
- PostgreSQL, 2 replicas: two servers on that database, the clients split between them (figure reported);
- with ``--baseline DIR`` (a checkout of another build, e.g. ``git worktree add DIR <rev>``), that build's
  server on a fresh database of the same PostgreSQL too, 1 replica: the before-and-after of a change.

Printed per setup: messages/s, p50/p99 latency, and CPU per message of the ``hermes serve`` processes and,
for PostgreSQL, of the database server's processes too. On this 2-core machine every setup is CPU-bound:
clients, servers and PostgreSQL share the two cores, so a second replica adds no cores, only processes.
The throwaway PostgreSQL runs with ``synchronous_commit=off`` (and no fsync); SQLite runs as the server
always does (WAL, ``synchronous=NORMAL``: no fsync per commit either).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from contextlib import ExitStack
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import append
from bench.common import bench_home, percentile, print_figures, process_cpu_seconds, serve
from tests.pg_cluster import start_cluster


def _postgres_cpu_seconds(url: str) -> float:
    """CPU seconds used so far by the PostgreSQL server's processes (every backend of the cluster)."""
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT pg_backend_pid()").fetchone()
        assert row is not None
        # Read while the backend lives: its parent is the postmaster.
        postmaster = int(Path(f"/proc/{row[0]}/stat").read_text().rsplit(")", 1)[1].split()[1])
    children = Path(f"/proc/{postmaster}/task/{postmaster}/children").read_text().split()
    total = 0.0
    for pid in [postmaster, *map(int, children)]:
        try:
            total += process_cpu_seconds(pid)
        except (FileNotFoundError, ProcessLookupError):
            continue  # a backend that ended meanwhile
    return total


def _load(ports: list[int], pids: list[int], duration: float) -> dict[str, float]:
    """``bench/append.py``'s 16-client load spread over ``ports``; the servers' CPU over the timed window."""
    counted, elapsed, latencies, cpu = asyncio.run(
        append._single_append_load(ports, pids, duration, warmup=1.0)
    )
    return {
        "msgs_per_s": counted / elapsed,
        "p50_ms": percentile(latencies, 50) * 1000,
        "p99_ms": percentile(latencies, 99) * 1000,
        "server_cpu_ms_per_msg": cpu / counted * 1000,
        "messages": float(counted),
    }


def _measure(ports: list[int], pids: list[int], duration: float, pg_url: str | None) -> dict[str, float]:
    pg_before = _postgres_cpu_seconds(pg_url) if pg_url else 0.0
    figures = _load(ports, pids, duration)
    if pg_url:
        # The warm-up's share is included: a small overstatement of the database's CPU per message.
        figures["postgres_cpu_ms_per_msg"] = (
            (_postgres_cpu_seconds(pg_url) - pg_before) / figures["messages"] * 1000
        )
    return figures


def run(duration: float, rounds: int, url: str | None, baseline: Path | None = None) -> None:
    """Measure the setups in ``rounds`` interleaved rounds and print each and the ratios."""
    with ExitStack() as stack:
        cluster = None
        if url is None:
            cluster = start_cluster()
            stack.callback(cluster.stop)
            url = cluster.create_database("bench")
        sqlite = stack.enter_context(serve(stack.enter_context(bench_home())))
        replicas = [
            stack.enter_context(serve(stack.enter_context(bench_home()), database_url=url)) for _ in range(2)
        ]
        setups = {
            "sqlite": ([sqlite.port], [sqlite.process.pid]),
            "postgresql_1_replica": ([replicas[0].port], [replicas[0].process.pid]),
            "postgresql_2_replicas": ([r.port for r in replicas], [r.process.pid for r in replicas]),
        }
        urls = dict.fromkeys(setups, url)
        urls["sqlite"] = None
        if baseline is not None:
            if cluster is None:
                raise SystemExit("--baseline needs the throwaway server (no --url)")
            urls["baseline_1_replica"] = cluster.create_database("baseline")
            before = stack.enter_context(
                serve(
                    stack.enter_context(bench_home()),
                    source=baseline,
                    database_url=urls["baseline_1_replica"],
                )
            )
            setups["baseline_1_replica"] = ([before.port], [before.process.pid])
        results: dict[str, list[dict[str, float]]] = {name: [] for name in setups}
        for index in range(rounds):
            order = list(setups) if index % 2 == 0 else list(reversed(setups))
            for name in order:
                ports, pids = setups[name]
                figures = _measure(ports, pids, duration, urls[name])
                results[name].append(figures)
                print_figures(f"round {index + 1}: {name}", figures)
        summary: dict[str, float] = {}
        for name, runs in results.items():
            for key in ("msgs_per_s", "p99_ms", "server_cpu_ms_per_msg"):
                summary[f"{name} {key} (median)"] = percentile([r[key] for r in runs], 50)
        base = summary["sqlite msgs_per_s (median)"]
        for name in ("postgresql_1_replica", "postgresql_2_replicas", "baseline_1_replica"):
            if name in setups:
                summary[f"{name} msgs/s over sqlite (target 1 replica >= 1.0)"] = (
                    summary[f"{name} msgs_per_s (median)"] / base
                )
        print_figures(f"summary over {rounds} rounds, {duration:.0f} s each, {os.cpu_count()} cores", summary)


def main() -> None:
    """Parse arguments and run."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--duration", type=float, default=6.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--url", help="an empty PostgreSQL database to use instead of a throwaway server")
    parser.add_argument("--baseline", type=Path, help="another build's checkout, measured on PostgreSQL too")
    args = parser.parse_args()
    run(args.duration, args.rounds, args.url, args.baseline)


if __name__ == "__main__":
    main()
