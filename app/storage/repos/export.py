"""SQL for export: pages of sessions and their active messages out, in the agent's JSONL line format.

Each chunk is one short read transaction; a line is written in pieces so a huge session never sits in memory.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import orjson

from app.storage.repos.transfer import CONTENT_JSON_PREFIX


@dataclass(frozen=True)
class ExportFilter:
    """Which sessions an export covers."""

    source: str | None = None
    session_id: str | None = None
    since: float | None = None


@dataclass
class ExportCursor:
    """Where the next export chunk starts: after a session id, or inside a session's message list."""

    after_session_id: str = ""
    open_session_id: str | None = None
    after_message_id: int = 0


def _session_page(
    conn: sqlite3.Connection, flt: ExportFilter, after_id: str, limit: int
) -> tuple[list[str], list[tuple[Any, ...]]]:
    # last_active is the listing extra the agent's export_all carries (latest message, else started_at).
    clauses = ["s.id > ?"]
    params: list[Any] = [after_id]
    if flt.source is not None:
        clauses.append("s.source = ?")
        params.append(flt.source)
    if flt.session_id is not None:
        clauses.append("s.id = ?")
        params.append(flt.session_id)
    where = " AND ".join(clauses)
    sql = (
        "SELECT * FROM (SELECT s.*, COALESCE((SELECT MAX(m.timestamp) FROM messages m "
        f"WHERE m.session_id = s.id), s.started_at) AS last_active FROM sessions s WHERE {where} "
        "ORDER BY s.id LIMIT ?)"
    )
    if flt.since is not None:
        # Paged by id, so the filter applies per page: keep paging while a page is all filtered out.
        sql += " WHERE last_active >= ? OR started_at >= ?"
        params.append(limit)
        params.extend([flt.since, flt.since])
    else:
        params.append(limit)
    cur = conn.cursor()
    cur.row_factory = None
    cur.execute(sql, params)
    return [d[0] for d in cur.description], cur.fetchall()


def _last_id_in_page(conn: sqlite3.Connection, flt: ExportFilter, after_id: str, limit: int) -> str | None:
    clauses = ["id > ?"]
    params: list[Any] = [after_id]
    if flt.source is not None:
        clauses.append("source = ?")
        params.append(flt.source)
    if flt.session_id is not None:
        clauses.append("id = ?")
        params.append(flt.session_id)
    row = conn.execute(
        f"SELECT MAX(id) FROM (SELECT id FROM sessions WHERE {' AND '.join(clauses)} ORDER BY id LIMIT ?)",
        [*params, limit],
    ).fetchone()
    return row[0] if row and row[0] is not None else None


def _decode_messages(cols: list[str], rows: list[tuple[Any, ...]]) -> list[dict[str, Any]]:
    # Mirrors SessionDB.get_messages: content un-prefixed and decoded, tool_calls decoded ([] if corrupt).
    out = []
    for row in rows:
        msg = dict(zip(cols, row, strict=True))
        content = msg.get("content")
        if isinstance(content, str) and content.startswith(CONTENT_JSON_PREFIX):
            with contextlib.suppress(orjson.JSONDecodeError):
                msg["content"] = orjson.loads(content[len(CONTENT_JSON_PREFIX) :])
        tool_calls = msg.get("tool_calls")
        if tool_calls:
            try:
                msg["tool_calls"] = orjson.loads(tool_calls)
            except orjson.JSONDecodeError:
                msg["tool_calls"] = []
        out.append(msg)
    return out


class _Messages:
    """One page of a session's active messages, as tuples (much cheaper than ``sqlite3.Row`` dicts)."""

    def __init__(self, conn: sqlite3.Connection, session_id: str, after_id: int, limit: int) -> None:
        cur = conn.cursor()
        cur.row_factory = None
        cur.execute(
            "SELECT * FROM messages WHERE session_id = ? AND active = 1 AND id > ? ORDER BY id LIMIT ?",
            (session_id, after_id, limit),
        )
        self.cols = [d[0] for d in cur.description]
        self.rows: list[tuple[Any, ...]] = cur.fetchall()

    @classmethod
    def for_sessions(cls, conn: sqlite3.Connection, session_ids: list[str], limit: int) -> _Messages:
        """Active messages of several sessions in one query, ordered by session then id."""
        page = cls.__new__(cls)
        cur = conn.cursor()
        cur.row_factory = None
        marks = ",".join("?" * len(session_ids))
        cur.execute(
            f"SELECT * FROM messages WHERE session_id IN ({marks}) AND active = 1 "
            "ORDER BY session_id, id LIMIT ?",
            [*session_ids, limit],
        )
        page.cols = [d[0] for d in cur.description]
        page.rows = cur.fetchall()
        return page

    def encoded(self, count: int) -> bytes:
        """The first ``count`` messages as comma-separated JSON objects (one orjson call)."""
        return orjson.dumps(_decode_messages(self.cols, self.rows[:count]))[1:-1]

    def last_id(self, count: int) -> int:
        """Id of the ``count``-th message."""
        return int(self.rows[count - 1][self.cols.index("id")])


@contextlib.contextmanager
def small_page_cache(conn: sqlite3.Connection, kib: int = 2048) -> Iterator[None]:
    """Cap this connection's page cache while streaming: an export reads every page exactly once, so a big
    cache would only fill with pages never read again (the reader's usual cache returns afterwards)."""
    (previous,) = conn.execute("PRAGMA cache_size").fetchone()
    conn.execute(f"PRAGMA cache_size=-{int(kib)}")
    try:
        yield
    finally:
        conn.execute(f"PRAGMA cache_size={int(previous)}")


def export_chunk(
    conn: sqlite3.Connection,
    flt: ExportFilter,
    cursor: ExportCursor,
    *,
    max_sessions: int,
    max_messages: int,
) -> tuple[bytes, ExportCursor | None]:
    """Encode the next piece of the JSONL export; ``None`` as the cursor means the export is complete.

    A line is written in pieces (session head, message batches, closing ``]}``) so a session with a
    hundred thousand messages never sits in memory at once; each piece is one short read transaction.
    """
    out = bytearray()
    budget = max_messages
    if cursor.open_session_id is not None:
        sid = cursor.open_session_id
        page = _Messages(conn, sid, cursor.after_message_id, budget + 1)
        count = min(len(page.rows), budget)
        if count:
            out += b","
            out += page.encoded(count)
        if len(page.rows) > budget:
            return bytes(out), ExportCursor(sid, sid, page.last_id(count))
        out += b"]}\n"
        cursor = ExportCursor(after_session_id=sid)
        budget -= count
    cols, sessions = _session_page(conn, flt, cursor.after_session_id, max_sessions)
    page_end = _last_id_in_page(conn, flt, cursor.after_session_id, max_sessions)
    if page_end is None:
        return bytes(out), None
    if not sessions:
        return bytes(out), ExportCursor(after_session_id=page_end)
    id_at = cols.index("id")
    allowed = max(budget, 1)
    msgs = _Messages.for_sessions(conn, [row[id_at] for row in sessions], allowed + 1)
    truncated = len(msgs.rows) > allowed
    rows = msgs.rows[:allowed]
    sid_at, mid_at = msgs.cols.index("session_id"), msgs.cols.index("id")
    by_session: dict[str, list[tuple[Any, ...]]] = {}
    for row in rows:
        by_session.setdefault(row[sid_at], []).append(row)
    last_sid = rows[-1][sid_at] if rows else None
    parts: list[bytes] = [bytes(out)]
    for session in sessions:
        sid = session[id_at]
        mine = by_session.get(sid, [])
        parts.append(orjson.dumps(dict(zip(cols, session, strict=True)))[:-1])
        parts.append(b',"messages":[')
        parts.append(orjson.dumps(_decode_messages(msgs.cols, mine))[1:-1])
        if truncated and sid == last_sid:
            # The budget ran out inside this session: the next chunk continues its message list.
            return b"".join(parts), ExportCursor(sid, sid, int(mine[-1][mid_at]))
        parts.append(b"]}\n")
    return b"".join(parts), ExportCursor(after_session_id=page_end)
