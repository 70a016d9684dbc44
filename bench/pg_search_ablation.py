"""What each PostgreSQL search workaround is worth: every switch of ``app.storage.postgres.search_tricks`` off
in turn, and the leader's upkeep (pending-list merges, early ``ANALYZE``) left undone, on the store of
``bench/pg_search.py`` (same rows and ids on both backends), with SQLite's figure for the same calls.

Three workloads, through the stores' read transactions as the server runs them:

- discover: ``app.services.search.discover`` for each query of ``bench/search.py``;
- scroll: a window around a message of a few sessions spread over the store (``around_message_id``);
- list: the listing's search (a page of 20, children included) for ``bench/list_search.py``'s terms.

Each figure is the p50 and p95 over every timed call of a workload (each request ``--runs`` times, after a
warm-up). A switch is timed with the workaround on and off in alternation, call by call, so that the load
of this shared machine falls on both alike; the ratios are off over on (above 1: the workaround pays): of
the p50s, of the p95s, ``min`` of each request's fastest calls (geometric mean over the requests: the
figure other processes disturb least) and ``max`` the largest of those (a workaround may serve one kind
of query only).

The upkeep rows come first, while the store is as its load left it. The bench holds the leader's advisory
lock itself, so that the store's upkeep threads never run, and autovacuum is off on the two tables until
the upkeep rows are measured: ``statistics`` is the store before any ``ANALYZE`` (what a server sees until
autovacuum's next round; the leader analyzes within seconds) against after; ``pending_lists`` is the store
with the GIN pending lists its load left against merged.

The last block holds the targets on the store with every workaround on: discover p50 within 2x of SQLite's,
list p50 within 1.5x. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.services.search import SearchRequest, search
from app.settings import Settings
from app.storage.database import Database
from app.storage.postgres.leader import LEADER_LOCK_KEY
from app.storage.postgres.search_schema import PENDING_LIST_INDEXES
from app.storage.postgres.search_tricks import SearchTricks, switched_off
from app.storage.postgres.store import PgStore
from app.storage.repos import session_list
from app.storage.repos.list_index import index_dirty
from app.storage.rows import ListQuery
from bench.build_store import MEDIUM, STORES, StoreSpec, copy_store
from bench.common import bench_home, percentile
from bench.list_search import _terms
from bench.search import QUERIES
from tests.pg_cluster import start_cluster
from tests.postgres.search_corpus import create_pg_store

PAGE = 20
SCROLLED_SESSIONS = 5
WARMUP = 6
"""Untimed calls of each request per setting: psycopg prepares a statement on its fifth run."""

Call = Callable[[Any], object]
"""A request run in a read transaction of either store."""


@dataclass(frozen=True)
class Workload:
    """The requests of one kind."""

    name: str
    calls: Sequence[Call]


def _search(tx: Any, req: SearchRequest) -> object:
    return search(tx, req)


def _sqlite_list(tx: Any, query: ListQuery) -> object:
    # The listing without the page memo (PostgreSQL has none: other replicas commit unseen).
    return session_list.list_sessions(tx.conn, query)


def _pg_list(tx: Any, query: ListQuery) -> object:
    return tx.sessions.list_sessions_cached(query)


def _anchors(path: Path) -> list[tuple[str, int]]:
    """A middle message of :data:`SCROLLED_SESSIONS` sessions with many messages, spread over the ids."""
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(
            "SELECT session_id, MIN(id), MAX(id) FROM messages GROUP BY session_id HAVING COUNT(*) >= 20"
            " ORDER BY MIN(id)"
        ).fetchall()
    finally:
        conn.close()
    step = max(1, len(rows) // SCROLLED_SESSIONS)
    return [(str(sid), (low + high) // 2) for sid, low, high in rows[::step][:SCROLLED_SESSIONS]]


def _workloads(path: Path, pg: bool) -> list[Workload]:
    discover = [partial(_search, req=SearchRequest(q=q)) for q in QUERIES]
    scroll = [
        partial(_search, req=SearchRequest(session_id=sid, around_message_id=anchor))
        for sid, anchor in _anchors(path)
    ]
    listing = _pg_list if pg else _sqlite_list
    lists = [
        partial(listing, query=ListQuery(limit=PAGE, search=term, include_children=True))
        for term in _terms(path).values()
    ]
    return [Workload("discover", discover), Workload("scroll", scroll), Workload("list", lists)]


Run = Callable[[Call], object]
"""A read transaction of one store running a request."""


def _time(run: Run, call: Call) -> float:
    started = time.perf_counter()
    run(call)
    return (time.perf_counter() - started) * 1000


def _samples(run: Run, workload: Workload, runs: int) -> list[float]:
    samples = []
    for call in workload.calls:
        for _ in range(WARMUP):
            run(call)
        samples += [_time(run, call) for _ in range(runs)]
    return samples


@dataclass(frozen=True)
class Paired:
    """Samples of two settings taken call by call in alternation, so that slow drifts in the load of this
    shared machine fall on both. ``fastest`` compares each request's fastest call under each setting (a
    call the other processes left alone: the request's own cost), as the geometric mean over the requests
    of second over first; ``most`` is the largest of those ratios (a workaround may serve one kind of
    query only)."""

    first: list[float]
    second: list[float]
    fastest: float
    most: float


def _alternate(runs: int, *pairs: tuple[Run, Call, Run, Call]) -> Paired:
    first: list[float] = []
    second: list[float] = []
    ratios: list[float] = []
    for run_a, call_a, run_b, call_b in pairs:
        for _ in range(WARMUP):
            run_a(call_a)
            run_b(call_b)
        mine_a, mine_b = [], []
        for _ in range(runs):
            mine_a.append(_time(run_a, call_a))
            mine_b.append(_time(run_b, call_b))
        first += mine_a
        second += mine_b
        ratios.append(min(mine_b) / min(mine_a))
    return Paired(first, second, statistics.geometric_mean(ratios), max(ratios))


def _off(trick: str, run: Run) -> Run:
    def run_off(call: Call) -> object:
        with switched_off(trick):
            return run(call)

    return run_off


def _p(samples: list[float]) -> str:
    return f"{percentile(samples, 50):7.2f} {percentile(samples, 95):7.2f}"


def _row(name: str, workload: str, on: list[float], off: list[float], lite: list[float], pair: str) -> str:
    ratio = percentile(off, 50) / percentile(on, 50)
    ratio95 = percentile(off, 95) / percentile(on, 95)
    return f"  {name:15} {workload:9} {_p(on)}  {_p(off)}  {ratio:5.2f} {ratio95:5.2f} {pair}  {_p(lite)}"


_HEADER = (
    "  trick           workload   on p50  on p95  off p50 off p95  off/on p50  p95 min   max"
    "  sqlite p50  p95 (ms)"
)
_UNPAIRED = "    -     -"


@contextmanager
def _stores(path: Path, url: str) -> Iterator[tuple[Database, PgStore]]:
    lite = Database(Settings(home=path.parent, api_token="bench")).open()
    pg = PgStore(Settings(home=path.parent / "pg", api_token="bench", database_url=url)).open()
    try:
        yield lite, pg
    finally:
        lite.close()
        pg.close()


def _merge_pending_lists(conn: psycopg.Connection[Any]) -> int:
    merged = 0
    for index in PENDING_LIST_INDEXES:
        row = conn.execute("SELECT gin_clean_pending_list(%s::regclass)", (index,)).fetchone()
        merged += int(row[0]) if row else 0
    return merged


def _autovacuum(conn: psycopg.Connection[Any], on: bool) -> None:
    for table in ("sessions", "messages"):
        conn.execute(f"ALTER TABLE {table} SET (autovacuum_enabled = {'on' if on else 'off'})")


def run(spec: StoreSpec, runs: int, only: list[str] | None) -> None:
    """Load the store into both backends and print the ablation table."""
    started = time.perf_counter()
    with bench_home() as home, ExitStack() as stack:
        path = copy_store(spec, home)
        raw = sqlite3.connect(path, isolation_level=None)
        # The server builds the listing's search index in the background; build it all before timing.
        while index_dirty(raw) is not None:
            pass
        raw.close()
        cluster = start_cluster()
        stack.callback(cluster.stop)
        url = cluster.create_database()
        conn = stack.enter_context(create_pg_store(path, url))
        _autovacuum(conn, False)
        # Held for the whole run: the store's replica never leads, so its upkeep threads never run.
        conn.execute("SELECT pg_advisory_lock(%s)", (LEADER_LOCK_KEY,))
        print(f"store {spec.name}: loaded into PostgreSQL in {time.perf_counter() - started:.0f} s")
        lite, pg = stack.enter_context(_stores(path, url))
        lite_loads = _workloads(path, pg=False)
        pg_loads = _workloads(path, pg=True)

        upkeep_runs = max(3, runs // 3)
        unanalyzed = [_samples(pg.read_sync, w, upkeep_runs) for w in pg_loads]
        conn.execute("ANALYZE")
        unmerged = [_samples(pg.read_sync, w, upkeep_runs) for w in pg_loads]
        merged_pages = _merge_pending_lists(conn)
        settled = [_samples(pg.read_sync, w, upkeep_runs) for w in pg_loads]
        # What autovacuum would do to the loaded tables by itself, done before the paired timings.
        conn.execute("VACUUM ANALYZE")
        _autovacuum(conn, True)

        targets = [
            _alternate(
                runs, *((lite.read_sync, a, pg.read_sync, b) for a, b in zip(lw.calls, pw.calls, strict=True))
            )
            for lw, pw in zip(lite_loads, pg_loads, strict=True)
        ]
        lite_samples = [t.first for t in targets]
        print(_HEADER)
        for i, w in enumerate(pg_loads):
            print(_row("statistics", w.name, unmerged[i], unanalyzed[i], lite_samples[i], _UNPAIRED))
        for i, w in enumerate(pg_loads):
            print(_row("pending_lists", w.name, settled[i], unmerged[i], lite_samples[i], _UNPAIRED))
        print(f"  (pending-list pages the load left, merged after the unmerged rows: {merged_pages})")

        for trick in only or SearchTricks.names():
            for i, w in enumerate(pg_loads):
                off = _off(trick, pg.read_sync)
                got = _alternate(runs, *((pg.read_sync, call, off, call) for call in w.calls))
                pair = f"{got.fastest:5.2f} {got.most:5.2f}"
                print(_row(trick, w.name, got.first, got.second, lite_samples[i], pair), flush=True)

        print("\n== targets, every workaround on, alternating with SQLite (p50 ms)")
        print("  workload  postgresql  sqlite  ratio   min  target")
        for w, t, goal in zip(pg_loads, targets, ("2", "-", "1.5"), strict=True):
            pg_p50, lite_p50 = percentile(t.second, 50), percentile(t.first, 50)
            print(
                f"  {w.name:9} {pg_p50:10.2f} {lite_p50:7.2f} {pg_p50 / lite_p50:6.2f}"
                f" {t.fastest:5.2f}  {goal}"
            )
    print(f"\nwhole run: {time.perf_counter() - started:.0f} s")


def main() -> None:
    """Parse arguments and run."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--store", choices=sorted(STORES), default=MEDIUM.name)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--trick", action="append", choices=SearchTricks.names(), help="only these")
    args = parser.parse_args()
    run(STORES[args.store], args.runs, args.trick)


if __name__ == "__main__":
    main()
