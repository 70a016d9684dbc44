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

import asyncio
import sqlite3
import sys
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.build_store import LARGE, StoreSpec, copy_store
from bench.common import (
    bench_home,
    calls_main,
    commit_ticker,
    latency_ms,
    median,
    print_figures,
    serve,
    timed_gets,
)


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


def run(calls: int = 100, spec: StoreSpec = LARGE) -> dict[str, float]:
    """Measure plain and search listings on one copy of the store, print and return the figures."""
    results: dict[str, float] = {}
    with bench_home() as home:
        path = copy_store(spec, home)
        terms = _terms(path)
        touch = commit_ticker(path)
        with serve(home) as server:
            print(f"list-search index built {server.indexed_after_s:.1f} s after start-up")
            for variant, t in (("repeat", None), ("after_write", touch)):
                plain = asyncio.run(timed_gets(server.port, "/sessions?limit=20", calls, t))
                for name, term in terms.items():
                    target = f"/sessions?q={quote(term)}&limit=20"
                    search = asyncio.run(timed_gets(server.port, target, calls, t))
                    figures = {
                        "plain_median_ms": median(plain) * 1000,
                        **latency_ms("search", search),
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


if __name__ == "__main__":
    calls_main(__doc__, run, 100)
