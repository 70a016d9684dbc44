"""The listing's search on PostgreSQL in the minutes after a sync into a new database, over HTTP.

A sync (or an import) fills a new database within seconds; until its tables are analyzed the planner plans
for empty ones. This bench syncs the cached 100,000-message store into an empty PostgreSQL database through
a real ``hermes serve``, then times ``GET /sessions?q=TERM&limit=20`` for a few terms (a word of many
messages, an id prefix, a phrase, a term in no row): once right after the sync, once the search backlog has
drained, then every ``--every`` seconds, ``--checks`` times. Each figure is the median of five calls.

SQLite's server on a copy of the same store, same terms, same run, is the baseline (it needs no analyze).
With ``--baseline DIR`` (a checkout of another build) that build's server is measured the same way on a
database of its own, after this build's, in the same run. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.build_store import MEDIUM, copy_store
from bench.common import ROOT, bench_home, print_figures, serve
from bench.sync import _sync, _wait_until_indexed
from tests.pg_cluster import Cluster, start_cluster

TERMS = ("python", "2026", "memory leak", "zzqx")
CALLS = 5


def _medians(http: httpx.Client) -> dict[str, float]:
    """Each term's median over :data:`CALLS` listing calls, in milliseconds."""
    figures = {}
    for term in TERMS:
        timings = []
        for _ in range(CALLS):
            started = time.perf_counter()
            http.get("/sessions", params={"q": term, "limit": 20}).raise_for_status()
            timings.append((time.perf_counter() - started) * 1000)
        figures[term] = statistics.median(timings)
    return figures


def _row(label: str, figures: dict[str, float]) -> str:
    return f"{label:<22}" + "".join(f"{figures[t]:>14.1f}" for t in TERMS)


def _after_sync(
    cluster: Cluster, source: Path, every: float, checks: int
) -> list[tuple[str, dict[str, float]]]:
    """The checkpoints of one build: its server synced into a fresh database of ``cluster``."""
    rows = []
    with bench_home() as home:
        agent = copy_store(MEDIUM, home / "agent")
        server_home = home / "server"
        server_home.mkdir()
        url = cluster.create_database("after_sync")
        with serve(server_home, source=source, database_url=url) as server, server.client() as http:
            _sync(agent, server.base_url, home / "client", source=source)
            started = time.perf_counter()
            rows.append(("right after the sync", _medians(http)))
            drained = _wait_until_indexed(http)
            rows.append((f"drained (+{drained:.0f} s)", _medians(http)))
            for _ in range(checks):
                time.sleep(every)
                rows.append((f"+{time.perf_counter() - started:.0f} s", _medians(http)))
    return rows


def _sqlite() -> dict[str, float]:
    with bench_home() as home:
        copy_store(MEDIUM, home)
        with serve(home) as server, server.client() as http:
            _medians(http)  # warm-up, as the PostgreSQL side is warmed by the sync
            return _medians(http)


def main() -> None:
    """Measure this build (and ``--baseline``'s) after a sync; print a table per build and SQLite's row."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--baseline", type=Path, help="another build's checkout, measured in the same run")
    parser.add_argument("--every", type=float, default=30.0, help="seconds between the later checks")
    parser.add_argument("--checks", type=int, default=3, help="checks after the drain")
    args = parser.parse_args()
    cluster = start_cluster()
    try:
        builds = [("this build", ROOT)] + ([("baseline", args.baseline.resolve())] if args.baseline else [])
        results = {name: _after_sync(cluster, source, args.every, args.checks) for name, source in builds}
    finally:
        cluster.stop()
    sqlite = _sqlite()
    header = f"{'listing q=, ms':<22}" + "".join(f"{t:>14}" for t in TERMS)
    for name, rows in results.items():
        print(f"\n== {name} on PostgreSQL, median of {CALLS} calls")
        print(header)
        for label, figures in rows:
            print(_row(label, figures))
    print(f"\n== SQLite, same store, same run, median of {CALLS} calls")
    print(header)
    print(_row("served", sqlite))
    last = results["this build"][-1][1]
    print_figures(
        "last check over SQLite",
        {term: last[term] / sqlite[term] for term in TERMS},
    )
    if "baseline" in results:
        drained = results["this build"][1][1]
        base = results["baseline"][1][1]
        print_figures(
            "drained, this build over the baseline", {term: drained[term] / base[term] for term in TERMS}
        )


if __name__ == "__main__":
    main()
