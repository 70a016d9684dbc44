"""Export: the JSONL stream in the agent's ``hermes sessions export`` line format.

Pages by session id with one short read transaction per chunk, so memory stays flat and checkpoints keep
running however big the store is.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Awaitable

from app.errors import NotFound
from app.storage.database import Database
from app.storage.repos import export as repo
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
    """Yield the export in chunks of whole or partial lines, one read transaction per chunk.

    The next chunk is read on a reader thread while the current one is being sent, so SQLite and the
    socket work at the same time; at most two chunks are in memory.
    """

    def read(cursor: repo.ExportCursor) -> Awaitable[tuple[bytes, repo.ExportCursor | None]]:
        def chunk(conn: sqlite3.Connection) -> tuple[bytes, repo.ExportCursor | None]:
            with repo.small_page_cache(conn):
                return repo.export_chunk(
                    conn, flt, cursor, max_sessions=EXPORT_CHUNK_SESSIONS, max_messages=EXPORT_CHUNK_MESSAGES
                )

        return db.read(chunk)

    pending: asyncio.Future[tuple[bytes, repo.ExportCursor | None]] | None = asyncio.ensure_future(
        read(repo.ExportCursor())
    )
    try:
        while pending is not None:
            data, cursor = await pending
            pending = asyncio.ensure_future(read(cursor)) if cursor is not None else None
            if data:
                yield data
    finally:
        if pending is not None:  # the client went away mid-stream
            pending.cancel()
