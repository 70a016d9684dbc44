"""Export: the JSONL stream in the agent's ``hermes sessions export`` line format.

Pages by session id with one short read transaction per chunk, so memory stays flat and checkpoints keep
running however big the store is. A cheap plan (counts from covering indexes) fixes each chunk's range in
order; the next chunk is rendered (and the one after it planned) on a reader thread while the current
one is being sent. One render at a time: the sqlite3 module releases the GIL around every row it steps, so
two renders at once hand the GIL back and forth per row (measured on 2 cores: 50-70 % more CPU, no gain).
"""

from __future__ import annotations

import asyncio
import functools
import sqlite3
from collections import deque
from collections.abc import AsyncIterator, Callable
from typing import Any

import orjson

from app.errors import NotFound
from app.storage.database import Database
from app.storage.render_pool import RenderPool
from app.storage.repos import export as repo
from app.storage.repos import lineage as lineage_repo
from app.storage.repos import sessions as session_repo

EXPORT_CHUNK_SESSIONS = 64
EXPORT_CHUNK_MESSAGES = 2000


async def check_export_target(db: Database, session_id: str | None) -> None:
    """404 before the stream starts when a single session is asked for and does not exist."""
    if session_id is not None and not await db.read(
        lambda conn: session_repo.session_exists(conn, session_id)
    ):
        raise NotFound(f"Session not found: {session_id}", code="session_not_found")


async def export_jsonl(db: Database, flt: repo.ExportFilter) -> AsyncIterator[bytes]:
    """Yield the export in chunks of whole or partial lines, one short read transaction per chunk."""

    def plan(start: repo.ExportCursor, conn: sqlite3.Connection) -> repo.ChunkPlan:
        return repo.plan_chunk(
            conn, flt, start, max_sessions=EXPORT_CHUNK_SESSIONS, max_messages=EXPORT_CHUNK_MESSAGES
        )

    def step(
        chunk: repo.ChunkPlan, conn: sqlite3.Connection
    ) -> tuple[repo.RenderedChunk, repo.ChunkPlan | None]:
        # Render this chunk and plan the next in the same read, so the reader never waits for a plan.
        with repo.small_page_cache(conn):
            rendered = repo.render_chunk(conn, flt, chunk)
        return rendered, None if chunk.next is None else plan(chunk.next, conn)

    if db.render_pool is not None:
        async for data in _rendered_in_workers(db, db.render_pool, flt, plan):
            yield data
        return
    first = await db.read(functools.partial(plan, repo.ExportCursor()))
    pending: asyncio.Future[tuple[repo.RenderedChunk, repo.ChunkPlan | None]] | None = asyncio.ensure_future(
        db.read(functools.partial(step, first))
    )
    line_open = False
    try:
        while pending is not None:
            rendered, upcoming = await pending
            # The next render starts before this chunk is sent, so SQLite and the socket work at once.
            pending = (
                None
                if upcoming is None
                else asyncio.ensure_future(db.read(functools.partial(step, upcoming)))
            )
            data, line_open = repo.join_chunk(line_open, rendered)
            if data:
                yield data
    finally:
        if pending is not None:  # the client went away mid-stream
            pending.cancel()


async def _rendered_in_workers(
    db: Database,
    pool: RenderPool,
    flt: repo.ExportFilter,
    plan: Callable[[repo.ExportCursor, sqlite3.Connection], repo.ChunkPlan],
) -> AsyncIterator[bytes]:
    """The export with chunks rendered in worker processes, sent in order.

    Plans (cheap index counts) are made here one after another, each in its own short read; up to one render
    per worker plus one more is in flight, so memory stays at a few chunks.
    """
    inflight: deque[asyncio.Future[repo.RenderedChunk]] = deque()
    cursor: repo.ExportCursor | None = repo.ExportCursor()
    line_open = False
    try:
        while cursor is not None or inflight:
            while cursor is not None and len(inflight) <= pool.workers:
                chunk = await db.read(functools.partial(plan, cursor))
                inflight.append(asyncio.ensure_future(pool.render(flt, chunk)))
                cursor = chunk.next
            data, line_open = repo.join_chunk(line_open, await inflight.popleft())
            if data:
                yield data
    finally:
        for pending in inflight:  # the client went away mid-stream
            pending.cancel()


async def _message_pages(db: Database, session_id: str) -> AsyncIterator[bytes]:
    """A session's active messages in pages of comma-separated JSON objects, one short read per page."""
    after = 0
    while True:
        data, last = await db.read(
            functools.partial(
                repo.message_page, session_id=session_id, after_id=after, limit=EXPORT_CHUNK_MESSAGES
            )
        )
        if last is None:
            return
        yield data
        after = last


async def export_lineage_jsonl(db: Database, session_id: str) -> AsyncIterator[bytes]:
    """One line for the logical session through ``session_id``: the agent's ``export_session_lineage``.

    The tip's columns with ``message_count`` = all active messages of the lineage, ``messages`` = every
    segment's messages root → tip, ``segments`` = each compression segment (its columns and messages), and
    ``lineage_session_ids`` root → tip. Streamed page by page: the messages are read twice, never held.
    """

    def read_segments(conn: sqlite3.Connection) -> tuple[list[dict[str, Any]], dict[str, int]]:
        segments = repo.session_rows(conn, lineage_repo.compression_chain(conn, session_id))
        return segments, repo.active_message_counts(conn, [s["id"] for s in segments])

    segments, counts = await db.read(read_segments)
    if not segments:  # deleted since check_export_target: nothing to export
        return
    head = dict(segments[-1])
    head["message_count"] = sum(counts.values())
    yield orjson.dumps(head)[:-1] + b',"messages":['
    sep = b""
    for segment in segments:
        async for page in _message_pages(db, segment["id"]):
            yield sep + page
            sep = b","
    yield b'],"segments":['
    for i, segment in enumerate(segments):
        yield (b"," if i else b"") + orjson.dumps(segment)[:-1] + b',"messages":['
        sep = b""
        async for page in _message_pages(db, segment["id"]):
            yield sep + page
            sep = b","
        yield b"]}"
    yield b'],"lineage_session_ids":' + orjson.dumps([s["id"] for s in segments]) + b"}\n"
