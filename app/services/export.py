"""Export: the JSONL stream in the agent's ``hermes sessions export`` line format.

Pages by session id with one short read transaction per chunk, so memory stays flat and checkpoints keep
running however big the store is. A cheap plan (counts from covering indexes) fixes each chunk's range in
order; the next chunk is rendered (and the one after it planned) on a reader thread while the current
one is being sent. One render at a time: the sqlite3 module releases the GIL around every row it steps, so
two renders at once hand the GIL back and forth per row: more CPU for no gain (docs/benchmarks.md).

A stored value JSON cannot hold as it is (a BLOB, TEXT that is not UTF-8) never cuts the stream short:
the row is left out, every other session is written, and the stream ends with one error record line
(:func:`error_record`). So does an export that cannot go on (a render worker killed, an I/O error).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections import deque
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import orjson

from app.errors import SessionNotFound
from app.storage import rows as store
from app.storage.protocols import ChunkRenderer, Store, Tx
from app.storage.rows import ExportFilter

log = logging.getLogger(__name__)

EXPORT_CHUNK_SESSIONS = 64
EXPORT_CHUNK_MESSAGES = 2000
# The key of the export's final error record line; no session line has it (ids are keys, not this).
EXPORT_ERROR_KEY = "_export_error"
# Rows named in the error record, each list; the detail sentence counts them all.
MAX_REPORTED_ROWS = 1000


@dataclass
class ExportProblems:
    """What an export could not write, for its final error record."""

    sessions: list[store.Skipped] = field(default_factory=list)
    messages: list[store.Skipped] = field(default_factory=list)
    sessions_total: int = 0
    messages_total: int = 0
    stopped: str | None = None

    def add(self, skipped: tuple[store.Skipped, ...]) -> None:
        """Count rows left out (a session's own row leaves the whole session out)."""
        for item in skipped:
            if item.message_id is None:
                self.sessions_total += 1
                if len(self.sessions) < MAX_REPORTED_ROWS:
                    self.sessions.append(item)
            else:
                self.messages_total += 1
                if len(self.messages) < MAX_REPORTED_ROWS:
                    self.messages.append(item)

    def stop(self, exc: Exception) -> None:
        """The export could not go on after ``exc``."""
        log.error("export stopped early", exc_info=exc)
        self.stopped = str(exc) or type(exc).__name__

    def __bool__(self) -> bool:
        return bool(self.sessions_total or self.messages_total or self.stopped)


def error_record(problems: ExportProblems) -> bytes:
    """The export's last line when it could not write everything::

        {"_export_error": {"detail": "<sentence>", "stopped_early": false,
                           "sessions_skipped": [{"session_id", "column", "reason"}],
                           "messages_skipped": [{"session_id", "message_id", "column", "reason"}]}}

    ``reason`` is ``binary_value`` (a BLOB) or ``invalid_utf8`` (TEXT bytes that are not UTF-8): JSON text
    cannot hold either as stored. A skipped session is not in the export at all; a skipped message is left
    out of its session's line, which is written. ``stopped_early``: the export ended there, the sessions
    after the last whole line are missing (``detail`` says why). ``POST /import`` reports this line.
    """
    parts: list[str] = []
    if problems.sessions_total:
        parts.append(
            f"{problems.sessions_total} session(s) hold a value JSON cannot carry and are not exported"
        )
    if problems.messages_total:
        parts.append(
            f"{problems.messages_total} message(s) hold a value JSON cannot carry and were left out of "
            "their session's line"
        )
    if problems.stopped is not None:
        parts.append(
            f"the export stopped early ({problems.stopped}); sessions after the last whole line are missing"
        )
    detail = "; ".join(parts)
    body = {
        "detail": detail[:1].upper() + detail[1:] + ".",
        "stopped_early": problems.stopped is not None,
        "sessions_skipped": [
            {"session_id": s.session_id, "column": s.column, "reason": s.reason} for s in problems.sessions
        ],
        "messages_skipped": [
            {"session_id": s.session_id, "message_id": s.message_id, "column": s.column, "reason": s.reason}
            for s in problems.messages
        ],
    }
    return orjson.dumps({EXPORT_ERROR_KEY: body}) + b"\n"


async def check_export_target(db: Store, session_id: str | None) -> None:
    """404 before the stream starts when a single session is asked for and does not exist."""
    if session_id is not None and not await db.read(lambda tx: tx.sessions.session_exists(session_id)):
        raise SessionNotFound(session_id)


def export_jsonl(db: Store, flt: ExportFilter) -> AsyncIterator[bytes]:
    """Yield the export in chunks of whole or partial lines, one short read transaction per chunk."""

    def plan(start: store.ExportCursor, tx: Tx) -> store.ChunkPlan:
        return tx.export.plan_chunk(
            flt, start, max_sessions=EXPORT_CHUNK_SESSIONS, max_messages=EXPORT_CHUNK_MESSAGES
        )

    def step(chunk: store.ChunkPlan, tx: Tx) -> tuple[store.RenderedChunk, store.ChunkPlan | None]:
        # Render this chunk and plan the next in the same read, so the reader never waits for a plan.
        with tx.export.small_page_cache():
            rendered = tx.export.render_chunk(flt, chunk)
        return rendered, None if chunk.next is None else plan(chunk.next, tx)

    async def rendered_here() -> AsyncGenerator[store.RenderedChunk, None]:
        pending: asyncio.Future[tuple[store.RenderedChunk, store.ChunkPlan | None]] | None = None
        try:
            first = await db.read(functools.partial(plan, store.ExportCursor()))
            pending = asyncio.ensure_future(db.read(functools.partial(step, first)))
            while pending is not None:
                rendered, upcoming = await pending
                # The next render starts before this chunk is sent, so SQLite and the socket work at once.
                pending = (
                    None
                    if upcoming is None
                    else asyncio.ensure_future(db.read(functools.partial(step, upcoming)))
                )
                yield rendered
        finally:
            if pending is not None:  # the client went away mid-stream, or a render failed
                pending.cancel()

    renderer = None if db.files is None else db.files.renderer
    chunks = rendered_here() if renderer is None else _rendered_in_workers(db, renderer, flt, plan)
    return _sent_in_order(chunks)


async def _sent_in_order(chunks: AsyncGenerator[store.RenderedChunk, None]) -> AsyncIterator[bytes]:
    """The rendered chunks as bytes to send, ending with an error record when anything was left out."""
    problems = ExportProblems()
    line_open = store.LINE_CLOSED
    try:
        async for rendered in chunks:
            problems.add(store.chunk_skipped(line_open, rendered))
            data, line_open = store.join_chunk(line_open, rendered)
            if data:
                yield data
    except Exception as exc:  # the stream already answered 200: end it with a record saying so
        problems.stop(exc)
        if line_open:
            yield b"\n"
    finally:
        await chunks.aclose()
    if problems:
        yield error_record(problems)


async def _rendered_in_workers(
    db: Store,
    pool: ChunkRenderer,
    flt: ExportFilter,
    plan: Callable[[store.ExportCursor, Tx], store.ChunkPlan],
) -> AsyncGenerator[store.RenderedChunk, None]:
    """The export's chunks rendered in worker processes, in order.

    Plans (cheap index counts) are made here one after another, each in its own short read; up to one render
    per worker plus one more is in flight, so memory stays at a few chunks.
    """
    inflight: deque[asyncio.Future[store.RenderedChunk]] = deque()
    cursor: store.ExportCursor | None = store.ExportCursor()
    try:
        while cursor is not None or inflight:
            while cursor is not None and len(inflight) <= pool.workers:
                chunk = await db.read(functools.partial(plan, cursor))
                inflight.append(asyncio.ensure_future(pool.render(flt, chunk)))
                cursor = chunk.next
            yield await inflight.popleft()
    finally:
        for pending in inflight:  # the client went away mid-stream, or a render failed
            pending.cancel()


def _message_page(tx: Tx, *, session_id: str, after_id: int) -> store.MessageJsonPage:
    return tx.export.message_page(session_id=session_id, after_id=after_id, limit=EXPORT_CHUNK_MESSAGES)


async def _message_pages(db: Store, session_id: str, problems: ExportProblems) -> AsyncIterator[bytes]:
    """A session's active messages in pages of comma-separated JSON objects, one short read per page."""
    after = 0
    while True:
        page = await db.read(functools.partial(_message_page, session_id=session_id, after_id=after))
        if page.last_id is None:
            return
        problems.add(page.skipped)
        if page.data:
            yield page.data
        after = page.last_id


async def export_lineage_jsonl(db: Store, session_id: str) -> AsyncIterator[bytes]:
    """One line for the logical session through ``session_id``: the agent's ``export_session_lineage``.

    The tip's columns with ``message_count`` = all active messages of the lineage, ``messages`` = every
    segment's messages root → tip, ``segments`` = each compression segment (its columns and messages), and
    ``lineage_session_ids`` root → tip. Streamed page by page: the messages are read twice, never held.
    Rows that cannot be written are left out and reported by a final error record, as in the full export.
    """

    def read_segments(tx: Tx) -> tuple[list[dict[str, Any]], dict[str, int]]:
        segments = tx.export.session_rows(tx.lineage.compression_chain(session_id))
        return segments, tx.export.active_message_counts([s["id"] for s in segments])

    problems = ExportProblems()
    line_open = False
    try:
        segments, counts = await db.read(read_segments)
        if not segments:  # deleted since check_export_target: nothing to export
            return
        head = dict(segments[-1])
        head["message_count"] = sum(counts.values())
        heads = [orjson.dumps(head)[:-1], *(orjson.dumps(segment)[:-1] for segment in segments)]
        line_open = True
        yield heads[0] + b',"messages":['
        async for page in _joined(_message_pages(db, segment["id"], problems) for segment in segments):
            yield page
        yield b'],"segments":['
        for i, segment in enumerate(segments):
            yield (b"," if i else b"") + heads[i + 1] + b',"messages":['
            # The same rows as above: their problems are already counted once.
            async for page in _joined([_message_pages(db, segment["id"], ExportProblems())]):
                yield page
            yield b"]}"
        yield b'],"lineage_session_ids":' + orjson.dumps([s["id"] for s in segments]) + b"}\n"
        line_open = False
    except Exception as exc:  # the stream already answered 200: end it with a record saying so
        problems.stop(exc)
        if line_open:
            yield b"\n"
    if problems:
        yield error_record(problems)


async def _joined(pages: Iterable[AsyncIterator[bytes]]) -> AsyncIterator[bytes]:
    """The pages of several message lists as one comma-separated list."""
    sep = b""
    for source in pages:
        async for page in source:
            yield sep + page
            sep = b","
