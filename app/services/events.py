"""Events: written by the services in the same transaction as their effect, so an event exists exactly
when its effect committed; streamed to clients by tailing ``hs_events`` by id.

Waking streams: :func:`emit` runs on the writer thread *before* COMMIT, so it only tells the process's
:class:`EventHub` that the writer's next commit carries news; the hub waits (in the event loop, no SQL)
until the writer's commit counter has moved past it and only then wakes the waiters. A periodic check of
the newest id also wakes them, so events another server process wrote on the same file are seen. Nothing
holds a reader or the writer while waiting. With nobody listening, emitting costs one INSERT.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable, Iterator
from enum import StrEnum
from functools import partial
from typing import Any

import orjson

from app.services.background import cancel_and_wait
from app.storage.database import Database
from app.storage.repos import events as repo

log = logging.getLogger(__name__)

# After a poke, how long to wait for the writer's commit before giving up (the poll catches the rest).
_COMMIT_WAIT_S = 2.0
_COMMIT_CHECK_S = 0.001


class EventType(StrEnum):
    """The event names a stream sends (SSE ``event:`` field)."""

    message_created = "message.created"
    session_updated = "session.updated"
    session_ended = "session.ended"
    handoff_updated = "handoff.updated"


def _dump(data: dict[str, Any]) -> str:
    return orjson.dumps(data).decode()


def emit(
    conn: sqlite3.Connection, event_type: EventType, session_id: str | None, data: dict[str, Any]
) -> None:
    """Record one event in the caller's transaction and tell the hub a commit will carry it."""
    repo.insert(conn, event_type.value, session_id, _dump(data), time.time())
    _poke(conn)


def emit_messages(conn: sqlite3.Connection, session_id: str, stored: Iterable[dict[str, Any]]) -> None:
    """One compact ``message.created`` per appended message (ids and role only, never content)."""
    now = time.time()
    kind = EventType.message_created.value
    # The session id is JSON-encoded once; the rest is plain ints and fixed role names.
    sid = orjson.dumps(session_id).decode()
    rows = [
        (kind, session_id, f'{{"session_id":{sid},"message_id":{m["id"]},"role":"{m["role"]}"}}', now)
        for m in stored
    ]
    repo.insert_many(conn, rows)
    _poke(conn)


# The hub of each open database, by the id of its write connection (the only connection emit runs on).
_HUBS: dict[int, EventHub] = {}


def _poke(conn: sqlite3.Connection) -> None:
    hub = _HUBS.get(id(conn))
    if hub is not None:
        hub.poke_from_writer()


class EventHub:
    """Wakes this process's event streams and handoff long-polls after commits that carry news."""

    def __init__(self, db: Database, *, poll_s: float) -> None:
        self.db = db
        self.poll_s = poll_s
        self.generation = 0
        self._waiters: set[asyncio.Future[None]] = set()
        self._listeners = 0  # open streams and long-polls; with none, a poke costs nothing
        self._loop: asyncio.AbstractEventLoop | None = None
        self._conn_id: int | None = None
        self._target = 0  # the writer commit number the newest poke waits for
        self._watching = False
        self._seen_id = 0
        self._poll_task: asyncio.Task[None] | None = None
        self._watch_task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Register with the write connection and start the cross-process poll."""
        self._loop = asyncio.get_running_loop()

        def bind(conn: sqlite3.Connection) -> int:
            self._conn_id = id(conn)
            _HUBS[id(conn)] = self
            return repo.latest_id(conn)

        self._seen_id = await self.db.write(bind)
        self._poll_task = self._loop.create_task(self._poll(), name="hermes-events-poll")

    async def stop(self) -> None:
        """Unregister and release every waiter."""
        if self._conn_id is not None:
            _HUBS.pop(self._conn_id, None)
        await cancel_and_wait(self._poll_task)
        self._wake()

    # -- writer thread ---------------------------------------------------------------------------

    def poke_from_writer(self) -> None:
        """Called inside a write transaction: wake waiters once the commit that includes it is done."""
        if not self._listeners or self._loop is None or self.db.writer is None:
            return
        target = self.db.writer.commits + 1
        if target == self._target:
            return  # this transaction already poked
        self._target = target
        with contextlib.suppress(RuntimeError):  # the loop closed during shutdown
            self._loop.call_soon_threadsafe(self._watch_commit)

    # -- event loop ------------------------------------------------------------------------------

    def _watch_commit(self) -> None:
        if not self._watching:
            self._watching = True
            # Held so the task is not garbage-collected while it runs.
            self._watch_task = asyncio.get_running_loop().create_task(self._await_commit())

    async def _await_commit(self) -> None:
        # Wake after each awaited commit, then follow any newer poke: under steady load the next
        # transaction pokes before the previous one commits, and its listeners must not wait for both.
        writer = self.db.writer
        try:
            while writer is not None:
                target = self._target
                deadline = time.monotonic() + _COMMIT_WAIT_S
                while writer.commits < target and time.monotonic() < deadline:
                    await asyncio.sleep(_COMMIT_CHECK_S)
                self._wake()
                if self._target == target:
                    return
        finally:
            self._watching = False

    def _wake(self) -> None:
        self.generation += 1
        waiters, self._waiters = self._waiters, set()
        for fut in waiters:
            if not fut.done():
                fut.set_result(None)

    async def wait(self, generation: int, timeout: float) -> bool:
        """Wait for news after ``generation`` (read it before looking at the data); ``False`` on timeout."""
        if generation != self.generation:
            return True
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.add(fut)
        try:
            await asyncio.wait_for(fut, timeout)
        except TimeoutError:
            return False
        finally:
            self._waiters.discard(fut)
        return True

    @contextlib.contextmanager
    def listening(self) -> Iterator[None]:
        """Mark a stream or long-poll as interested in wake-ups while the block runs."""
        self._listeners += 1
        try:
            yield
        finally:
            self._listeners -= 1

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(self.poll_s)
            if not self._listeners:
                continue
            try:
                newest = await self.db.read(repo.latest_id)
            except Exception as exc:  # a busy or closing database only delays the wake-up
                log.debug("event poll skipped: %s", exc)
                continue
            # Waiters also re-check on their own timeouts (handoff claims look for agent-side requests).
            if newest != self._seen_id:
                self._seen_id = newest
                self._wake()


class EventPruner:
    """Keeps ``hs_events`` bounded: at start-up and then every ``interval_s``, drop events older than
    ``retention_days`` and all but the newest ``max_rows``."""

    def __init__(self, db: Database, *, retention_days: float, max_rows: int, interval_s: float) -> None:
        self.db = db
        self.retention_days = retention_days
        self.max_rows = max_rows
        self.interval_s = interval_s
        self.dropped = 0  # events deleted so far, read by /metrics
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the periodic prune."""
        self._task = asyncio.get_running_loop().create_task(self._loop(), name="hermes-events-prune")

    async def stop(self) -> None:
        """Cancel the periodic prune."""
        await cancel_and_wait(self._task)
        self._task = None

    async def run_once(self, chunk: int = 10_000) -> int:
        """Prune now, ``chunk`` rows per write job so appends interleave; the number of events deleted."""
        cutoff = time.time() - self.retention_days * 86400.0
        total = 0
        while deleted := await self.db.write(
            lambda conn: repo.prune(conn, older_than=cutoff, max_rows=self.max_rows, chunk=chunk)
        ):
            total += deleted
            self.dropped += deleted
        return total

    async def _loop(self) -> None:
        while True:
            try:
                await self.run_once()
            except Exception as exc:  # retried next interval; never kill the server
                log.warning("event log prune failed: %s", exc)
            await asyncio.sleep(self.interval_s)


def format_event(row: repo.EventRow) -> bytes:
    """One SSE frame: ``id``, ``event`` and the stored JSON as ``data``."""
    event_id, event_type, data = row
    return f"id: {event_id}\nevent: {event_type}\ndata: {data}\n\n".encode()


async def stream(
    db: Database,
    hub: EventHub,
    *,
    session_id: str | None,
    last_id: int | None,
    keepalive_s: float,
    batch: int = 500,
) -> AsyncIterator[bytes]:
    """SSE frames: events after ``last_id`` (or only new ones when ``None``), then live ones as they
    commit, with a ``: keepalive`` comment after ``keepalive_s`` of silence. Each look at the log is its
    own short read transaction; between them the stream holds no connection. A client that goes away
    cancels the generator (Starlette listens for the disconnect), which also ends its listening."""
    with hub.listening():
        if last_id is None:
            last_id = await db.read(repo.latest_id)
        # Reconnecting clients wait this long before retrying (SSE ``retry``).
        yield b"retry: 2000\n\n"
        position = last_id
        while True:
            generation = hub.generation
            rows = await db.read(partial(repo.after, last_id=position, session_id=session_id, limit=batch))
            for row in rows:
                yield format_event(row)
                position = row[0]
            if len(rows) == batch:
                continue
            if not await hub.wait(generation, keepalive_s):
                yield b": keepalive\n\n"
