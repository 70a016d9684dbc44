"""``POST /gateway/route`` for known chats on PostgreSQL, 16 clients: this build against a baseline build, in
the same run (issue 36's target: within 1.2x of the baseline).

Each build's ``hermes serve`` runs on a fresh database of one throwaway PostgreSQL server
(``tests/pg_cluster.py``); the baseline (default: the commit before issue 36's routing work) is extracted
with ``git archive`` as ``bench/compare_builds.py`` does. Both route ``--chats`` Telegram DMs once (each
then has its entry and session), then the measured load: 16 keep-alive clients, closed loop, routes of
random known chats, ``--count`` per client, in ``--rounds`` rounds whose build order alternates.

Printed per round and build: routes/s, p50 and p99 latency, the server's CPU per route; then the medians and
the after/before ratios (latency and CPU per route: target <= 1.2).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from contextlib import ExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import (
    LeanClient,
    Server,
    bench_home,
    cpu_reading,
    cpu_seconds_between,
    json_body,
    percentile,
    print_figures,
    serve,
)
from bench.compare_builds import WORKTREE, checkout
from bench.gateway_route import CONCURRENCY, _load, _run, chat
from tests.pg_cluster import start_cluster

BASELINE = "c8fb4f3"


async def _route_every_chat(port: int, chats: int) -> None:
    """Each chat routed once (created), the chats split among the clients."""

    async def worker(index: int) -> None:
        client = await LeanClient(port).connect()
        try:
            for n in range(index, chats, CONCURRENCY):
                status, payload = await client.request("POST", "/gateway/route", json_body(chat(n)))
                if status != 200:
                    raise RuntimeError(f"/gateway/route answered {status}: {payload[:300]!r}")
        finally:
            client.close()

    await asyncio.gather(*(worker(i) for i in range(CONCURRENCY)))


def _measure(server: Server, chats: int, count: int) -> dict[str, float]:
    before = cpu_reading(server.process.pid)
    started = time.perf_counter()
    latencies: list[float] = _run(_load(server.port, chats, count, None))
    # The clients' warm-up routes are inside the window too, alike for both builds.
    elapsed = time.perf_counter() - started
    cpu = cpu_seconds_between(before, cpu_reading(server.process.pid))
    return {
        "routes_per_s": len(latencies) / elapsed,
        "p50_ms": percentile(latencies, 50) * 1000,
        "p99_ms": percentile(latencies, 99) * 1000,
        "server_cpu_ms_per_route": cpu / len(latencies) * 1000,
    }


def run(baseline_ref: str, chats: int, count: int, rounds: int) -> None:
    """Serve both builds, route every chat once on each, then measure the rounds and print the ratios."""
    builds = {"after": checkout(WORKTREE), "before": checkout(baseline_ref)}
    with ExitStack() as stack:
        cluster = start_cluster()
        stack.callback(cluster.stop)
        servers = {
            name: stack.enter_context(
                serve(
                    stack.enter_context(bench_home()),
                    source=build.source,
                    database_url=cluster.create_database(f"route_{name}"),
                )
            )
            for name, build in builds.items()
        }
        for server in servers.values():
            _run(_route_every_chat(server.port, chats))
        results: dict[str, list[dict[str, float]]] = {name: [] for name in servers}
        for index in range(rounds):
            order = list(servers) if index % 2 == 0 else list(reversed(servers))
            for name in order:
                figures = _measure(servers[name], chats, count)
                results[name].append(figures)
                print_figures(f"round {index + 1}: {name} ({builds[name].label})", figures)
    summary: dict[str, float] = {}
    for name, runs in results.items():
        for key in runs[0]:
            summary[f"{name} {key} (median)"] = percentile([r[key] for r in runs], 50)
    for key in ("p50_ms", "server_cpu_ms_per_route"):
        summary[f"after/before {key} (target <= 1.2)"] = (
            summary[f"after {key} (median)"] / summary[f"before {key} (median)"]
        )
    summary["before/after routes_per_s (target <= 1.2)"] = (
        summary["before routes_per_s (median)"] / summary["after routes_per_s (median)"]
    )
    print_figures(f"summary over {rounds} rounds, {CONCURRENCY} clients, {chats} known chats", summary)


def main() -> None:
    """Parse arguments and run."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--baseline", default=BASELINE, help="the build to compare with (a git ref)")
    parser.add_argument("--chats", type=int, default=1000)
    parser.add_argument("--count", type=int, default=150, help="routes per client per round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    run(args.baseline, args.chats, args.count, args.rounds)


if __name__ == "__main__":
    main()
