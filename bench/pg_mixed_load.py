"""Appends while a sync runs, on PostgreSQL: what a bulk job costs the small writes beside it.

A 40,000-message agent file (400 sessions of 100 messages, plus one the real agent wrote) is synced into a
fresh database by ``hermes sessions sync`` while 4 keep-alive clients each append one message every 10 ms to
sessions of their own. Printed: the sync's messages per second, and the appends' count, p50, p99 and worst
latency while the sync ran.

``--baseline DIR`` (a checkout of another build) runs that build's server the same way, on another fresh
database of the same throwaway PostgreSQL, in alternating rounds.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.append import _create_sessions, turns
from bench.common import ROOT, TOKEN, LeanClient, bench_home, json_body, percentile, print_figures, serve
from tests.pg_cluster import start_cluster
from tests.sync.conftest import agent_file, bulk_fill

SESSIONS, PER_SESSION = 400, 100
CLIENTS = 4


async def _during_sync(port: int, base_url: str, agent: Path, cli_home: Path) -> dict[str, float]:
    sessions = await _create_sessions(port, CLIENTS)
    bodies = [json_body(t) for t in turns(500, seed=3)]
    env = {**os.environ, "HERMES_HOME": str(cli_home), "HERMES_API_TOKEN": TOKEN}
    sync = [sys.executable, "-m", "app.cli.main", "sessions", "sync", "--from", str(agent), "--to", base_url]
    started = time.perf_counter()
    proc = await asyncio.create_subprocess_exec(
        *sync, "--home", "laptop", cwd=ROOT, env=env, stdout=asyncio.subprocess.DEVNULL
    )
    latencies: list[float] = []
    syncing = True

    async def appender(index: int) -> None:
        client = await LeanClient(port).connect()
        try:
            k = 0
            while syncing:
                sent = time.perf_counter()
                status, body = await client.request(
                    "POST", f"/sessions/{sessions[index]}/messages", bodies[k % len(bodies)]
                )
                if status != 201:
                    raise RuntimeError(f"append answered {status}: {body[:300]!r}")
                latencies.append(time.perf_counter() - sent)
                k += 1
                await asyncio.sleep(0.01)
        finally:
            client.close()

    tasks = [asyncio.ensure_future(appender(i)) for i in range(CLIENTS)]
    if await proc.wait() != 0:
        raise RuntimeError("the sync failed")
    elapsed = time.perf_counter() - started
    syncing = False
    await asyncio.gather(*tasks)
    return {
        "sync_msgs_per_s": (SESSIONS * PER_SESSION + 2) / elapsed,
        "appends": float(len(latencies)),
        "append_p50_ms": percentile(latencies, 50) * 1000,
        "append_p99_ms": percentile(latencies, 99) * 1000,
        "append_max_ms": max(latencies) * 1000,
    }


def main() -> None:
    """Parse arguments and run."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", type=Path, help="another build's checkout, measured in the same run")
    args = parser.parse_args()
    builds = {"this build": ROOT, **({"baseline": args.baseline} if args.baseline else {})}
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in builds}
    with ExitStack() as stack:
        work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="hermes-mixed-")))
        agent = agent_file(work / "agent" / "state.db", sessions=1, messages=2)
        bulk_fill(agent, sessions=SESSIONS, per_session=PER_SESSION)
        cluster = start_cluster()
        stack.callback(cluster.stop)
        for index in range(args.rounds):
            order = list(builds) if index % 2 == 0 else list(reversed(builds))
            for name in order:
                url = cluster.create_database("mixed")
                with serve(
                    stack.enter_context(bench_home()), source=builds[name], database_url=url
                ) as server:
                    cli_home = work / f"cli-{index}-{len(results[name])}-{name.replace(' ', '-')}"
                    figures = asyncio.run(_during_sync(server.port, server.base_url, agent, cli_home))
                results[name].append(figures)
                print_figures(f"round {index + 1}: {name}", figures)
    summary = {
        f"{name} {key} (median)": percentile([r[key] for r in runs], 50)
        for name, runs in results.items()
        for key in ("sync_msgs_per_s", "append_p50_ms", "append_p99_ms", "append_max_ms")
    }
    print_figures(f"summary over {args.rounds} rounds", summary)


if __name__ == "__main__":
    main()
