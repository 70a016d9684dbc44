"""The single writer: one thread owns the write connection and commits queued work in groups.

Each queued job runs inside its own SAVEPOINT so one failing request rolls back only itself; every caller
is answered only after the COMMIT that contains its write, so an acknowledged write is durable.

After each COMMIT that carried something (events, messages, FTS work) the writer publishes a
:class:`~app.storage.commit_notice.CommitNotice`: to its ``commit_hooks`` on the writer thread, and to the
subscribers of :meth:`Writer.subscribe` on their event loop (one hop to the loop per commit, whatever the
number of subscribers). Whatever must follow a write (streams, auto-titles, indexing) hangs off that.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from app.errors import HermesError
from app.storage.commit_notice import Changes, CommitNotice, NoticeBoard
from app.storage.files import file_size
from app.storage.repos.session_list import forget_counts
from app.storage.sqlite.connection import is_busy, translate
from app.storage.sqlite.driver import sqlite3
from app.storage.write_queue import STOP, LoopAnswer, answer_all, take_batch

log = logging.getLogger(__name__)
T = TypeVar("T")
WriteFn = Callable[[sqlite3.Connection], Any]
# Checkpoints run on their own thread (app/storage/sqlite/checkpointer.py). Under a write load that never
# pauses, those can never copy the last frames, so the WAL could not restart from its beginning and would keep
# growing: past this size the writer checkpoints between two transactions itself (cheap, since the
# checkpointer has already copied nearly everything), and the next transaction restarts the WAL.
WAL_INLINE_CHECKPOINT_BYTES = 16 * 1024 * 1024
_WAL_CHECK_EVERY_COMMITS = 32


@dataclass
class _Job:
    fn: WriteFn
    future: Future[Any] | LoopAnswer[Any] = field(default_factory=Future)
    result: Any = None
    error: BaseException | None = None
    on_handle: bool = False
    """Whether ``fn`` takes :attr:`Writer.handle` rather than the connection."""


class Writer(NoticeBoard):
    """Serialises every write of this process through one connection and one thread."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        *,
        batch_max: int,
        lock_budget_s: float,
        wal_path: Path,
        after_batch: WriteFn | None = None,
        on_begin: WriteFn | None = None,
    ) -> None:
        super().__init__()
        self._conn = conn
        self.handle: Any = conn
        """What a job submitted with ``on_handle`` receives (the database's storage handle for this
        connection, whose ``changes`` record the job's repositories note what they write in); set once,
        before the first such job. A job given the bare connection notes nothing."""
        self._wal_path = wal_path
        self._after_batch = after_batch
        self._on_begin = on_begin
        """Runs first in each transaction; what it raises fails the whole batch, nothing written."""
        self._batch_max = batch_max
        self._lock_budget_s = lock_budget_s
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="hermes-writer", daemon=True)
        self.commits = 0
        self.jobs_committed = 0
        # Commits by batch size (jobs per transaction), read by /metrics; only this thread writes it.
        self.batch_sizes: dict[int, int] = {}

    def start(self) -> None:
        """Start the writer thread."""
        self._thread.start()

    @property
    def alive(self) -> bool:
        """Whether the writer thread is running (used by /readyz)."""
        return self._thread.is_alive()

    def queue_depth(self) -> int:
        """Jobs waiting for the next group commit."""
        return self._queue.qsize()

    def submit(self, fn: Callable[[Any], T], *, on_handle: bool = False) -> Future[T]:
        """Queue ``fn(conn)`` (``fn(handle)`` with ``on_handle``); the future resolves after the COMMIT that
        includes it."""
        future: Future[T] = Future()
        self._put(_Job(fn, future, on_handle=on_handle))
        return future

    async def write(self, fn: Callable[[Any], T], *, on_handle: bool = False) -> T:
        """Run ``fn`` on the writer thread and await its committed result."""
        answer: LoopAnswer[T] = LoopAnswer()
        self._put(_Job(fn, answer, on_handle=on_handle))
        return await answer.waiter

    def _put(self, job: _Job) -> None:
        if not self._thread.is_alive():
            raise RuntimeError("writer is not running")
        self._queue.put(job)

    def write_sync(self, fn: Callable[[Any], T], *, on_handle: bool = False) -> T:
        """Blocking variant for code that is not on the event loop."""
        return self.submit(fn, on_handle=on_handle).result()

    def stop(self) -> None:
        """Drain everything queued, checkpoint, and stop the thread."""
        if self._thread.is_alive():
            self._queue.put(STOP)
            self._thread.join()

    # -- writer thread -------------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is STOP:
                break
            batch, stop_after = take_batch(self._queue, item, self._batch_max)
            self._run_batch(batch)
            if self._after_batch is not None:
                self._housekeeping(self._after_batch)
            if stop_after:
                break
        self._checkpoint("TRUNCATE")

    def _checkpoint(self, mode: str) -> None:
        try:
            self._conn.execute(f"PRAGMA wal_checkpoint({mode})")
        except sqlite3.Error as exc:
            log.debug("checkpoint %s skipped: %s", mode, exc)

    def _housekeeping(self, fn: WriteFn) -> None:
        """Run ``fn`` in its own transaction after a batch's callers are answered; failures only log."""
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                fn(self._conn)
            except sqlite3.Error:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")
            forget_counts()
        except sqlite3.Error as exc:
            log.debug("housekeeping skipped: %s", exc)

    def _begin(self) -> None:
        deadline = time.monotonic() + self._lock_budget_s
        while True:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if not is_busy(exc) or time.monotonic() >= deadline:
                    raise
                time.sleep(0.01)

    def _run_batch(self, batch: list[_Job]) -> None:
        pending = batch
        while pending:
            pending = self._run_transaction(pending)

    def _run_transaction(self, batch: list[_Job]) -> list[_Job]:
        """Run as much of ``batch`` as one transaction allows; return jobs to retry in a new one."""
        try:
            self._begin()
            if self._on_begin is not None:
                self._on_begin(self._conn)
        except (sqlite3.Error, HermesError) as exc:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
            self._fail(batch, exc)
            return []
        done: list[_Job] = []
        changes = Changes()
        for index, job in enumerate(batch):
            # A caller that gave up (its task was cancelled) before the job started gets nothing written;
            # once running, the future can no longer be cancelled, so a started write is always answered.
            if not job.future.set_running_or_notify_cancel():
                continue
            # The statements are written out rather than taken from transactions.savepoint: this runs
            # once per queued write, where a generator-based context manager costs more than they do.
            self._conn.execute("SAVEPOINT job")
            record: Changes | None = self.handle.changes if job.on_handle else None
            try:
                job.result = job.fn(self.handle if job.on_handle else self._conn)
                self._conn.execute("RELEASE job")
                if record is not None:
                    changes.absorb(record)
            except BaseException as exc:  # the job's caller receives it
                if not self._conn.in_transaction:
                    # SQLite aborted the whole transaction (disk full, I/O error): everything in this
                    # group is lost, so fail the group and start the rest afresh.
                    self._fail([*done, job], exc)
                    return batch[index + 1 :]
                self._conn.execute("ROLLBACK TO job")
                self._conn.execute("RELEASE job")
                job.error = exc
            finally:
                if record is not None:
                    record.clear()
            done.append(job)
        try:
            self._conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
            self._fail(done, exc)
            return []
        self.commits += 1
        forget_counts()
        self.jobs_committed += len(done)
        self.batch_sizes[len(done)] = self.batch_sizes.get(len(done), 0) + 1
        if changes:
            self._publish(CommitNotice.of(self.commits, changes))
        wal_due = self.commits % _WAL_CHECK_EVERY_COMMITS == 0
        if wal_due and file_size(self._wal_path) > WAL_INLINE_CHECKPOINT_BYTES:
            self._checkpoint("PASSIVE")
        answer_all(
            (job.future, job.result, None if job.error is None else _public(job.error)) for job in done
        )
        return []

    @staticmethod
    def _fail(jobs: list[_Job], err: BaseException) -> None:
        for job in jobs:
            if not job.future.done():
                job.future.set_exception(_public(err))


def _public(exc: BaseException) -> BaseException:
    if isinstance(exc, HermesError):
        return exc
    return translate(exc) or exc
