"""Searching the listing: ``GET /sessions?q=TERM&limit=20`` against a plain ``GET /sessions?limit=20``.

Both against the same server on the 50,000-session store of ``bench/list_sessions.py``, in the same run; each
figure is the median of sequential calls after a warm-up (target: search median <= 2x the plain median).
Three terms, picked from the store itself:

- ``common``: the year the newest id starts with, which nearly every id shares, so a page fills after about
  21 rows (the scan's best case, and too broad for the index to narrow);
- ``few``: the first words of the newest session's title, which a few hundred titles share;
- ``rare``: the id of the oldest session, which only it matches (without the index, the whole table is read
  for one row).

The server builds its list-search index in the background after adopting the copy (every session is queued
by the migration); the figures are taken once that backlog is empty.

Variants as in ``bench/list_sessions.py``: ``repeat`` (the page memo may answer) and ``after-write`` (a commit
from another connection before every call, so nothing cached is reused).
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.build_store import LARGE, StoreSpec, copy_store
from bench.common import LeanClient, bench_home, median, percentile, print_figures, serve
from bench.list_sessions import WARMUP, _writer


def _terms(path: Path) -> dict[str, str]:
    conn = sqlite3.connect(path)
    try:
        newest, title = conn.execute(
            "SELECT id, title FROM sessions WHERE title IS NOT NULL ORDER BY started_at DESC LIMIT 1"
        ).fetchone()
        (oldest,) = conn.execute("SELECT id FROM sessions ORDER BY started_at LIMIT 1").fetchone()
    finally:
        conn.close()
    return {"common": newest[:4], "few": " ".join(title.split()[:2]), "rare": oldest}


def _matches(path: Path, term: str) -> int:
    conn = sqlite3.connect(path)
    try:
        pattern = f"%{term}%"
        (count,) = conn.execute(
            "SELECT COUNT(*) FROM sessions WHERE id LIKE ?1 OR title LIKE ?1", (pattern,)
        ).fetchone()
    finally:
        conn.close()
    return int(count)


async def _timed(port: int, target: str, calls: int, touch: Callable[[], None] | None) -> list[float]:
    client = await LeanClient(port).connect()
    timings = []
    for i in range(WARMUP + calls):
        if touch is not None:
            touch()
        t0 = time.perf_counter()
        status, body = await client.request("GET", target)
        if status != 200:
            raise RuntimeError(f"GET {target} answered {status}: {body[:300]!r}")
        if i >= WARMUP:
            timings.append(time.perf_counter() - t0)
    client.close()
    return timings


def run(calls: int = 100, spec: StoreSpec = LARGE) -> dict[str, float]:
    """Measure plain and search listings on one copy of the store, print and return the figures."""
    results: dict[str, float] = {}
    with bench_home() as home:
        path = copy_store(spec, home)
        terms = _terms(path)
        touch = _writer(path)
        with serve(home) as server:
            print(f"list-search index built {server.indexed_after_s:.1f} s after start-up")
            for variant, t in (("repeat", None), ("after_write", touch)):
                plain = asyncio.run(_timed(server.port, "/sessions?limit=20", calls, t))
                for name, term in terms.items():
                    target = f"/sessions?q={quote(term)}&limit=20"
                    search = asyncio.run(_timed(server.port, target, calls, t))
                    figures = {
                        "plain_median_ms": median(plain) * 1000,
                        "search_median_ms": median(search) * 1000,
                        "search_p99_ms": percentile(search, 99) * 1000,
                    }
                    figures["search_over_plain"] = figures["search_median_ms"] / figures["plain_median_ms"]
                    print_figures(
                        f"list search q={term!r} ({name}: {_matches(path, term):,} id/title matches, "
                        f"limit=20), {spec.sessions:,} sessions, "
                        f"{calls} calls, {variant}",
                        figures,
                    )
                    results.update({f"{variant}_{name}_{key}": value for key, value in figures.items()})
    return results


def main() -> None:
    """Command line: ``python bench/list_search.py [--calls N]``."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--calls", type=int, default=100)
    args = parser.parse_args()
    run(args.calls)


if __name__ == "__main__":
    main()
