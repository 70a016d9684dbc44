"""Group commit on PostgreSQL: jobs that queue together commit in one transaction, a failing job fails alone
and the others still commit, and nothing is written twice or lost.

The first tests drive :class:`GroupCommitter` with a model transaction (no database); the last ones run the
real store against a throwaway PostgreSQL."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest
from psycopg import errors as pg_errors

from app.domain.records import NewSession
from app.errors import SessionNotFound
from app.services import messages as message_service
from app.storage.postgres.group_commit import _REGROUPS, GroupCommitter, JobFailed
from app.storage.postgres.notify import EVENT_ORDER_LOCK_KEY
from app.storage.postgres.store import PgStore
from app.storage.protocols import Tx
from app.storage.rows import MessageQuery
from tests.postgres.conftest import new_session


class ModelDatabase:
    """A transaction model: a group's functions run in order against a scratch list, which becomes the
    committed state only when all of them succeed."""

    def __init__(self) -> None:
        self.committed: list[Any] = []
        self.groups: list[int] = []
        self.calls = 0
        self._lock = threading.Lock()

    def run_group(self, fns: Sequence[Callable[[Any], Any]], leads: Sequence[Any] = ()) -> list[Any]:
        scratch: list[Any] = []
        results = []
        for index, fn in enumerate(fns):
            self.calls += 1
            try:
                results.append(fn(scratch))
            except Exception as exc:
                raise JobFailed(index, exc) from exc
        with self._lock:
            self.committed.extend(scratch)
            self.groups.append(len(fns))
        return results

    def run_alone(self, fn: Callable[[Any], Any]) -> Any:
        try:
            return self.run_group([fn])[0]
        except JobFailed as failed:
            raise failed.error from None


def _append(value: Any) -> Callable[[list[Any]], Any]:
    def job(scratch: list[Any]) -> Any:
        scratch.append(value)
        return value

    return job


def _fail(scratch: list[Any]) -> None:
    scratch.append("half-written")
    raise ValueError("refused")


@pytest.fixture
def model() -> Iterator[tuple[ModelDatabase, GroupCommitter]]:
    db = ModelDatabase()
    lanes = GroupCommitter(db.run_group, db.run_alone, batch_max=64, lanes=1)
    lanes.start()
    try:
        yield db, lanes
    finally:
        lanes.stop()


class _Blocker:
    """A job that holds the only lane until :attr:`release` is set; :attr:`started` is set once it runs."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()

    def __call__(self, scratch: list[Any]) -> str:
        self.started.set()
        self.release.wait(10)
        return "blocker"


def _behind_a_blocker(lanes: GroupCommitter, jobs: list[Callable[[Any], Any]]) -> list[Future[Any]]:
    """Queue ``jobs`` while the only lane is busy, so they are all waiting when it comes back."""
    blocker = _Blocker()
    first = lanes.submit(blocker)
    assert blocker.started.wait(10)
    futures = [lanes.submit(job) for job in jobs]
    blocker.release.set()
    assert first.result(10) == "blocker"
    return futures


def test_jobs_that_queue_together_commit_in_one_transaction(
    model: tuple[ModelDatabase, GroupCommitter],
) -> None:
    db, lanes = model
    futures = _behind_a_blocker(lanes, [_append(i) for i in range(5)])
    assert [f.result(10) for f in futures] == list(range(5))
    assert db.groups == [1, 5]
    assert db.committed == list(range(5))


def test_a_failing_job_gets_its_error_and_the_others_commit_once(
    model: tuple[ModelDatabase, GroupCommitter],
) -> None:
    db, lanes = model
    jobs = [_append(0), _append(1), _fail, _append(3), _append(4)]
    futures = _behind_a_blocker(lanes, jobs)
    with pytest.raises(ValueError, match="refused"):
        futures[2].result(10)
    assert [futures[i].result(10) for i in (0, 1, 3, 4)] == [0, 1, 3, 4]
    # Nothing the failed job wrote, nothing twice: the group's first attempt rolled back entirely.
    assert sorted(db.committed) == [0, 1, 3, 4]
    assert db.groups == [1, 4]  # the failing job alone (rolled back, not counted), then the rest together


def test_many_failing_jobs_cost_linear_work(model: tuple[ModelDatabase, GroupCommitter]) -> None:
    db, lanes = model
    jobs: list[Callable[[Any], Any]] = [_fail if i % 2 else _append(i) for i in range(40)]
    futures = _behind_a_blocker(lanes, jobs)
    for i, future in enumerate(futures):
        if i % 2:
            with pytest.raises(ValueError):
                future.result(10)
        else:
            assert future.result(10) == i
    assert sorted(db.committed) == list(range(0, 40, 2))
    # Each regroup runs the group once more; after that every job runs once on its own.
    assert db.calls <= 1 + (_REGROUPS + 1) * len(jobs) + len(jobs)


def test_a_job_given_up_before_it_started_is_not_run(model: tuple[ModelDatabase, GroupCommitter]) -> None:
    db, lanes = model
    blocker = _Blocker()
    first = lanes.submit(blocker)
    assert blocker.started.wait(10)
    abandoned = lanes.submit(_append("abandoned"))
    kept = lanes.submit(_append("kept"))
    assert abandoned.cancel()
    blocker.release.set()
    first.result(10)
    assert kept.result(10) == "kept"
    assert db.committed == ["kept"]


def test_an_awaited_job_whose_caller_was_cancelled_before_it_started_is_not_run(
    model: tuple[ModelDatabase, GroupCommitter],
) -> None:
    db, lanes = model
    blocker = _Blocker()

    async def scenario() -> None:
        first = asyncio.ensure_future(lanes.write(blocker))
        while not blocker.started.is_set():
            await asyncio.sleep(0.01)
        abandoned = asyncio.ensure_future(lanes.write(_append("abandoned")))
        kept = asyncio.ensure_future(lanes.write(_append("kept")))
        await asyncio.sleep(0.01)  # both queued behind the blocker
        abandoned.cancel()
        await asyncio.sleep(0.01)
        blocker.release.set()
        await first
        assert await asyncio.wait_for(kept, 10) == "kept"
        with pytest.raises(asyncio.CancelledError):
            await abandoned

    asyncio.run(scenario())
    assert db.committed == ["kept"]


def test_an_awaited_job_answers_its_error_on_the_loop(model: tuple[ModelDatabase, GroupCommitter]) -> None:
    _db, lanes = model

    async def scenario() -> None:
        with pytest.raises(ValueError, match="refused"):
            await lanes.write(_fail)
        assert await lanes.write(_append("after")) == "after"

    asyncio.run(scenario())


def test_awaited_jobs_committed_together_each_get_their_own_answer(
    model: tuple[ModelDatabase, GroupCommitter],
) -> None:
    db, lanes = model
    blocker = _Blocker()

    async def scenario() -> list[Any]:
        first = asyncio.ensure_future(lanes.write(blocker))
        while not blocker.started.is_set():
            await asyncio.sleep(0.01)
        queued = [asyncio.ensure_future(lanes.write(_fail if i == 3 else _append(i))) for i in range(6)]
        await asyncio.sleep(0.01)  # all queued behind the blocker: one group
        blocker.release.set()
        await first
        return await asyncio.gather(*queued, return_exceptions=True)

    answers = asyncio.run(scenario())
    assert [a if not isinstance(a, ValueError) else "refused" for a in answers] == [0, 1, 2, "refused", 4, 5]
    assert sorted(db.committed) == [0, 1, 2, 4, 5]
    assert db.groups == [1, 5]  # the blocker, then the five that succeeded in one commit


def test_stopping_runs_what_was_queued_and_refuses_more(model: tuple[ModelDatabase, GroupCommitter]) -> None:
    _db, lanes = model
    futures = [lanes.submit(_append(i)) for i in range(20)]
    lanes.stop()
    assert [f.result(0) for f in futures] == list(range(20))
    with pytest.raises(RuntimeError):
        lanes.submit(_append("late"))


# -- the real store --------------------------------------------------------------------------------------


@contextmanager
def _both_lanes_held(store: PgStore, pool: ThreadPoolExecutor) -> Iterator[None]:
    """Both lanes busy, each with a job that waits until the block ends: what is written meanwhile queues."""
    release = threading.Event()
    holding = threading.Semaphore(0)

    def hold(tx: Tx) -> None:
        holding.release()
        release.wait(60)

    holders = []
    try:
        # One at a time: a lane takes every job waiting, so two queued together would share one lane.
        for _ in range(2):
            holders.append(pool.submit(store.write_sync, hold))
            assert holding.acquire(timeout=10)
        yield
    finally:
        release.set()
    for holder in holders:
        holder.result(10)


def _append_job(session_id: str, content: str) -> Callable[[Tx], Any]:
    # The append use case itself (the session guard, the counters, the events), as a plain writer job: its
    # append is made by its own call, not ahead with the group's (test_leading_appends.py covers those).
    job = message_service.append_job(session_id, [{"role": "user", "content": content}], reopen=False)
    return lambda tx: job(tx)


def test_concurrent_appends_commit_in_groups_and_a_missing_session_fails_alone(store: PgStore) -> None:
    sessions = [f"g{i}" for i in range(24)]
    for sid in sessions:
        new_session(store, sid)
    targets = [*sessions, "missing", *sessions[:8]]
    # The appends queue up behind both lanes and go in as groups.
    with ThreadPoolExecutor(max_workers=40) as pool:
        with _both_lanes_held(store, pool):
            appends = [
                pool.submit(store.write_sync, _append_job(sid, f"m{i}")) for i, sid in enumerate(targets)
            ]
            deadline = time.monotonic() + 10
            while store.writer_status().queue_depth < len(targets) and time.monotonic() < deadline:
                time.sleep(0.01)
        outcomes: list[Any] = []
        for future in appends:
            try:
                outcomes.append(future.result(30))
            except SessionNotFound as exc:
                outcomes.append(exc)

    missing = targets.index("missing")
    assert isinstance(outcomes[missing], SessionNotFound)
    stored = [row for i, rows in enumerate(outcomes) if i != missing for row in rows]
    assert len({row["id"] for row in stored}) == len(targets) - 1
    status = store.writer_status()
    assert max(status.batch_sizes) > 1, status.batch_sizes

    def state(tx: Tx) -> dict[str, tuple[int, list[str]]]:
        found = {}
        for sid in sessions:
            row = tx.sessions.fetch_session(sid)
            assert row is not None
            page = tx.messages.to_messages(tx.messages.page(MessageQuery(sid)))
            found[sid] = (row["message_count"], [m["content"] for m in page])
        return found

    found = store.read_sync(state)
    for sid in sessions:
        expected = [f"m{i}" for i, target in enumerate(targets) if target == sid]
        assert found[sid][1] == expected  # each message once, in the order its writes were answered
        assert found[sid][0] == len(expected)
    # Every stored message has its event, and the log holds nothing for the failed append.
    events = store.read_sync(lambda tx: tx.events.after(0, None, 1000))
    assert [kind for _, kind, _ in events].count("message.created") == len(targets) - 1
    assert store.read_sync(lambda tx: tx.events.after(0, "missing", 10)) == []


def test_two_groups_wanting_each_others_rows_do_not_deadlock(store: PgStore, pg_migrated_url: str) -> None:
    """Each group holds a session row the other then wants: PostgreSQL would break that deadlock only after
    its ``deadlock_timeout`` (1 s). A job in a group waits for a lock briefly, then fails and runs alone."""
    for sid in ("d1", "d2"):
        new_session(store, sid)
    both_hold_one = threading.Barrier(2, timeout=10)

    def take(sid: str, then_wait: bool) -> Callable[[Tx], None]:
        def job(tx: Tx) -> None:
            tx.sessions.set_model(sid, f"model-{sid}")
            if then_wait:
                both_hold_one.wait()

        return job

    def deadlocks() -> int:
        with psycopg.connect(pg_migrated_url, autocommit=True) as conn:
            row = conn.execute(
                "SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()"
            ).fetchone()
            assert row is not None
            return int(row[0])

    before = deadlocks()
    groups = ([take("d1", True), take("d2", False)], [take("d2", True), take("d1", False)])
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = [pool.submit(store._run_group, group) for group in groups]
        outcomes = [run.exception(30) for run in runs]
    failures = [o for o in outcomes if o is not None]
    assert failures, "one group must have given way"
    for failure in failures:
        assert isinstance(failure, JobFailed) and failure.index == 1
        assert isinstance(failure.error, pg_errors.LockNotAvailable), failure.error
    time.sleep(0.1)  # the statistics collector's counters are flushed when a backend goes idle
    assert deadlocks() == before


def test_a_group_waits_for_the_event_order_lock_as_long_as_it_takes(
    store: PgStore, pg_migrated_url: str
) -> None:
    """The lock wait bound is for rows: the events' ordering lock is held only by a committing transaction,
    which waits on nothing, so a group waits for it (here 0.3 s, far past the bound) and commits."""
    store.write_sync(lambda tx: tx.sessions.insert_session("e1", NewSession(source="cli")))
    group = [_append_job("e1", "first"), _append_job("e1", "second")]
    with psycopg.connect(pg_migrated_url, autocommit=True) as holder:
        holder.execute("SELECT pg_advisory_lock(%s)", (EVENT_ORDER_LOCK_KEY,))
        with ThreadPoolExecutor(max_workers=1) as pool:
            run = pool.submit(store._run_group, group)
            time.sleep(0.3)
            assert not run.done()
            holder.execute("SELECT pg_advisory_unlock(%s)", (EVENT_ORDER_LOCK_KEY,))
            stored = run.result(30)
    assert [[m["content"] for m in rows] for rows in stored] == [["first"], ["second"]]


def test_a_bulk_write_runs_beside_the_lanes(store: PgStore) -> None:
    """An import chunk, a sync batch or a prune batch commits in a transaction of its own: with both lanes
    busy it still commits at once, and the small writes queued meanwhile are not held inside it."""
    store.write_sync(lambda tx: tx.sessions.insert_session("b1", NewSession(source="cli")))
    with ThreadPoolExecutor(max_workers=2) as pool, _both_lanes_held(store, pool):
        stored = asyncio.run(asyncio.wait_for(store.write(_append_job("b1", "bulk"), bulk=True), 5))
        assert [m["content"] for m in stored] == ["bulk"]
        with pytest.raises(SessionNotFound):
            asyncio.run(store.write(_append_job("nowhere", "x"), bulk=True))
    assert store.writer_status().jobs_committed >= 4
