"""Events: written by the services in the same transaction as their effect, so an event exists exactly
when its effect committed; streamed to clients by tailing ``hs_events`` by id.

Waking streams costs writers nothing, whatever the number of listeners: :func:`emit` only inserts, and the
hub subscribes to the writer's commit notices. A notice that carries events wakes the hub, which reads the
new events **once** for all its streams and hands each stream its share (pre-rendered frames) through a
bounded per-stream queue, gathering commits for a short window so each stream wakes a bounded number of
times per second. A stream that falls more than its queue behind is not waited for: its queue is
dropped (counted in :attr:`EventHub.dropped_total`) and the stream catches up from the log by id itself,
exactly as a reconnecting client does with ``Last-Event-ID``, so it loses nothing. A periodic look at the
log also wakes the hub, so events another server process wrote on the same file are seen. Nothing holds a
reader or the writer while waiting. With nobody listening, emitting costs one INSERT.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncGenerator, Callable, Iterable, Iterator, Mapping
from dataclasses import KW_ONLY, dataclass, field
from enum import StrEnum
from functools import partial
from typing import Any

import orjson

from app.services.background import cancel_and_wait
from app.storage.commit_notice import CommitNotice
from app.storage.leadership import ALWAYS_LEADER, Leadership
from app.storage.protocols import Store, Tx
from app.storage.rows import EventRow, NewEvent

log = logging.getLogger(__name__)


class EventType(StrEnum):
    """The event names a stream sends (SSE ``event:`` field)."""

    message_created = "message.created"
    session_updated = "session.updated"
    session_ended = "session.ended"
    handoff_updated = "handoff.updated"
    session_expiring = "session.expiring"
    store_read_only = "store.read_only"
    """Not logged (the file may not be written): sent live to the open streams when the file turned
    read-only under the server, or writable again (``read_only`` false)."""


def _dump(data: dict[str, Any]) -> str:
    return orjson.dumps(data).decode()


def event_row(event_type: EventType, session_id: str | None, data: dict[str, Any], now: float) -> NewEvent:
    """One event, ready for ``tx.events.insert_many``."""
    return (event_type.value, session_id, _dump(data), now)


def emit(tx: Tx, event_type: EventType, session_id: str | None, data: dict[str, Any]) -> None:
    """Record one event in the caller's transaction (its commit notice wakes the hub)."""
    tx.events.insert(*event_row(event_type, session_id, data, time.time()))


def message_rows(session_id: str, stored: Iterable[Mapping[str, Any]], now: float) -> list[NewEvent]:
    """One compact ``message.created`` per stored message (each an ``id`` and a ``role``; never content)."""
    kind = EventType.message_created.value
    # The session id is JSON-encoded once; the rest is plain ints and fixed role names.
    sid = orjson.dumps(session_id).decode()
    return [
        (kind, session_id, f'{{"session_id":{sid},"message_id":{m["id"]},"role":"{m["role"]}"}}', now)
        for m in stored
    ]


def emit_messages(tx: Tx, session_id: str, stored: Iterable[Mapping[str, Any]]) -> None:
    """Record the ``message.created`` events of ``stored`` in the caller's transaction, in one statement."""
    tx.events.insert_many(message_rows(session_id, stored, time.time()))


Frame = tuple[int | None, bytes]
"""An event's id (``None`` for a live notice that is not in the log) and its SSE bytes."""
"""One event's id and its rendered SSE frame."""

LISTENER_QUEUE_EVENTS = 1024
"""Events a stream may have waiting before the hub stops queueing for it and it catches up from the log."""
_TAIL_BATCH = 500
STREAM_WAKES_PER_S = 1000
"""The budget of stream wake-ups per second across all streams. Each wake-up (a generator resumed, a
chunk through the middleware and onto a socket) costs the event loop tens of microseconds, so the hub
gathers events for longer the more streams there are, and the fan-out's cost stays flat however many
listen (bench/events_fanout.py)."""
FAN_OUT_WINDOW_MIN_S = 0.01
FAN_OUT_WINDOW_MAX_S = 0.25
"""Bounds of the gathering window: the delivery delay a stream may see on top of the commit."""


class Subscription:
    """One stream's queue of frames from the hub; it only ever holds events committed after it opened."""

    def __init__(self, session_id: str | None, capacity: int) -> None:
        self.session_id = session_id
        self.capacity = capacity
        self.frames: list[Frame] = []
        self.overflowed = False
        self._waiter: asyncio.Future[None] | None = None

    def offer(self, frames: list[Frame]) -> int:
        """Queue ``frames`` (on the event loop); the number dropped because the stream is too far behind."""
        if self.overflowed:
            return len(frames)
        if len(self.frames) + len(frames) > self.capacity:
            dropped = len(self.frames) + len(frames)
            self.frames = []
            self.overflowed = True
        else:
            self.frames.extend(frames)
            dropped = 0
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)
        return dropped

    def resync(self) -> None:
        """Forget the queue: the stream is about to read everything after its position from the log."""
        self.frames = []
        self.overflowed = False

    async def take(self, timeout: float) -> list[Frame] | None:
        """The queued frames (waiting up to ``timeout`` for some); ``None`` on timeout, ``[]`` when the
        stream fell behind and must resync."""
        if not self.frames and not self.overflowed:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                async with asyncio.timeout(timeout):
                    await self._waiter
            except TimeoutError:
                return None
            finally:
                self._waiter = None
        frames, self.frames = self.frames, []
        return frames


class EventHub:
    """Reads new events once per commit for every stream of this process, and wakes handoff long-polls."""

    def __init__(self, db: Store, *, poll_s: float, queue_events: int = LISTENER_QUEUE_EVENTS) -> None:
        self.db = db
        self.poll_s = poll_s
        self.queue_events = queue_events
        self.generation = 0
        self.dropped_total = 0
        """Events not queued for a stream that had fallen behind (it re-read them from the log)."""
        self._waiters: set[asyncio.Future[None]] = set()
        self._subscriptions: set[Subscription] = set()
        self._listeners = 0  # open streams and long-polls; with none, a poke costs nothing
        self._unsubscribe: Callable[[], None] | None = None
        self._unwatch: Callable[[], None] | None = None
        self._seen_id = 0
        self._news = asyncio.Event()
        self._poll_task: asyncio.Task[None] | None = None
        self._tail_task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Subscribe to the writer's commit notices and start the cross-process poll and the tail reader."""
        loop = asyncio.get_running_loop()
        self._seen_id = await self.db.read(lambda tx: tx.events.latest_id())
        self._unsubscribe = self.db.subscribe(self.on_commit)

        def noticed(reason: str | None) -> None:
            loop.call_soon_threadsafe(self.announce_read_only, reason)

        self._unwatch = self.db.watch_read_only(noticed)
        self._poll_task = loop.create_task(self._poll(), name="hermes-events-poll")
        self._tail_task = loop.create_task(self._tail(), name="hermes-events-tail")

    async def stop(self) -> None:
        """Unsubscribe and release every waiter."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._unwatch is not None:
            self._unwatch()
            self._unwatch = None
        await cancel_and_wait(self._poll_task)
        await cancel_and_wait(self._tail_task)
        self._wake()

    @property
    def listeners(self) -> int:
        """Open streams and long-polls."""
        return self._listeners

    def on_commit(self, notice: CommitNotice) -> None:
        """A commit landed: when it carried events and someone listens, the tail reads them (once per
        gathering window, however many commits arrive meanwhile)."""
        if notice.event_ids and self._listeners:
            self._news.set()

    async def _tail(self) -> None:
        """Read what is new in the log, once for all streams, whenever a commit or the poll says so."""
        while True:
            await self._news.wait()
            self._news.clear()
            try:
                while rows := await self.db.read(
                    lambda tx: tx.events.tail(last_id=self._seen_id, limit=_TAIL_BATCH)
                ):
                    self._seen_id = rows[-1][0]
                    self._fan_out(rows)
                    if len(rows) < _TAIL_BATCH:
                        break
            except Exception as exc:  # a busy or closing database only delays delivery to the next look
                log.debug("event tail skipped: %s", exc)
            # Long-polls re-check their own state (handoff claims also look for agent-side requests).
            self._wake()
            # Under a steady write load commits come every few milliseconds: gathering a window's worth
            # wakes each stream once per window instead of once per commit, so the fan-out's cost depends
            # neither on the write rate nor (up to the window's cap) on the number of streams.
            await asyncio.sleep(self.fan_out_window())

    def fan_out_window(self) -> float:
        """Seconds to gather events before the next read of the log, for the streams open now."""
        wanted = len(self._subscriptions) / STREAM_WAKES_PER_S
        return min(FAN_OUT_WINDOW_MAX_S, max(FAN_OUT_WINDOW_MIN_S, wanted))

    def _fan_out(self, rows: list[tuple[int, str, str, str | None]]) -> None:
        everything: list[Frame] = []
        by_session: dict[str, list[Frame]] = {}
        for event_id, event_type, data, session_id in rows:
            frame = (event_id, format_event((event_id, event_type, data)))
            everything.append(frame)
            if session_id is not None:
                by_session.setdefault(session_id, []).append(frame)
        for sub in self._subscriptions:
            frames = everything if sub.session_id is None else by_session.get(sub.session_id)
            if frames:
                self.dropped_total += sub.offer(frames)

    def announce_read_only(self, reason: str | None) -> None:
        """Tell every open stream that the store turned read-only (``reason``) or writable (``None``)."""
        data = _dump({"read_only": reason is not None, "reason": reason})
        frame = f"event: {EventType.store_read_only.value}\ndata: {data}\n\n".encode()
        for sub in self._subscriptions:
            self.dropped_total += sub.offer([(None, frame)])

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

    @contextlib.contextmanager
    def subscribe(self, session_id: str | None) -> Iterator[Subscription]:
        """A queue of the frames of every event committed from now on (of one session, or of all)."""
        sub = Subscription(session_id, self.queue_events)
        self._subscriptions.add(sub)
        try:
            with self.listening():
                yield sub
        finally:
            self._subscriptions.discard(sub)

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(self.poll_s)
            if self._listeners:
                self._news.set()


@dataclass(eq=False)
class EventPruner:
    """Keeps ``hs_events`` bounded: at start-up and then every ``interval_s``, drop events older than
    ``retention_days`` and all but the newest ``max_rows``."""

    db: Store
    _: KW_ONLY
    retention_days: float
    max_rows: int
    interval_s: float
    leadership: Leadership = ALWAYS_LEADER
    dropped: int = field(default=0, init=False)  # events deleted so far, read by /metrics
    _task: asyncio.Task[None] | None = field(default=None, init=False)

    def start(self) -> None:
        """Start the periodic prune, which runs while this process leads the replicas."""
        self._task = asyncio.get_running_loop().create_task(
            self.leadership.while_leading(self._loop), name="hermes-events-prune"
        )

    async def stop(self) -> None:
        """Cancel the periodic prune."""
        await cancel_and_wait(self._task)
        self._task = None

    async def run_once(self, chunk: int = 10_000) -> int:
        """Prune now, ``chunk`` rows per write job so appends interleave; the number of events deleted."""
        cutoff = time.time() - self.retention_days * 86400.0
        total = 0
        while deleted := await self.db.write(
            lambda tx: tx.events.prune(older_than=cutoff, max_rows=self.max_rows, chunk=chunk)
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


def _after(tx: Tx, *, last_id: int, session_id: str | None, limit: int) -> list[EventRow]:
    return tx.events.after(last_id, session_id, limit)


def format_event(row: EventRow) -> bytes:
    """One SSE frame: ``id``, ``event`` and the stored JSON as ``data``."""
    event_id, event_type, data = row
    return f"id: {event_id}\nevent: {event_type}\ndata: {data}\n\n".encode()


async def stream(
    db: Store,
    hub: EventHub,
    *,
    session_id: str | None,
    last_id: int | None,
    keepalive_s: float,
    batch: int = 500,
) -> AsyncGenerator[bytes, None]:
    """SSE frames: events after ``last_id`` (or only new ones when ``None``), then live ones as they
    commit, with a ``: keepalive`` comment after ``keepalive_s`` of silence. Replay (and catching up after
    falling behind) reads the log in short read transactions; live events come from the hub's queue, so an
    idle stream costs no SQL. A client that goes away cancels the generator (Starlette listens for the
    disconnect), which also ends its subscription."""
    # Subscribed before the replay reads the log, so nothing committed in between is missed; frames the
    # replay has already sent are skipped by id.
    with hub.subscribe(session_id) as sub:
        if last_id is None:
            last_id = await db.read(lambda tx: tx.events.latest_id())
        # Reconnecting clients wait this long before retrying (SSE ``retry``).
        yield b"retry: 2000\n\n"
        position = last_id
        while True:
            sub.resync()
            while True:
                rows = await db.read(partial(_after, last_id=position, session_id=session_id, limit=batch))
                if rows:
                    yield b"".join(format_event(row) for row in rows)
                    position = rows[-1][0]
                if len(rows) < batch:
                    break
            while (frames := await sub.take(keepalive_s)) != []:
                if frames is None:
                    yield b": keepalive\n\n"
                    continue
                fresh = [frame for event_id, frame in frames if event_id is None or event_id > position]
                if fresh:
                    yield b"".join(fresh)
                    logged = [event_id for event_id, _ in frames if event_id is not None]
                    position = logged[-1] if logged else position
