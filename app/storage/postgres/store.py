"""The PostgreSQL store: psycopg pools, one transaction per write job on a worker thread, commit notices.

Unlike SQLite there is no single writer to queue behind: every ``write`` runs ``fn(tx)`` in its own
transaction on a pooled connection, and concurrent writers (threads here, other replicas elsewhere) meet in
the database. What SQLite serialised by its write lock is kept by constraints and retries: a job that hits a
serialization failure, a deadlock or a unique violation (two writers numbering the same title) is run again
from the start in a new transaction, up to :data:`MAX_ATTEMPTS` times. Read jobs run on a second pool of
connections that refuse writes, with no transaction block (see :func:`_configure_read_only`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import psycopg
from psycopg import errors as pg_errors
from psycopg.pq import TransactionStatus
from psycopg_pool import ConnectionPool, PoolTimeout

from app.errors import DatabaseBusy, HermesError, SchemaTooNew
from app.settings import Settings
from app.storage.commit_notice import (
    Changes,
    CommitNotice,
    NoticeBoard,
    Subscriber,
    begin_job,
    end_job,
    note_events,
)
from app.storage.postgres import migrate
from app.storage.postgres.connection import configure
from app.storage.postgres.leader import AdvisoryLeader
from app.storage.postgres.notify import EventListener, insert_events_and_commit, relay_to_loop
from app.storage.postgres.tx import BACKEND, PgTx
from app.storage.protocols import Tx
from app.storage.read_only import TESTED_SCHEMA_VERSION
from app.storage.rows import WriterStatus

T = TypeVar("T")
log = logging.getLogger(__name__)

MAX_ATTEMPTS = 8
"""Runs of one job before its conflict is reported (each retry waits a little longer, with jitter)."""
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
        # Jobs per transaction, as /metrics reports the SQLite writer's group commits: always one here.
        self.batch_sizes: dict[int, int] = {}

    def queue_depth(self) -> int:
        """Jobs waiting for a commit: none, each job commits on its own."""
        return 0

    def committed(self, changes: Changes) -> None:
        """Count one committed job and publish its notice when it changed something."""
        with self._lock:
            self.commits += 1
            self.jobs_committed += 1
            self.batch_sizes[1] = self.commits
            number = self.commits
        if changes:
            self._publish(CommitNotice.of(number, changes))


class PgStore:
    """The database as services see it, on PostgreSQL (``HERMES_DATABASE_URL=postgresql://...``)."""

    backend = BACKEND
    files = None
    """SQLite file operations (vacuum, backup, repair, render pool): none on PostgreSQL."""
    read_only = False

    def __init__(self, settings: Settings) -> None:
        assert settings.database_url is not None, "PgStore needs HERMES_DATABASE_URL"
        self.settings = settings
        self.url = settings.database_url
        self.agent_schema_version: int | None = TESTED_SCHEMA_VERSION
        size = settings.reader_threads + _EXTRA_CONNECTIONS
        self.pool = self._pool(size, configure, "hermes")
        self.read_pool = self._pool(size, _configure_read_only, "hermes-read")
        """Connections that refuse every write: read jobs run on them without a transaction block."""
        self._executor = ThreadPoolExecutor(max_workers=size, thread_name_prefix="hermes-pg")
        self.writer = Commits()
        self._server_version = ""
        self.leadership = AdvisoryLeader(self.url)
        """This replica's candidacy for the background jobs (auto-prune, event pruning, gateway expiry)."""
        self._relay: EventListener | None = None

    def _pool(self, size: int, setup: Callable[[psycopg.Connection[Any]], None], name: str) -> ConnectionPool:
        return ConnectionPool(
            self.url,
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
        with self.pool.connection() as conn:
            row = conn.execute("SHOW server_version").fetchone()
        self._server_version = "" if row is None else str(row[0])
        return self

    def close(self) -> None:
        """Stop listening and campaigning (the services that ran jobs have stopped), then the workers, then
        close every connection."""
        if self._relay is not None:
            self._relay.stop()
        self.leadership.stop()
        self.writer.alive = False
        self._executor.shutdown(wait=True)
        self.read_pool.close()
        self.pool.close()

    def refusal(self) -> SchemaTooNew | None:
        """The error a write receives: none, PostgreSQL's schema is ours."""
        return None

    def require_writable(self) -> None:
        """Writes are always allowed here."""

    @property
    def engine_version(self) -> str:
        """The PostgreSQL server's version."""
        return f"PostgreSQL {self._server_version}"

    def writer_status(self) -> WriterStatus:
        """What /metrics and /readyz report of the write side: every job commits on its own."""
        w = self.writer
        return WriterStatus(
            alive=w.alive,
            queue_depth=0,
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

    async def write(self, fn: Callable[[Tx], T]) -> T:
        """Run ``fn(tx)`` in its own transaction on a worker thread; returns after COMMIT."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self.write_sync, fn)

    def write_sync(self, fn: Callable[[Tx], T]) -> T:
        """Blocking ``write`` (for code off the event loop)."""
        for attempt in range(1, MAX_ATTEMPTS + 1):
            changes = begin_job()
            try:
                with _translated(), self.pool.connection() as conn:
                    result = _run_job(conn, fn)
            except _RETRYABLE as exc:
                if attempt == MAX_ATTEMPTS:
                    raise
                log.debug("retrying a write after %s (attempt %d)", type(exc).__name__, attempt)
                time.sleep(random.uniform(0, 0.002 * 2**attempt))
                continue
            finally:
                end_job()
            self.writer.committed(changes)
            return result
        raise AssertionError("unreachable")

    async def read(self, fn: Callable[[Tx], T]) -> T:
        """Run ``fn(tx)`` on a read-only connection on a worker thread (each statement on its own)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self.read_sync, fn)

    def read_sync(self, fn: Callable[[Tx], T]) -> T:
        """Blocking ``read``."""
        with _translated(), self.read_pool.connection() as conn:
            return fn(PgTx(conn))


def _run_job(conn: psycopg.Connection[Any], fn: Callable[[Tx], T]) -> T:
    """``fn(tx)`` in one transaction, committed with its events (one round trip for both, see
    :func:`insert_events_and_commit`); rolled back when anything fails."""
    conn.execute("BEGIN")
    try:
        tx = PgTx(conn)
        result = fn(tx)
        if tx.events.pending:
            ids = insert_events_and_commit(conn, tx.events.pending)
            note_events(ids.start, ids[-1])
        else:
            conn.execute("COMMIT")
    except BaseException:
        _roll_back(conn)
        raise
    return result


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
