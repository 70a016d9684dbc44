"""The in-process auto-titler: it follows the writer's commit notices, and one worker task titles the
live sessions that got messages (append, continuation, fork), in order. Imported history is titled only
when the import asks (:meth:`AutoTitler.title_requested`); synced sessions never are (their home titles them).

Writes never wait for it. Each session is looked at with one cheap query, those queued together in one read
job; a session that is titled (or was titled before) is remembered so later messages to it cost nothing
here.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Iterable
from functools import partial
from typing import TypeVar

from app.services.background import CommitFollower, log_failure
from app.services.titling.generators import TitleGenerator
from app.storage.commit_notice import CommitNotice
from app.storage.protocols import Store, Tx
from app.storage.rows import FirstExchange

log = logging.getLogger(__name__)

T = TypeVar("T")

# Bounds memory on a long-running server with many sessions; forgetting only costs one read later.
_SETTLED_MAX = 50_000
_QUEUE_MAX = 10_000
_LOOK_AT_ONCE = 200


class AutoTitler(CommitFollower):
    """Queue of session ids to consider for an automatic title, drained by one background task. Stopped,
    it leaves the queued sessions untitled this run."""

    def __init__(self, db: Store, generator: TitleGenerator, *, enabled: bool = True) -> None:
        super().__init__()
        self.db = db
        self.generator = generator
        self.enabled = enabled
        self._queue: asyncio.Queue[str] = asyncio.Queue(maxsize=_QUEUE_MAX)
        self._pending: set[str] = set()
        self._settled: set[str] = set()

    def start(self) -> None:
        """Follow the commit notices and start the worker task (no-op when automatic titles are off)."""
        if self.enabled and self._task is None and not self.db.read_only:
            self._follow(self._loop(), "hermes-auto-title", self.db)

    def on_commit(self, notice: CommitNotice) -> None:
        """Queue the sessions a commit stored messages in; never blocks, never raises."""
        for session_id in notice.message_sessions:
            self._consider(session_id)

    async def title_requested(self, session_ids: Iterable[str]) -> None:
        """Queue sessions an import asked to title, waiting for room rather than dropping any (there is no
        later message to bring a dropped one back). Nothing is queued while the titler is not running."""
        for session_id in session_ids:
            if self._task is None or self._task.done():
                return
            if session_id in self._settled or session_id in self._pending:
                continue
            self._pending.add(session_id)
            await self._queue.put(session_id)

    def _consider(self, session_id: str) -> None:
        if session_id in self._settled or session_id in self._pending:
            return
        try:
            self._queue.put_nowait(session_id)
        except asyncio.QueueFull:
            return  # the session's next message brings it back
        self._pending.add(session_id)

    async def _loop(self) -> None:
        while True:
            # The sessions queued meanwhile are looked at in one read job (a sync queues thousands).
            batch = [await self._queue.get()]
            while len(batch) < _LOOK_AT_ONCE and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            self._pending.difference_update(batch)
            try:
                due = await _uncancelled(self.db.read(partial(_titles_due, batch)))
            except Exception as exc:  # costs this batch its titles, not every later session
                log_failure(log, f"auto-title of {len(batch)} sessions failed", exc)
                continue
            for session_id, exchange in zip(batch, due, strict=True):
                try:
                    await self._title(session_id, exchange)
                except Exception as exc:
                    log_failure(log, f"auto-title of {session_id} failed", exc)

    async def _title(self, session_id: str, exchange: FirstExchange | bool) -> str | None:
        """Title the session if ``exchange`` (its ``title_due`` answer) says it is due; the title set, or
        ``None``; a settled session is remembered."""
        if not isinstance(exchange, FirstExchange):
            if exchange:
                self._settle(session_id)
            return None
        proposal = await self.generator.generate(exchange.user, exchange.assistant)
        title = await _uncancelled(
            self.db.write(
                lambda tx: tx.titles.apply_auto_title(session_id, proposal.title, proposal.generator)
            )
        )
        self._settle(session_id)
        return title

    def _settle(self, session_id: str) -> None:
        if len(self._settled) >= _SETTLED_MAX:
            self._settled.clear()
        self._settled.add(session_id)


def _titles_due(session_ids: list[str], tx: Tx) -> list[FirstExchange | bool]:
    return [tx.titles.title_due(session_id) for session_id in session_ids]


async def _uncancelled(call: Awaitable[T]) -> T:
    """Await a database call to its end even when the worker is cancelled meanwhile, then re-raise.

    A database job abandoned mid-flight would leave the writer thread resolving a cancelled future;
    finishing it first keeps shutdown clean (the job is short, the slow part is the generator).
    """
    task = asyncio.ensure_future(call)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        await task
        raise
