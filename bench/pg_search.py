"""Search on PostgreSQL against search on SQLite, on the same store (same rows, same ids), in the same run.

The SQLite side is the cached multilingual store of ``bench/build_store.py``; the PostgreSQL side is a
throwaway server (``tests/pg_cluster.py``, or ``--url``) migrated to head (the server's schema, search
columns and indexes) and loaded from that file by ``COPY``. Both sides run the server's own code through
its stores' read transactions (``Database.read_sync``, ``PgStore.read_sync``), so the figures compare the
storage layers, not HTTP:

- discover: ``app.services.search.discover`` (limit 3, window 5, bookends 3) for each query of
  ``bench/search.py``; target (issue 15): the PostgreSQL median within 2x of SQLite's;
- list: the listing's search (``Sessions.list_sessions``, a page of 20, children included) for a
  common, a few-rows and a one-row term (``bench/list_search.py``'s terms): on SQLite with its list-search
  index built, on PostgreSQL with its trigram indexes; target: within 1.5x of SQLite's.

Each figure is the median of sequential calls after a warm-up; figures are printed, never asserted.

With ``--baseline DIR`` (a checkout of another build, e.g. ``git worktree add DIR <rev>``), that build's
discover runs on the same PostgreSQL server, on a database of its own loaded from the same file through its
own migrations (``bench/pg_discover_worker.py``), each query timed right after this build's, and its median
and this build's ratio to it are printed too.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.services.search import SearchRequest, discover
from app.settings import Settings
from app.storage.commit_notice import Changes
from app.storage.postgres.search_schema import PENDING_LIST_INDEXES
from app.storage.postgres.store import PgStore
from app.storage.protocols import Tx
from app.storage.repos.list_index import ListIndex
from app.storage.rows import ListQuery
from app.storage.sqlite.driver import sqlite3
from app.storage.sqlite.store import Database
from bench.build_store import MEDIUM, STORES, StoreSpec, copy_store
from bench.common import bench_home, median, print_figures
from bench.list_search import _terms
from bench.pg_discover_worker import timed
from bench.search import QUERIES
from tests.pg_cluster import start_cluster
from tests.postgres.search_corpus import create_pg_store

PAGE = 20


def _sqlite_list(tx: Any, query: ListQuery) -> object:
    # The listing without the page memo (PostgreSQL has none: other replicas commit unseen).
    return tx.sessions.list_sessions(query)


def _pg_list(tx: Tx, query: ListQuery) -> object:
    return tx.sessions.list_sessions_cached(query)


class _Baseline:
    """Another build's discover, timed by ``bench/pg_discover_worker.py`` on a database it loads from the
    same file."""

    def __init__(self, build: Path, url: str, home: Path, runs: int, state_db: Path) -> None:
        worker = Path(__file__).with_name("pg_discover_worker.py")
        self.process = subprocess.Popen(
            [sys.executable, str(worker), str(build.resolve()), url, str(home), str(runs), str(state_db)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        # Its load would otherwise run beside this build's timings.
        self._answer()

    def _answer(self) -> Any:
        assert self.process.stdout is not None
        answer = self.process.stdout.readline()
        if not answer:
            raise RuntimeError(f"the baseline worker exited with {self.process.wait()}")
        return json.loads(answer)

    def time(self, query: str) -> float:
        """That build's median milliseconds for ``query``."""
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(query) + "\n")
        self.process.stdin.flush()
        return float(self._answer())

    def close(self) -> None:
        """End the worker."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=60)


def run(
    spec: StoreSpec, runs: int, url: str | None, baseline: Path | None = None, baseline_url: str | None = None
) -> None:
    """Load the store into both backends and print the medians and ratios."""
    with bench_home() as home:
        path = copy_store(spec, home)
        cluster = None
        if url is None:
            cluster = start_cluster()
            url = cluster.create_database()
            if baseline is not None and baseline_url is None:
                baseline_url = cluster.create_database()
        if baseline is not None and baseline_url is None:
            raise SystemExit("--baseline with --url needs --baseline-url, an empty database for that build")
        try:
            started = time.perf_counter()
            with create_pg_store(path, url) as conn:
                # A running server's leader merges what the load left in the GIN pending lists within a
                # fraction of a second (pending_lists); a search would otherwise read them entry by entry.
                merged = sum(
                    int(conn.execute("SELECT gin_clean_pending_list(%s::regclass)", (index,)).fetchone()[0])
                    for index in PENDING_LIST_INDEXES
                )
                conn.execute("ANALYZE")
            loaded = time.perf_counter() - started
            before = None
            if baseline is not None and baseline_url is not None:
                before = _Baseline(baseline, baseline_url, path.parent / "baseline", runs, path)
            _measure(spec, path, url, runs, (loaded, merged), before)
        finally:
            if cluster is not None:
                cluster.stop()


def _discover(tx: Tx, req: SearchRequest) -> dict[str, Any]:
    return discover(tx, req)


def _measure(
    spec: StoreSpec, path: Path, url: str, runs: int, loaded: tuple[float, int], before: _Baseline | None
) -> None:
    raw = sqlite3.connect(path, isolation_level=None)
    # The server builds the listing's search index in the background; build it all before timing.
    listing = ListIndex(raw, Changes())
    while listing.index_dirty() is not None:
        pass
    raw.close()
    lite_db = Database(Settings(home=path.parent, api_token="bench")).open()
    pg_db = PgStore(Settings(home=path.parent / "pg", api_token="bench", database_url=url)).open()
    try:
        figures: dict[str, Any] = {
            "store": spec.name,
            "postgresql load + index (s)": loaded[0],
            "pending-list pages merged after the load": loaded[1],
        }
        lite_all, pg_all, before_all = [], [], []
        for q in QUERIES:
            req = SearchRequest(q=q)
            lite = timed(partial(lite_db.read_sync, partial(_discover, req=req)), runs)
            pg = timed(partial(pg_db.read_sync, partial(_discover, req=req)), runs)
            lite_all.append(lite)
            pg_all.append(pg)
            line = f"{lite:.2f} / {pg:.2f}  ({pg / lite:.2f}x)"
            if before is not None:
                before_all.append(before.time(q))
                line += f"; baseline build {before_all[-1]:.2f}"
            figures[f"discover {q!r} sqlite / postgresql (ms)"] = line
        lite_median, pg_median = median(lite_all), median(pg_all)
        figures["discover median sqlite (ms)"] = lite_median
        figures["discover median postgresql (ms)"] = pg_median
        figures["discover ratio postgresql/sqlite (target <= 2)"] = pg_median / lite_median
        if before is not None:
            figures["discover median postgresql, baseline build (ms)"] = median(before_all)
            figures["discover ratio this build / baseline build"] = pg_median / median(before_all)
        print_figures("discover on both backends", figures)

        figures = {}
        lite_all, pg_all = [], []
        for name, term in _terms(path).items():
            query = ListQuery(limit=PAGE, search=term, include_children=True)
            lite = timed(partial(lite_db.read_sync, partial(_sqlite_list, query=query)), runs)
            pg = timed(partial(pg_db.read_sync, partial(_pg_list, query=query)), runs)
            lite_all.append(lite)
            pg_all.append(pg)
            figures[f"list {name} {term!r} sqlite / postgresql (ms)"] = (
                f"{lite:.2f} / {pg:.2f}  ({pg / lite:.2f}x)"
            )
        lite_median, pg_median = median(lite_all), median(pg_all)
        figures["list median sqlite (ms)"] = lite_median
        figures["list median postgresql (ms)"] = pg_median
        figures["list ratio postgresql/sqlite (target <= 1.5)"] = pg_median / lite_median
        print_figures("list search on both backends", figures)
    finally:
        if before is not None:
            before.close()
        lite_db.close()
        pg_db.close()


def main() -> None:
    """Parse arguments and run."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--store", choices=sorted(STORES), default=MEDIUM.name)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--url", help="an empty PostgreSQL database to use instead of a throwaway server")
    parser.add_argument("--baseline", type=Path, help="another build's checkout, timed too")
    parser.add_argument("--baseline-url", help="with --url: an empty database for the baseline build")
    args = parser.parse_args()
    run(STORES[args.store], args.runs, args.url, args.baseline, args.baseline_url)


if __name__ == "__main__":
    main()
