"""The background indexer: brings bulk-imported messages into the agent's two FTS indexes.

A big import stores its messages with the FTS insert triggers suspended and queues their ids in
``hs_fts_backlog`` (same transaction). This task indexes that backlog in writer jobs, each indexing a slice
and shrinking the backlog atomically. It runs when an import wakes it, at start-up (a backlog left by a
restart or a crash), and every :data:`POLL_S` seconds (another process may queue or index too). Failures
are logged and retried later; they never reach a request.

Slice size is a trade-off measured on the bench corpus: FTS5 writes new segments at every commit, so the
trigram index costs ~400 µs per message in slices of 128 and ~170 µs in slices of 1,024. Appends queued
behind a job wait for it, so slices are sized to take about :data:`TARGET_JOB_S` each (adapted after every
job), and the indexer pauses briefly between jobs so queued appends commit in a transaction of their own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time

from app.storage.database import Database
from app.storage.repos import fts_backlog as repo

log = logging.getLogger(__name__)

SLICE_MESSAGES = 256
MIN_SLICE, MAX_SLICE = 32, 4096
TARGET_JOB_S = 0.04
PAUSE_S = 0.002
POLL_S = 30.0


class FtsIndexer:
    """Indexes ``hs_fts_backlog`` in the background; ``wait_indexed`` lets a request wait for it."""

    def __init__(self, db: Database, slice_messages: int = SLICE_MESSAGES, poll_s: float = POLL_S) -> None:
        self.db = db
        self.slice_messages = slice_messages
        self.poll_s = poll_s
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        # Replaced after every job: waiters hold the current one and are released when it is set.
        self._progress = asyncio.Event()

    def start(self) -> None:
        """Start the task; it first indexes whatever backlog the file already has."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._loop(), name="hermes-fts-indexer")

    async def stop(self) -> None:
        """Cancel the task (a job already handed to the writer still commits; the rest resumes next start)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def wake(self) -> None:
        """Index now (an import has just queued work)."""
        self._wake.set()

    async def pending(self) -> int:
        """Message ids still queued (an upper bound, see :func:`repo.pending_messages`)."""
        return await self.db.read(repo.pending_messages)

    async def wait_indexed(self, up_to: int) -> None:
        """Return once no queued run starts at or below message id ``up_to``."""
        while True:
            progress = self._progress
            if not await self.db.read(lambda conn: repo.has_queued(conn, up_to)):
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
        while True:
            try:
                covered, elapsed = await self.db.write(self._job)
            except Exception as exc:  # a busy or full database must not kill the task
                log.warning("FTS indexing of imported messages failed, will retry: %s", exc)
                return
            finally:
                self._notify()
            if covered is None:
                return
            self._resize(elapsed)
            await asyncio.sleep(PAUSE_S)

    def _job(self, conn: sqlite3.Connection) -> tuple[int | None, float]:
        started = time.perf_counter()
        covered = repo.index_next_slice(conn, self.slice_messages)
        return covered, time.perf_counter() - started

    def _resize(self, elapsed: float) -> None:
        # Move towards TARGET_JOB_S, at most doubling or halving per job (one slow job is often a merge).
        factor = min(2.0, max(0.5, TARGET_JOB_S / max(elapsed, 1e-4)))
        self.slice_messages = int(min(MAX_SLICE, max(MIN_SLICE, self.slice_messages * factor)))

    def _notify(self) -> None:
        done, self._progress = self._progress, asyncio.Event()
        done.set()
