"""Appends that contend for the same sessions on PostgreSQL: many writers, few sessions, opposite orders.

16 threads append one message at a time (the append use case's write job, as the service hands it to the
store: no HTTP) to 3 sessions, half of them cycling through the
sessions in one order and half in the other. With group commit, two groups can each hold a session row the
other wants; this measures what that costs (a deadlock PostgreSQL breaks after ``deadlock_timeout`` would
show as a p99 near a second).

``--baseline DIR`` (a checkout of another build) runs the same load with that build's ``app`` on a fresh
database of the same throwaway server, in a child process, in alternating rounds, and prints both.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
THREADS = 16
SESSIONS = ("S1", "S2", "S3")
APPENDS_PER_THREAD = 60


def measure(url: str) -> dict[str, float]:
    """The load on ``url`` (a fresh database) with whichever ``app`` is first on ``sys.path``."""
    from app.domain.records import NewSession
    from app.services import messages as message_service
    from app.settings import Settings
    from app.storage.postgres import open_postgres_store

    store = open_postgres_store(
        Settings(home=Path(tempfile.mkdtemp(prefix="hermes-bench-")), database_url=url)
    )
    try:
        for sid in SESSIONS:
            store.write_sync(lambda tx, sid=sid: tx.sessions.insert_session(sid, NewSession(source="cli")))
        latencies: list[float] = []

        def worker(index: int) -> None:
            order = SESSIONS if index % 2 else tuple(reversed(SESSIONS))
            for k in range(APPENDS_PER_THREAD):
                sid, turn = order[k % len(order)], [{"role": "user", "content": f"m{index}-{k}"}]
                started = time.perf_counter()
                fn, declared = _append_job(message_service, sid, turn)
                store.write_sync(fn, **declared)
                latencies.append(time.perf_counter() - started)

        started = time.perf_counter()
        threads = [threading.Thread(target=worker, args=(i,)) for i in range(THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - started
    finally:
        store.close()
    latencies.sort()
    return {
        "appends_per_s": len(latencies) / elapsed,
        "p50_ms": latencies[len(latencies) // 2] * 1000,
        "p99_ms": latencies[int(len(latencies) * 0.99)] * 1000,
        "max_ms": latencies[-1] * 1000,
    }


def _append_job(service: Any, session_id: str, messages: list[dict[str, Any]]) -> tuple[Any, dict[str, Any]]:
    """The append use case's write job and the arguments it goes to the store with, as the service hands
    them on the build that runs (an older baseline declares its leading append beside a plain job, or has
    no such declaration)."""
    if hasattr(service, "append_job"):
        return service.append_job(session_id, messages, reopen=False), {}

    def job(tx: Any) -> Any:
        return service._append(tx, session_id, messages, reopen=False)

    from app.storage import protocols

    if not hasattr(protocols, "LeadingAppend"):
        return job, {}
    return job, {"leading": protocols.LeadingAppend(session_id, messages)}


def _child(source: Path, url: str) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, __file__, "--measure-url", url, "--source", str(source)],
        check=True,
        capture_output=True,
        text=True,
        timeout=600,
    )
    figures: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return figures


def main() -> None:
    """Parse arguments and run."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", type=Path, help="another build's checkout, measured in the same run")
    parser.add_argument("--source", type=Path, default=ROOT, help=argparse.SUPPRESS)
    parser.add_argument("--measure-url", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.path.insert(0, str(args.source))
    if args.measure_url:
        print(json.dumps(measure(args.measure_url)))
        return
    sys.path.insert(1, str(ROOT))
    from bench.common import percentile, print_figures
    from tests.pg_cluster import start_cluster

    cluster = start_cluster()
    try:
        builds = {"this build": ROOT, **({"baseline": args.baseline} if args.baseline else {})}
        results: dict[str, list[dict[str, Any]]] = {name: [] for name in builds}
        for index in range(args.rounds):
            order = list(builds) if index % 2 == 0 else list(reversed(builds))
            for name in order:
                figures = _child(builds[name], cluster.create_database("shared"))
                results[name].append(figures)
                print_figures(f"round {index + 1}: {name}", figures)
        summary = {
            f"{name} {key} (median)": percentile([r[key] for r in runs], 50)
            for name, runs in results.items()
            for key in ("appends_per_s", "p99_ms", "max_ms")
        }
        if args.baseline:
            summary["appends/s, this build over the baseline"] = (
                summary["this build appends_per_s (median)"] / summary["baseline appends_per_s (median)"]
            )
        print_figures(f"summary over {args.rounds} rounds", summary)
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
