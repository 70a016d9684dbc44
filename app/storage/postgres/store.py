"""The PostgreSQL store: psycopg pools, write jobs committed in groups by a few lanes, commit notices.

Unlike SQLite there is no single writer to queue behind: each lane (:mod:`group_commit`) runs its group of
jobs in one transaction on a pooled connection, and concurrent writers (the other lane here, other replicas
elsewhere) meet in the database. What SQLite serialised by its write lock is kept by constraints and
retries: a job that hits a serialization failure, a deadlock or a unique violation (two writers numbering the
same title) is run again from the start in a new transaction of its own, up to :data:`MAX_ATTEMPTS` times.
Read jobs run on a second pool of connections that refuse writes, with no transaction block (see
:func:`_configure_read_only`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import psycopg
from psycopg import errors as pg_errors
from psycopg.pq import TransactionStatus
from psycopg_pool import ConnectionPool, PoolTimeout

from app.errors import AgentFileReadOnly, DatabaseBusy, HermesError
from app.settings import Settings
from app.storage.commit_notice import Changes, CommitNotice, NoticeBoard, Subscriber
from app.storage.hermes_ddl import SCHEMA_VERSION
from app.storage.postgres import migrate
from app.storage.postgres.connection import POOL_SETTINGS, configure, kept_cursor, with_options
from app.storage.postgres.group_commit import LANES, GroupCommitter, JobFailed
from app.storage.postgres.leader import AdvisoryLeader
from app.storage.postgres.notify import EventListener, insert_events_and_commit, relay_to_loop
from app.storage.postgres.pending_lists import PendingListCleaner
from app.storage.postgres.repos.messages import MadeAppend, make_leading_appends
from app.storage.postgres.statistics import StatisticsKeeper
from app.storage.postgres.tx import BACKEND, PgTx
from app.storage.protocols import AppendJob
from app.storage.rows import NewEvent, Opened, WriterStatus

T = TypeVar("T")
log = logging.getLogger(__name__)

MAX_ATTEMPTS = 8
"""Runs of one job before its conflict is reported (each retry waits a little longer, with jitter)."""
GROUP_LOCK_TIMEOUT = "2ms"
"""How long a job in a group may wait for a lock (a row another transaction is writing). Two groups can
each hold a row the other wants (appends to the same sessions, in different orders), a deadlock PostgreSQL
breaks only after ``deadlock_timeout`` (1 s); past this wait the job runs alone instead, where it waits as
long as it must."""
_RETRYABLE = (pg_errors.SerializationFailure, pg_errors.DeadlockDetected, pg_errors.UniqueViolation)
# Connections beyond the worker threads: the event hub's and the jobs' waits never starve each other.
_EXTRA_CONNECTIONS = 2


class Commits(NoticeBoard):
    """Commit notices of this process's transactions, delivered on the subscribers' event loop.

    Shaped like the SQLite writer's side of it (``subscribe``, ``commit_hooks``, ``alive``, counters), so the
    services that follow commits (event streams, auto-titles) work unchanged on either backend.
    """

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self.commits = 0
        self.jobs_committed = 0
        self.alive = True
        # Jobs per transaction, as /metrics reports the SQLite writer's group commits.
        self.batch_sizes: dict[int, int] = {}

    def committed(self, changes: Changes, jobs: int) -> None:
        """Count one transaction of ``jobs`` jobs and publish its notice when it changed something."""
        with self._lock:
            self.commits += 1
            self.jobs_committed += jobs
            self.batch_sizes[jobs] = self.batch_sizes.get(jobs, 0) + 1
            number = self.commits
        if changes:
            self._publish(CommitNotice.of(number, changes))


class PgStore:
    """The database as services see it, on PostgreSQL (``HERMES_DATABASE_URL=postgresql://...``)."""

    backend = BACKEND
    files = None
    """SQLite file operations (vacuum, backup, repair, render pool): none on PostgreSQL."""
    read_only = False
    routing_scope = ""
    """One routing table for every replica, whatever its home (the column's default; no agent reads it)."""
    opened = Opened()
    """A database holds no agent's file to adopt, and the banner counts what it serves."""

    def __init__(self, settings: Settings) -> None:
        assert settings.database_url is not None, "PgStore needs HERMES_DATABASE_URL"
        self.settings = settings
        self.url = settings.database_url
        self.agent_schema_version: int | None = SCHEMA_VERSION
        size = settings.reader_threads + _EXTRA_CONNECTIONS
        # Writes: the lanes' connections beside the worker threads' (bulk jobs run on those threads).
        self.pool = self._pool(size + LANES, configure, "hermes")
        self.read_pool = self._pool(size, _configure_read_only, "hermes-read")
        """Connections that refuse every write: read jobs run on them without a transaction block."""
        self._executor = ThreadPoolExecutor(max_workers=size, thread_name_prefix="hermes-pg")
        self.writer = Commits()
        self._lanes = GroupCommitter(self._run_group, self._run_alone, batch_max=settings.write_batch_max)
        self._server_version = ""
        self.leadership = AdvisoryLeader(self.url)
        """This replica's candidacy for the background jobs (auto-prune, event pruning, gateway expiry)."""
        self.pending_lists = PendingListCleaner(self.url, lambda: self.leadership.leading)
        """The leader's merging of the search indexes' pending lists (off the writes' path)."""
        self.statistics = StatisticsKeeper(self.url, lambda: self.leadership.leading)
        """The leader's analyzing of the tables a bulk write changed (before autovacuum comes round)."""
        self._relay: EventListener | None = None

    def _pool(self, size: int, setup: Callable[[psycopg.Connection[Any]], None], name: str) -> ConnectionPool:
        return ConnectionPool(
            with_options(self.url, POOL_SETTINGS),
            min_size=2,
            max_size=size,
            open=False,
            kwargs={"autocommit": True},
            configure=setup,
            timeout=self.settings.write_lock_budget_s,
            name=name,
        )

    def open(self) -> PgStore:
        """Migrate the schema (one replica at a time) and open the pool."""
        self.settings.home.mkdir(parents=True, exist_ok=True)
        migrate.upgrade(self.url)
        self.pool.open(wait=True)
        self.read_pool.open(wait=True)
        self.leadership.start()
        self.pending_lists.start()
        self.statistics.start()
        self._lanes.start()
        with self.pool.connection() as conn:
            row = conn.execute("SHOW server_version").fetchone()
        self._server_version = "" if row is None else str(row[0])
        return self

    def close(self) -> None:
        """Stop listening and campaigning (the services that ran jobs have stopped), then the workers, then
        close every connection."""
        if self._relay is not None:
            self._relay.stop()
        self.pending_lists.stop()
        self.statistics.stop()
        self.leadership.stop()
        self._lanes.stop()
        self.writer.alive = False
        self._executor.shutdown(wait=True)
        self.read_pool.close()
        self.pool.close()

    def refusal(self) -> AgentFileReadOnly | None:
        """The error a write receives: none, PostgreSQL's schema is ours."""
        return None

    def watch_read_only(self, listener: Callable[[str | None], None]) -> Callable[[], None]:
        """Never: PostgreSQL's schema is ours."""
        return _nothing

    def describe_file(self) -> str | None:
        """No agent file: agents sync theirs in."""
        return None

    def require_writable(self) -> None:
        """Writes are always allowed here."""

    @property
    def engine_version(self) -> str:
        """The PostgreSQL server's version."""
        return f"PostgreSQL {self._server_version}"

    def writer_status(self) -> WriterStatus:
        """What /metrics and /readyz report of the write side."""
        w = self.writer
        return WriterStatus(
            alive=w.alive,
            queue_depth=self._lanes.queue_depth(),
            commits=w.commits,
            jobs_committed=w.jobs_committed,
            batch_sizes=dict(w.batch_sizes),
        )

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Commit notices of this process (see :class:`Commits`) and, through one ``LISTEN`` per process,
        of every other replica's commits that added events, as notices carrying their ids."""
        unsubscribe = self.writer.subscribe(callback)
        if self._relay is None:
            self._relay = relay_to_loop(self.url, asyncio.get_running_loop(), self.writer.deliver)
            self._relay.start()
        return unsubscribe

    async def schema_revision(self) -> str | None:
        """The Alembic revision stamped in the database."""

        def stamped() -> str | None:
            with _translated(), self.pool.connection() as conn:
                row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
            return None if row is None else str(row[0])

        return await asyncio.get_running_loop().run_in_executor(self._executor, stamped)

    # -- jobs -----------------------------------------------------------------------------------------

    async def write(self, fn: Callable[[PgTx], T], *, bulk: bool = False) -> T:
        """Run ``fn(tx)`` in a lane's next transaction; returns after its COMMIT. A ``bulk`` job runs in a
        transaction of its own on a worker thread instead, beside the lanes: grouped, the writes that
        queued with it would wait for it (appends during a sync waited a sync batch). An :class:`AppendJob`
        has its append made with those of the jobs grouped with it (:func:`_run_jobs`)."""
        if bulk:
            return await asyncio.get_running_loop().run_in_executor(self._executor, self._run_alone, fn)
        return await self._lanes.write(fn, _lead(fn))

    def write_sync(self, fn: Callable[[PgTx], T]) -> T:
        """Blocking ``write`` (for code off the event loop)."""
        return self._lanes.submit(fn, _lead(fn)).result()

    def _run_group(
        self, fns: Sequence[Callable[[PgTx], Any]], leads: Sequence[AppendJob[Any] | None] = ()
    ) -> list[Any]:
        """The functions in one transaction, committed (see :mod:`group_commit`), given the append each
        makes first (:func:`_lead`); :class:`JobFailed` names the one that failed, and nothing was written."""
        with _translated(), self.pool.connection() as conn:
            results, changes = _run_jobs(conn, fns, leads, lock_timeout=GROUP_LOCK_TIMEOUT)
        self.writer.committed(changes, len(fns))
        return results

    def _run_alone(self, fn: Callable[[PgTx], T]) -> T:
        """``fn`` in a transaction of its own, run again after a conflict (a serialization failure, a
        deadlock, a unique violation) with a growing, jittered wait."""
        for attempt in range(1, MAX_ATTEMPTS + 1):
            try:
                with _translated(), self.pool.connection() as conn:
                    try:
                        results, changes = _run_jobs(conn, [fn])
                    except JobFailed as failed:
                        raise failed.error from None
            except _RETRYABLE as exc:
                if attempt == MAX_ATTEMPTS:
                    raise
                log.debug("retrying a write after %s (attempt %d)", type(exc).__name__, attempt)
                time.sleep(random.uniform(0, 0.002 * 2**attempt))
                continue
            self.writer.committed(changes, 1)
            result: T = results[0]
            return result
        raise AssertionError("unreachable")

    async def read(self, fn: Callable[[PgTx], T]) -> T:
        """Run ``fn(tx)`` on a read-only connection on a worker thread (each statement on its own)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self.read_sync, fn)

    def read_sync(self, fn: Callable[[PgTx], T]) -> T:
        """Blocking ``read``."""
        with _translated(), self.read_pool.connection() as conn:
            return fn(PgTx(conn))


def _lead(fn: Callable[[PgTx], Any]) -> AppendJob[Any] | None:
    """The append ``fn`` makes first, when it can be made ahead with others: an :class:`AppendJob`'s, unless
    it links attachments (which its own call links as it stores the rows)."""
    if isinstance(fn, AppendJob) and not any(m.get("attachments") for m in fn.messages):
        return fn
    return None


def _run_jobs(
    conn: psycopg.Connection[Any],
    fns: Sequence[Callable[[PgTx], Any]],
    leads: Sequence[AppendJob[Any] | None] = (),
    *,
    lock_timeout: str | None = None,
) -> tuple[list[Any], Changes]:
    """Each ``fn(tx)`` in order in one transaction, committed with all their events (one round trip for
    both, see :func:`insert_events_and_commit`): their results and what they changed. When one raises, the
    transaction is rolled back and :class:`JobFailed` says which; a failing COMMIT raises as it is.

    When the group starts with two or more jobs whose leading append can be made ahead (``leads``), those
    appends are made first in one statement, and each job's own call answers what its append stored: a
    round trip per group rather than per job, where single-message appends from many clients spent most of
    their time. Only a run of leading jobs: a job placed before an append could end or delete its session, and
    the append must meet what it would have met in turn.

    ``lock_timeout`` bounds every lock wait of the jobs (not the events' ordering lock)."""
    begin = "BEGIN" if lock_timeout is None else f"BEGIN; SET LOCAL lock_timeout = '{lock_timeout}'"
    kept_cursor(conn, begin).execute(begin)
    changes = Changes()
    events: list[NewEvent] = []
    results: list[Any] = []
    try:
        try:
            made = _made_ahead(conn, leads)
        except Exception as exc:
            # No one job's failure (a lock wait past the bound, most likely): the first job runs alone and
            # the others group again, as after a job's own failure.
            raise JobFailed(0, exc) from exc
        for index, fn in enumerate(fns):
            tx = PgTx(conn, made[index] if index < len(made) else None)
            try:
                results.append(fn(tx))
                tx.require_leading_append_made()
            except Exception as exc:
                raise JobFailed(index, exc) from exc
            changes.absorb(tx.changes)
            events.extend(tx.pending_events())
        if events:
            ids = insert_events_and_commit(conn, events, lift_lock_timeout=lock_timeout is not None)
            changes.absorb(Changes(first_event_id=ids.start, last_event_id=ids[-1]))
        else:
            kept_cursor(conn, "COMMIT").execute("COMMIT")
    except BaseException:
        _roll_back(conn)
        raise
    return results, changes


def _made_ahead(conn: psycopg.Connection[Any], leads: Sequence[AppendJob[Any] | None]) -> list[MadeAppend]:
    """The leading appends of the group's first jobs, made in one statement (none for fewer than two)."""
    run: list[AppendJob[Any]] = []
    for lead in leads:
        if lead is None:
            break
        run.append(lead)
    return make_leading_appends(conn, run) if len(run) > 1 else []


def _configure_read_only(conn: psycopg.Connection[Any]) -> None:
    """:func:`configure`, and every transaction on the connection read-only: a read job's statements run
    each in its own (autocommit, READ COMMITTED: a transaction block would give them no common snapshot
    either), with no ``BEGIN`` and ``COMMIT`` round trips, and a write among them fails, so reading never
    writes."""
    configure(conn)
    conn.execute("SET default_transaction_read_only = on")


def _roll_back(conn: psycopg.Connection[Any]) -> None:
    if conn.info.transaction_status != TransactionStatus.IDLE and not conn.closed:
        with contextlib.suppress(psycopg.Error):
            conn.execute("ROLLBACK")


@contextlib.contextmanager
def _translated() -> Any:
    """Connection trouble a client can retry after (the server down, no free connection) as 503."""
    try:
        yield
    except HermesError:
        raise
    except (PoolTimeout, psycopg.OperationalError) as exc:
        if isinstance(exc, pg_errors.TransactionRollback):
            raise  # a serialization failure or deadlock: the write retries it
        raise DatabaseBusy() from exc


def open_store(settings: Settings) -> PgStore:
    """A migrated, open :class:`PgStore` for ``settings.database_url``."""
    return PgStore(settings).open()


def _nothing() -> None:
    """The stop of a watch that never fires."""
