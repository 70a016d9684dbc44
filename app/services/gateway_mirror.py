"""The gateway's ``sessions.json`` mirror: the routing table written where the agent's tools read it.

It follows the writer's commit notices: any commit that changed the routing table (a route, a reset, an
expiry pass, a prune, from whatever path) schedules a rewrite.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from app.domain import gateway_entries as entries
from app.domain.reset_policy import GatewayConfig
from app.services.background import CommitFollower, log_failure
from app.storage import gateway_files as files
from app.storage.commit_notice import CommitNotice
from app.storage.protocols import Store

log = logging.getLogger(__name__)

MIRROR_MIN_INTERVAL_S = 1.0
# A rewrite of a very large index (done by a worker process) costs a core for a second or so: the pause
# between rewrites grows with the time the last one took, but only so far that a change is in the file
# within 5 s (pause + one rewrite).
MIRROR_MAX_INTERVAL_S = 2.5
MIRROR_COST_FACTOR = 2.0


class SessionsMirror(CommitFollower):
    """``sessions.json``, rewritten from the table after changes: at most once per
    :data:`MIRROR_MIN_INTERVAL_S`, atomically, and only while ``write_sessions_json`` is on; at start, the
    temporary files of a rewrite that died are removed and a file older than the table is rewritten."""

    def __init__(
        self, db: Store, scope: str, path: Path, config: Callable[[], GatewayConfig], home: Path
    ) -> None:
        super().__init__()
        self._db = db
        self._home = home
        self._pool: ProcessPoolExecutor | None = None
        self._scope = scope
        self.path = path
        self._config = config
        self._dirty = asyncio.Event()
        self._last_write = 0.0
        self._interval = MIRROR_MIN_INTERVAL_S
        self.writes = 0

    def changed(self) -> None:
        """The table changed: schedule a rewrite."""
        self._dirty.set()

    def on_commit(self, notice: CommitNotice) -> None:
        """A commit that changed the routing table schedules a rewrite."""
        if notice.routing:
            self._dirty.set()

    async def start(self) -> None:
        """Clean up after a rewrite that died, schedule one if the file lags the table (a process stopped
        before its last rewrite), and start the rewriting task."""
        await asyncio.to_thread(files.remove_mirror_leftovers, self.path, self._home)
        scope = self._scope
        last = await self._db.read(lambda tx: tx.gateway.last_change(scope))
        written = files.mtime(self.path)
        if last is not None and (written is None or written < last):
            self.changed()
        self._follow(self._run(), "gateway-mirror", self._db)

    async def stop(self) -> None:
        """Stop following the commits and the task, then write a pending change."""
        await super().stop()
        if self._dirty.is_set():
            await self._flush_or_log()
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    async def flush(self) -> None:
        """Rewrite the file now (when enabled). A rewrite cut short (the task cancelled at shutdown, a
        failure) leaves the change pending, so the flush at stop still writes it."""
        self._dirty.clear()
        self._last_write = time.monotonic()
        if not self._config().write_sessions_json:
            return
        try:
            await self._write()
        except BaseException:
            self._dirty.set()
            raise

    async def _write(self) -> None:
        started = time.monotonic()
        if self._db.files is None:
            # No file a worker process could read: the rows come through the store, on a thread.
            await asyncio.to_thread(
                files.write_mirror,
                self._db.backend,
                self._scope,
                str(self.path),
                entries.README,
                self._rows,
                str(self._home),
            )
        else:
            if self._pool is None:
                # A lower CPU priority: requests come first, the mirror only has to catch up within seconds.
                self._pool = ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=os.nice,
                    initargs=(10,),
                )
            await asyncio.get_running_loop().run_in_executor(
                self._pool,
                files.write_mirror_from_db,
                str(self._db.files.path),
                self._scope,
                str(self.path),
                entries.README,
                str(self._home),
            )
        self.writes += 1
        self._last_write = time.monotonic()
        cost = self._last_write - started
        self._interval = min(MIRROR_MAX_INTERVAL_S, max(MIRROR_MIN_INTERVAL_S, cost * MIRROR_COST_FACTOR))

    def _rows(self, since: float) -> files.MirrorRows:
        scope = self._scope
        return self._db.read_sync(lambda tx: (tx.gateway.changed_since(scope, since), tx.gateway.keys(scope)))

    async def _run(self) -> None:
        while True:
            await self._dirty.wait()
            wait = self._last_write + self._interval - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            if not await self._flush_or_log():
                await asyncio.sleep(MIRROR_MIN_INTERVAL_S)
                self._dirty.set()

    async def _flush_or_log(self) -> bool:
        """:meth:`flush`; whether it wrote. A failure is logged, never raised, whatever it was (PostgreSQL out
        of reach arrives as ``DatabaseBusy``): an ended task would leave the file stale until a restart."""
        try:
            await self.flush()
        except Exception as exc:
            log_failure(log, "sessions.json mirror not written", exc, BrokenProcessPool)
            if isinstance(exc, BrokenProcessPool):
                self._pool = None
            return False
        return True
