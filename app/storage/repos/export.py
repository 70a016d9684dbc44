"""SQL for export: pages of sessions and their active messages out, in the agent's JSONL line format.

An export is a chain of chunks. ``plan_chunk`` decides, from counts alone (covering indexes, no payload),
where the next chunk ends; ``render_chunk`` writes exactly that range. Plans are cheap and sequential, renders
are the expensive part and independent of each other, so one can run while the previous is sent. Each
call is one short read transaction; a session's line may span chunks (head, message batches, closing
``]}``), so a session with a hundred thousand messages never sits in memory at once.

Message rows are rendered to JSON by SQLite (``export_render``); the rows it cannot match byte for byte, and
every session row, go through the Python path that mirrors the agent's ``get_messages``.
"""

from __future__ import annotations

import bisect
import contextlib
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

import orjson

from app.storage.repos.export_render import MessageRender, fill_floats, message_render, session_render
from app.storage.repos.sessions import LAST_ACTIVE_SQL
from app.storage.repos.transfer import CONTENT_JSON_PREFIX


@dataclass(frozen=True)
class ExportFilter:
    """Which sessions an export covers."""

    source: str | None = None
    session_id: str | None = None
    since: float | None = None


@dataclass(frozen=True)
class ExportCursor:
    """Where a chunk starts: after a session id, or inside a session's message list (after a message id)."""

    after_session_id: str = ""
    open_session_id: str | None = None
    after_message_id: int = 0


@dataclass(frozen=True)
class ChunkPlan:
    """One chunk: from ``start`` through the session ``upto_session_id`` (``None``: no new session), whose
    message list stops after ``cut_message_id`` and stays open when that is set; ``next`` starts the next
    chunk (``None``: this is the last one). With no new session, the cut applies to the open session."""

    start: ExportCursor
    upto_session_id: str | None
    cut_message_id: int | None
    next: ExportCursor | None


# last_active is the listing extra the agent's export_all carries (latest message, else started_at).
_LAST_ACTIVE = LAST_ACTIVE_SQL.format(a="s")


def _where(flt: ExportFilter, *, since: bool) -> tuple[str, list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    if flt.source is not None:
        clauses.append("s.source = ?")
        params.append(flt.source)
    if flt.session_id is not None:
        clauses.append("s.id = ?")
        params.append(flt.session_id)
    if since and flt.since is not None:
        clauses.append(f"({_LAST_ACTIVE} >= ? OR s.started_at >= ?)")
        params.extend([flt.since, flt.since])
    return "".join(f" AND {c}" for c in clauses), params


def _page(
    conn: sqlite3.Connection, flt: ExportFilter, after_id: str, limit: int
) -> tuple[str | None, list[str]]:
    """The next page of ``limit`` sessions by id: its last id (``None``: no more sessions) and the ids in it
    that pass ``since``. Paged before the ``since`` filter, so a page may be all filtered out."""
    where, params = _where(flt, since=False)
    passes, since_params = "1", []
    if flt.since is not None:
        passes, since_params = f"({_LAST_ACTIVE} >= ? OR s.started_at >= ?)", [flt.since, flt.since]
    rows = conn.execute(
        f"SELECT s.id, {passes} FROM sessions s WHERE s.id > ?{where} ORDER BY s.id LIMIT ?",
        [*since_params, after_id, *params, limit],
    ).fetchall()
    if not rows:
        return None, []
    return rows[-1][0], [r[0] for r in rows if r[1]]


def _active_counts(conn: sqlite3.Connection, session_ids: list[str]) -> dict[str, int]:
    # Served from the covering index idx_messages_session_active (session_id, active, ...): no row reads.
    marks = ",".join("?" * len(session_ids))
    rows = conn.execute(
        f"SELECT session_id, COUNT(*) FROM messages WHERE session_id IN ({marks}) AND active = 1 "
        "GROUP BY session_id",
        session_ids,
    )
    return dict(rows.fetchall())


def _nth_active_id(conn: sqlite3.Connection, session_id: str, after_id: int, n: int) -> int:
    """Id of the ``n``-th active message of a session after ``after_id`` (n >= 1)."""
    row = conn.execute(
        "SELECT id FROM messages WHERE session_id = ? AND active = 1 AND id > ? ORDER BY id LIMIT 1 OFFSET ?",
        (session_id, after_id, n - 1),
    ).fetchone()
    return int(row[0])


def plan_chunk(
    conn: sqlite3.Connection, flt: ExportFilter, start: ExportCursor, *, max_sessions: int, max_messages: int
) -> ChunkPlan:
    """Where the chunk beginning at ``start`` ends: at most ``max_sessions`` new sessions and (give or take
    the empty sessions) ``max_messages`` messages, a big session being cut into several chunks."""
    budget = max_messages
    after = start.after_session_id
    if start.open_session_id is not None:
        sid = start.open_session_id
        (left,) = conn.execute(
            "SELECT COUNT(*) FROM (SELECT 1 FROM messages WHERE session_id = ? AND active = 1 AND id > ? "
            "LIMIT ?)",
            (sid, start.after_message_id, budget + 1),
        ).fetchone()
        if left > budget:
            cut = _nth_active_id(conn, sid, start.after_message_id, budget)
            return ChunkPlan(start, None, cut, ExportCursor(sid, sid, cut))
        budget -= left
        after = sid
    page_end, ids = _page(conn, flt, after, max_sessions)
    if page_end is None:
        return ChunkPlan(start, None, None, None)
    counts = _active_counts(conn, ids) if ids else {}
    allowed = max(budget, 1)
    used = 0
    for i, sid in enumerate(ids):
        count = counts.get(sid, 0)
        if used + count > allowed:
            take = allowed - used
            if take == 0:  # the sessions before this one fill the chunk exactly
                return ChunkPlan(start, ids[i - 1], None, ExportCursor(ids[i - 1]))
            cut = _nth_active_id(conn, sid, 0, take)
            return ChunkPlan(start, sid, cut, ExportCursor(sid, sid, cut))
        used += count
    return ChunkPlan(start, page_end, None, ExportCursor(page_end))


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


def _python_encoded(conn: sqlite3.Connection, ids: list[int]) -> dict[int, bytes]:
    """Message id → its JSON object, encoded the Python way (rows SQLite did not render)."""
    out: dict[int, bytes] = {}
    for start in range(0, len(ids), 500):
        batch = ids[start : start + 500]
        cur = conn.cursor()
        cur.row_factory = None
        cur.execute(f"SELECT * FROM messages WHERE id IN ({','.join('?' * len(batch))})", batch)
        cols = [d[0] for d in cur.description]
        for msg in _decode_messages(cols, cur.fetchall()):
            out[msg["id"]] = orjson.dumps(msg)
    return out


class _Messages:
    """Active messages in (session id, id) order, each already encoded as a JSON object.

    ``floats`` holds, in row order, the values of the float columns the SQL rendering left as markers.
    """

    def __init__(
        self,
        conn: sqlite3.Connection,
        render: MessageRender | None,
        where: str,
        params: list[Any],
        limit: int = -1,
    ) -> None:
        cur = conn.cursor()
        cur.row_factory = None
        self.floats: list[Any] = []
        order = "ORDER BY session_id, id LIMIT ?"
        if render is None:
            cur.execute(f"SELECT * FROM messages WHERE {where} {order}", [*params, limit])
            cols = [d[0] for d in cur.description]
            sid_at, id_at = cols.index("session_id"), cols.index("id")
            rows = cur.fetchall()
            self.session_ids = [r[sid_at] for r in rows]
            self.last_id: int | None = rows[-1][id_at] if rows else None
            self.encoded = [orjson.dumps(m) for m in _decode_messages(cols, rows)]
            return
        cur.execute(f"SELECT {render.select} FROM messages WHERE {where} {order}", [*params, limit])
        rows = cur.fetchall()
        self.session_ids = [r[0] for r in rows]
        self.last_id = rows[-1][1] if rows else None
        self.encoded = [r[2] for r in rows]
        missing = [i for i, data in enumerate(self.encoded) if data is None]
        if missing:
            fallback = _python_encoded(conn, [rows[i][1] for i in missing])
            for i in missing:
                self.encoded[i] = fallback[rows[i][1]]
            rows = [r for r in rows if r[2] is not None]
        if render.float_columns == 1:
            self.floats = [r[3] for r in rows]
        elif render.float_columns:
            take = itemgetter(*range(3, 3 + render.float_columns))
            self.floats = [v for r in rows for v in take(r)]

    def joined(self, session_id: str | None = None) -> bytes:
        """One session's rows (all rows when ``None``) as comma-separated JSON objects."""
        if session_id is None:
            return b",".join(self.encoded)
        start = bisect.bisect_left(self.session_ids, session_id)
        end = bisect.bisect_right(self.session_ids, session_id, lo=start)
        return b",".join(self.encoded[start:end])


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


@dataclass(frozen=True)
class RenderedChunk:
    """A rendered chunk in two parts: ``continuation`` finishes the line the previous chunk left open and
    ``body`` holds the chunk's own sessions. ``open_after`` is whether a line whose head was written is
    still open at the end (``None``: unchanged, the chunk only continued the open line).

    Each chunk reads its own snapshot, so a session cut between two chunks may exist in only one of them
    (deleted, or deleted and imported again, in between); :func:`join_chunk` then drops a continuation whose
    head was never written, so every line stays whole.
    """

    continuation: bytes
    body: bytes
    open_after: bool | None


def join_chunk(line_open: bool, chunk: RenderedChunk) -> tuple[bytes, bool]:
    """The bytes to send for ``chunk`` after chunks that left a written line open (``line_open``), and
    whether one is open after it."""
    data = chunk.continuation + chunk.body if line_open else chunk.body
    return data, line_open if chunk.open_after is None else chunk.open_after


def render_chunk(
    conn: sqlite3.Connection, flt: ExportFilter, plan: ChunkPlan, *, sql_render: bool = True
) -> RenderedChunk:
    """The bytes of one planned chunk. ``sql_render=False`` encodes every row in Python (the reference the
    SQL rendering must equal, and the fallback when a stored value collides with its float marker)."""
    render = message_render(conn) if sql_render else None
    head: list[bytes] = []
    head_floats: list[Any] = []
    after = plan.start.after_session_id
    open_after: bool | None = False
    if plan.start.open_session_id is not None:
        sid = plan.start.open_session_id
        cut = plan.cut_message_id if plan.upto_session_id is None else None
        where = "session_id = ? AND active = 1 AND id > ?" + (" AND id <= ?" if cut is not None else "")
        params: list[Any] = [sid, plan.start.after_message_id] + ([cut] if cut is not None else [])
        msgs = _Messages(conn, render, where, params)
        head_floats = msgs.floats
        if msgs.encoded:
            head += (b",", msgs.joined())
        if cut is None:
            head.append(b"]}\n")
        else:
            open_after = None
        after = sid
    parts: list[bytes] = []
    floats: list[Any] = []
    if plan.upto_session_id is not None:
        cut_head = _render_sessions(conn, render, flt, after, plan, parts, floats)
        open_after = cut_head if plan.cut_message_id is not None else False
    continuation, body = b"".join(head), b"".join(parts)
    if render is None:
        return RenderedChunk(continuation, body, open_after)
    filled_continuation = fill_floats(continuation, head_floats)
    filled_body = fill_floats(body, floats)
    if filled_continuation is None or filled_body is None:
        return render_chunk(conn, flt, plan, sql_render=False)
    return RenderedChunk(filled_continuation, filled_body, open_after)


def _python_heads(conn: sqlite3.Connection, where: str, params: list[Any]) -> dict[str, bytes]:
    cur = conn.cursor()
    cur.row_factory = None
    cur.execute(f"SELECT s.*, {_LAST_ACTIVE} AS last_active FROM sessions s WHERE {where}", params)
    cols = [d[0] for d in cur.description]
    id_at = cols.index("id")
    return {row[id_at]: orjson.dumps(dict(zip(cols, row, strict=True))) for row in cur.fetchall()}


def _session_heads(
    conn: sqlite3.Connection, sql_render: bool, flt: ExportFilter, after: str, upto: str
) -> tuple[list[str], list[bytes]]:
    """Ids and line heads (every column and ``last_active``, without the closing brace) of the sessions
    with ``after < id <= upto`` that pass the filter, in id order."""
    where, params = _where(flt, since=True)
    where = f"s.id > ? AND s.id <= ?{where}"
    params = [after, upto, *params]
    render = session_render(conn, _LAST_ACTIVE) if sql_render else None
    if render is None:
        python = _python_heads(conn, where + " ORDER BY s.id", params)
        return list(python), [head[:-1] for head in python.values()]
    cur = conn.cursor()
    cur.row_factory = None
    cur.execute(f"SELECT {render.select} FROM sessions s WHERE {where} ORDER BY s.id", params)
    rows = cur.fetchall()
    sids = [r[0] for r in rows]
    encoded: list[bytes] = [r[1] for r in rows]
    missing = [i for i, data in enumerate(encoded) if data is None]
    if missing:
        marks = ",".join("?" * len(missing))
        python = _python_heads(conn, f"s.id IN ({marks})", [sids[i] for i in missing])
        for i in missing:
            encoded[i] = python[sids[i]]
    floats = [v for r in rows if r[1] is not None for v in r[2:]]
    # One fill for the page: a JSON object never holds a raw newline, so the heads split back apart.
    filled = fill_floats(b"\n".join(encoded), floats)
    if filled is None:  # a stored value equals the float marker
        python = _python_heads(conn, where + " ORDER BY s.id", params)
        return list(python), [head[:-1] for head in python.values()]
    return sids, [head[:-1] for head in filled.split(b"\n")]


def _render_sessions(
    conn: sqlite3.Connection,
    render: MessageRender | None,
    flt: ExportFilter,
    after: str,
    plan: ChunkPlan,
    parts: list[bytes],
    floats: list[Any],
) -> bool:
    """Append the sessions of the plan; True when the session the plan cuts (``upto``) was written."""
    assert plan.upto_session_id is not None
    upto = plan.upto_session_id
    sids, heads = _session_heads(conn, render is not None, flt, after, upto)
    if not sids:
        return False
    msg_where = f"session_id IN ({','.join('?' * len(sids))}) AND active = 1"
    msg_params: list[Any] = list(sids)
    if plan.cut_message_id is not None:
        msg_where += " AND (session_id != ? OR id <= ?)"
        msg_params += [upto, plan.cut_message_id]
    msgs = _Messages(conn, render, msg_where, msg_params)
    floats += msgs.floats
    for head, sid in zip(heads, sids, strict=True):
        parts += (head, b',"messages":[', msgs.joined(sid))
        if not (sid == upto and plan.cut_message_id is not None):
            parts.append(b"]}\n")
    return sids[-1] == upto


# -- one logical session (a compression lineage) ------------------------------------------------------


def session_rows(conn: sqlite3.Connection, session_ids: list[str]) -> list[dict[str, Any]]:
    """Every column of these sessions (the agent's ``get_session``) in the order given; missing: left out."""
    cur = conn.cursor()
    cur.row_factory = None
    cur.execute(f"SELECT * FROM sessions WHERE id IN ({','.join('?' * len(session_ids))})", session_ids)
    cols = [d[0] for d in cur.description]
    found = {(d := dict(zip(cols, row, strict=True)))["id"]: d for row in cur.fetchall()}
    return [found[sid] for sid in session_ids if sid in found]


def active_message_counts(conn: sqlite3.Connection, session_ids: list[str]) -> dict[str, int]:
    """Active messages per session (sessions without any are left out)."""
    return _active_counts(conn, session_ids) if session_ids else {}


def message_page(
    conn: sqlite3.Connection, session_id: str, after_id: int, limit: int, *, sql_render: bool = True
) -> tuple[bytes, int | None]:
    """Up to ``limit`` active messages of a session after ``after_id``, as comma-separated JSON objects, and
    the last id read (``None``: nothing left)."""
    render = message_render(conn) if sql_render else None
    msgs = _Messages(conn, render, "session_id = ? AND active = 1 AND id > ?", [session_id, after_id], limit)
    data = msgs.joined()
    if render is None:
        return data, msgs.last_id
    filled = fill_floats(data, msgs.floats)
    if filled is None:
        return message_page(conn, session_id, after_id, limit, sql_render=False)
    return filled, msgs.last_id
