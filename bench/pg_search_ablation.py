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
the p50s and the p95s of wall time, and ``cpu``, of each request's median CPU time (this process's and the
PostgreSQL server's, which the other processes of a busy machine disturb far less than wall time),
the geometric mean over the requests, ``max`` the largest (a workaround may serve one kind of query
only). The upkeep rows are taken one setting after the other, not in alternation.

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
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.services.search import SearchRequest, search
from app.settings import Settings
from app.storage.commit_notice import Changes
from app.storage.postgres import stats_cache
from app.storage.postgres.leader import LEADER_LOCK_KEY
from app.storage.postgres.search_schema import PENDING_LIST_INDEXES
from app.storage.postgres.search_tricks import SearchTricks, switched_off
from app.storage.postgres.store import PgStore
from app.storage.repos.list_index import ListIndex
from app.storage.rows import ListQuery
from app.storage.sqlite.driver import sqlite3
from app.storage.sqlite.store import Database
from bench.build_store import MEDIUM, STORES, StoreSpec, copy_store
from bench.common import bench_home, median, percentile
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
    return tx.sessions.list_sessions(query)


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


class Clock:
    """Wall time and CPU time of a call: this process's (every thread) and, with a ``postmaster``, that of
    every process of the PostgreSQL server (its scheduler statistics, in nanoseconds). CPU time is what the
    other processes of this shared machine leave alone: a call preempted by them takes longer, not more
    CPU."""

    def __init__(self, postmaster: int | None = None) -> None:
        self.postmaster = postmaster

    def _server_ns(self) -> int:
        if self.postmaster is None:
            return 0
        children = Path(f"/proc/{self.postmaster}/task/{self.postmaster}/children").read_text().split()
        total = 0
        for pid in [self.postmaster, *map(int, children)]:
            try:
                total += int(Path(f"/proc/{pid}/schedstat").read_text().split()[0])
            except (FileNotFoundError, ProcessLookupError):
                continue  # a backend that ended meanwhile
        return total

    def time(self, run: Run, call: Call) -> tuple[float, float]:
        """Milliseconds of wall time and of CPU time ``run(call)`` took."""
        server = self._server_ns()
        cpu = time.process_time_ns()
        started = time.perf_counter_ns()
        run(call)
        wall = time.perf_counter_ns() - started
        cpu = time.process_time_ns() - cpu
        return wall / 1e6, (cpu + self._server_ns() - server) / 1e6


@dataclass
class Samples:
    """The wall and CPU milliseconds of each call, by request."""

    wall: list[list[float]] = field(default_factory=list)
    cpu: list[list[float]] = field(default_factory=list)

    def add(self, timed: list[tuple[float, float]]) -> None:
        """One request's calls."""
        self.wall.append([w for w, _ in timed])
        self.cpu.append([c for _, c in timed])

    @property
    def walls(self) -> list[float]:
        """Every call's wall time."""
        return [w for request in self.wall for w in request]


def _samples(clock: Clock, run: Run, workload: Workload, runs: int) -> Samples:
    samples = Samples()
    for call in workload.calls:
        for _ in range(WARMUP):
            run(call)
        samples.add([clock.time(run, call) for _ in range(runs)])
    return samples


def _alternate(clock: Clock, runs: int, *pairs: tuple[Run, Call, Run, Call]) -> tuple[Samples, Samples]:
    """Each pair's two calls in alternation, so that slow drifts in the machine's load fall on both."""
    first, second = Samples(), Samples()
    for run_a, call_a, run_b, call_b in pairs:
        for _ in range(WARMUP):
            run_a(call_a)
            run_b(call_b)
        timed = [(clock.time(run_a, call_a), clock.time(run_b, call_b)) for _ in range(runs)]
        first.add([a for a, _ in timed])
        second.add([b for _, b in timed])
    return first, second


def _cpu_ratios(on: Samples, off: Samples) -> tuple[float, float]:
    """The geometric mean over the requests of their median CPU time off over on, and the largest."""
    ratios = [median(b) / median(a) for a, b in zip(on.cpu, off.cpu, strict=True)]
    return statistics.geometric_mean(ratios), max(ratios)


def _off(trick: str, run: Run) -> Run:
    def run_off(call: Call) -> object:
        with switched_off(trick):
            return run(call)

    return run_off


def _p(samples: list[float]) -> str:
    return f"{percentile(samples, 50):7.2f} {percentile(samples, 95):7.2f}"


def _row(name: str, workload: str, on: Samples, off: Samples, lite: Samples) -> str:
    ratio = percentile(off.walls, 50) / percentile(on.walls, 50)
    ratio95 = percentile(off.walls, 95) / percentile(on.walls, 95)
    cpu, most = _cpu_ratios(on, off)
    return (
        f"  {name:15} {workload:9} {_p(on.walls)}  {_p(off.walls)}  {ratio:5.2f} {ratio95:5.2f}"
        f" {cpu:5.2f} {most:5.2f}  {_p(lite.walls)}"
    )


_HEADER = (
    "  trick           workload   on p50  on p95  off p50 off p95  off/on p50  p95   cpu   max"
    "  sqlite p50  p95 (ms)"
)


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


def _analyze(conn: psycopg.Connection[Any], statement: str) -> None:
    conn.execute(statement)
    # The store reads what ANALYZE keeps once a minute: the next call is to see these statistics.
    stats_cache.forget()


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
        listing = ListIndex(raw, Changes())
        while listing.index_dirty() is not None:
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
        row = conn.execute("SELECT pg_backend_pid()").fetchone()
        assert row is not None
        # The server's processes are the postmaster's children (read while this backend lives).
        clock = Clock(int(Path(f"/proc/{row[0]}/stat").read_text().rsplit(")", 1)[1].split()[1]))

        upkeep_runs = max(3, runs // 3)
        unanalyzed = [_samples(clock, pg.read_sync, w, upkeep_runs) for w in pg_loads]
        _analyze(conn, "ANALYZE")
        unmerged = [_samples(clock, pg.read_sync, w, upkeep_runs) for w in pg_loads]
        merged_pages = _merge_pending_lists(conn)
        settled = [_samples(clock, pg.read_sync, w, upkeep_runs) for w in pg_loads]
        # What autovacuum would do to the loaded tables by itself, done before the paired timings.
        _analyze(conn, "VACUUM ANALYZE")
        _autovacuum(conn, True)

        targets = [
            _alternate(
                clock,
                runs,
                *((lite.read_sync, a, pg.read_sync, b) for a, b in zip(lw.calls, pw.calls, strict=True)),
            )
            for lw, pw in zip(lite_loads, pg_loads, strict=True)
        ]
        lite_samples = [lite_side for lite_side, _ in targets]
        print(_HEADER)
        for i, w in enumerate(pg_loads):
            print(_row("statistics", w.name, unmerged[i], unanalyzed[i], lite_samples[i]))
        for i, w in enumerate(pg_loads):
            print(_row("pending_lists", w.name, settled[i], unmerged[i], lite_samples[i]))
        print(f"  (pending-list pages the load left, merged after the unmerged rows: {merged_pages})")

        for trick in only or SearchTricks.names():
            for i, w in enumerate(pg_loads):
                off = _off(trick, pg.read_sync)
                on_side, off_side = _alternate(
                    clock, runs, *((pg.read_sync, call, off, call) for call in w.calls)
                )
                print(_row(trick, w.name, on_side, off_side, lite_samples[i]), flush=True)

        print("\n== targets, every workaround on, alternating with SQLite (p50 ms of wall time)")
        print("  workload  postgresql  sqlite  ratio  cpu ratio  target")
        for w, (lite_side, pg_side), goal in zip(pg_loads, targets, ("2", "-", "1.5"), strict=True):
            pg_p50, lite_p50 = percentile(pg_side.walls, 50), percentile(lite_side.walls, 50)
            cpu, _ = _cpu_ratios(lite_side, pg_side)
            print(f"  {w.name:9} {pg_p50:10.2f} {lite_p50:7.2f} {pg_p50 / lite_p50:6.2f} {cpu:10.2f}  {goal}")
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
