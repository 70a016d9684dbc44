"""Listing sessions: HTTP ``GET /sessions?limit=20`` against the agent's ``SessionDB.list_sessions_rich``.

Both read the same 50,000-session store; each figure is the median of many sequential calls after a warm-up
(target: HTTP median <= 2x the in-process median). Two variants:

- ``repeat``: the same call again and again on an unchanged file (the server may answer from a page memo
  that lives until SQLite's ``data_version`` changes);
- ``after-write``: before every timed call another connection commits a one-row write to the file, as when
  the agent is appending, so nothing cached can be reused. The baseline gets the same writes.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.build_store import LARGE, StoreSpec, copy_store
from bench.common import (
    WARMUP,
    bench_home,
    calls_main,
    commit_ticker,
    latency_ms,
    print_figures,
    serve,
    timed_gets,
)


def agent_list(path: Path, calls: int, touch: Callable[[], None] | None) -> list[float]:
    """Seconds per ``list_sessions_rich(limit=20)`` call, in this process."""
    from hermes_state import SessionDB

    db = SessionDB(db_path=path)
    timings = []
    for i in range(WARMUP + calls):
        if touch is not None:
            touch()
        t0 = time.perf_counter()
        rows = db.list_sessions_rich(limit=20)
        if i >= WARMUP:
            timings.append(time.perf_counter() - t0)
    assert len(rows) == 20
    db.close()
    return timings


def run(calls: int = 200, spec: StoreSpec = LARGE) -> dict[str, float]:
    """Measure both variants on one copy of the store, print and return the figures."""
    results: dict[str, float] = {}
    with bench_home() as home:
        path = copy_store(spec, home)
        touch = commit_ticker(path)
        agent = {name: agent_list(path, calls, t) for name, t in (("repeat", None), ("after_write", touch))}
        with serve(home) as server:
            http = {
                name: asyncio.run(timed_gets(server.port, "/sessions?limit=20", calls, t))
                for name, t in (("repeat", None), ("after_write", touch))
            }
    for name in ("repeat", "after_write"):
        figures = {**latency_ms("agent", agent[name]), **latency_ms("http", http[name])}
        figures["http_over_agent"] = figures["http_median_ms"] / figures["agent_median_ms"]
        print_figures(f"list sessions (limit=20), {spec.sessions:,} sessions, {calls} calls, {name}", figures)
        results.update({f"{name}_{key}": value for key, value in figures.items()})
    return results


if __name__ == "__main__":
    calls_main(__doc__, run, 200)
