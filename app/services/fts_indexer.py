"""The background indexer: brings bulk-imported messages into the agent's two FTS indexes (on PostgreSQL,
the messages of big sync batches into its search column and indexes: ``PgIndexing``).

A big import stores its messages with the FTS insert triggers suspended and queues their ids in
``hs_fts_backlog`` (same transaction). This task indexes that backlog in writer jobs, each indexing a slice
and shrinking the backlog atomically. It runs when a commit notice says work was queued, at start-up (a
backlog left by a restart or a crash), and every :data:`POLL_S` seconds (another process may queue or
index too). Failures are logged and retried later; they never reach a request.

The same task keeps the listing's search index current (``app.storage.repos.list_index``): each job also
re-derives the documents of a slice of the sessions the triggers marked dirty.

Slices are paced by :func:`app.domain.index_pacing.next_pace`: big while nothing else waits for the writer,
small with a pause between them while live writes queue behind them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from app.domain.id_runs import ANY_ID
from app.domain.index_pacing import FIRST_SLICE, next_pace
from app.services.background import CommitFollower
from app.storage.commit_notice import CommitNotice
from app.storage.leadership import ALWAYS_LEADER, Leadership
from app.storage.protocols import Store, Tx

log = logging.getLogger(__name__)

POLL_S = 30.0


class FtsIndexer(CommitFollower):
    """Indexes ``hs_fts_backlog`` in the background; ``wait_indexed`` lets a request wait for it. Stopped,
    it leaves the rest of the backlog to the next start."""

    def __init__(
        self,
        db: Store,
        slice_messages: int = FIRST_SLICE,
        poll_s: float = POLL_S,
        leadership: Leadership = ALWAYS_LEADER,
    ) -> None:
        super().__init__()
        self.db = db
        self.leadership = leadership
        self.slice_messages = slice_messages
        self.poll_s = poll_s
        self._wake = asyncio.Event()
        # Replaced after every job: waiters hold the current one and are released when it is set.
        self._progress = asyncio.Event()

    def start(self) -> None:
        """Follow the commit notices and start the task, which runs while this process leads the replicas;
        it first indexes whatever backlog the file has."""
        if self._task is None:
            self._follow(self.leadership.while_leading(self._loop), "hermes-fts-indexer", self.db)

    def on_commit(self, notice: CommitNotice) -> None:
        """Index now when the commit queued work (an import deferred its indexing)."""
        if notice.fts_backlog:
            self.wake()

    def wake(self) -> None:
        """Index now."""
        self._wake.set()

    async def pending(self) -> int:
        """Message ids still queued (an upper bound, see :meth:`Indexing.pending_messages`)."""
        return await self.db.read(lambda tx: tx.indexing.pending_messages())

    async def wait_indexed(self, up_to: int) -> None:
        """Return once no queued run starts at or below message id ``up_to``."""
        while True:
            progress = self._progress
            if not await self.db.read(lambda tx: tx.indexing.has_queued(up_to)):
                return
            self.wake()
            # The timeout re-checks when another process indexed meanwhile (no event reaches us then).
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(progress.wait(), timeout=1.0)

    async def _loop(self) -> None:
        while True:
            await self.drain()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=self.poll_s)
            self._wake.clear()

    async def drain(self) -> None:
        """Index slice after slice until the backlog is empty (or a job fails: retried at the next wake)."""
        try:
            # A read first: an empty backlog (the usual case at start-up and each poll) takes no write lock.
            if await self.db.read(_has_work):
                await self._slices()
        except Exception as exc:  # a busy or full database must not kill the task
            log.warning("FTS indexing of imported messages failed, will retry: %s", exc)
        finally:
            self._notify()

    async def _slices(self) -> None:
        seen = self._jobs_committed()
        while True:
            try:
                # A slice is a long job: on PostgreSQL it runs beside the appends' group commits.
                covered, elapsed, queued = await self.db.write(self._job, bulk=True)
            finally:
                self._notify()
            if covered is None:
                return
            # Live writes: some queued behind this slice, or others committed since the previous one (in
            # this slice's group commit or in their own).
            committed = self._jobs_committed()
            pace = next_pace(self.slice_messages, elapsed, queued or committed - seen > 1)
            seen = committed
            self.slice_messages = pace.slice_messages
            # Even uncontended, yield once so a write submitted just now is not queued behind the next slice.
            await asyncio.sleep(pace.pause_s)

    def _jobs_committed(self) -> int:
        writer = self.db.writer_status()
        return writer.jobs_committed if writer is not None else 0

    def _job(self, tx: Tx) -> tuple[int | None, float, bool]:
        # Runs on the writer thread; the last value says whether other writes queued up meanwhile.
        started = time.perf_counter()
        covered = tx.indexing.index_next_slice(self.slice_messages)
        sessions = tx.indexing.index_dirty()
        # The loop ends once both are empty; a slice of list-search documents alone covers no message.
        if covered is None and sessions is not None:
            covered = 0
        writer = self.db.writer_status()
        return covered, time.perf_counter() - started, writer is not None and writer.queue_depth > 0

    def _notify(self) -> None:
        done, self._progress = self._progress, asyncio.Event()
        done.set()


def _has_work(tx: Tx) -> bool:
    return tx.indexing.has_queued(ANY_ID) or tx.indexing.has_dirty()
