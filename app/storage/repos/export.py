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
from collections.abc import Iterator
from operator import itemgetter
from typing import Any

import orjson

from app.domain.agent_rows import CONTENT_JSON_PREFIX
from app.domain.stored_json import is_unrenderable, load_stored, may_be_unrenderable, minified
from app.storage.dialect import Dialect, dialect_of
from app.storage.repos.export_render import RenderSelect, fill_floats, message_render, session_render
from app.storage.repos.repository import Repository
from app.storage.repos.session_filter import LAST_ACTIVE_SQL, filter_clauses
from app.storage.rows import (
    LINE_CLOSED,
    LINE_EMPTY,
    LINE_OPEN,
    ChunkPlan,
    ExportCursor,
    ExportFilter,
    MessageJsonPage,
    RenderedChunk,
    Skipped,
)
from app.storage.sqlite.driver import sqlite3

# last_active is the listing extra the agent's export_all carries (latest message, else started_at).
LAST_ACTIVE = LAST_ACTIVE_SQL.format(a="s")


def filter_where(d: Dialect, flt: ExportFilter, *, since: bool) -> tuple[str, list[Any]]:
    """`` AND ...`` clauses (alias ``s``) selecting the sessions of ``flt``; ``since=False`` leaves the
    ``since`` test to the caller."""
    clauses, params = filter_clauses(d, flt.filter)
    if flt.status != "all":
        clauses.append(f"s.ended_at IS {'' if flt.status == 'active' else 'NOT '}NULL")
    for column, value in (("source", flt.source), ("id", flt.session_id)):
        if value is not None:
            clauses.append(f"s.{column} = {d.p}")
            params.append(value)
    if since and flt.since is not None:
        clauses.append(f"({LAST_ACTIVE} >= {d.p} OR s.started_at >= {d.p})")
        params.extend([flt.since, flt.since])
    return "".join(f" AND {c}" for c in clauses), params


def _page(
    conn: sqlite3.Connection, flt: ExportFilter, after_id: str, limit: int
) -> tuple[str | None, list[str]]:
    """The next page of ``limit`` sessions by id: its last id (``None``: no more sessions) and the ids in it
    that pass ``since``. Paged before the ``since`` filter, so a page may be all filtered out."""
    d = dialect_of(conn)
    where, params = filter_where(dialect_of(conn), flt, since=False)
    passes, since_params = "1", []
    if flt.since is not None:
        passes, since_params = f"({LAST_ACTIVE} >= {d.p} OR s.started_at >= {d.p})", [flt.since, flt.since]
    rows = conn.execute(
        f"SELECT s.id, {passes} FROM sessions s WHERE s.id > {d.p}{where} ORDER BY s.id LIMIT {d.p}",
        [*since_params, after_id, *params, limit],
    ).fetchall()
    if not rows:
        return None, []
    return rows[-1][0], [r[0] for r in rows if r[1]]


def _active_counts(conn: sqlite3.Connection, session_ids: list[str]) -> dict[str, int]:
    # Served from the covering index idx_messages_session_active (session_id, active, ...): no row reads.
    d = dialect_of(conn)
    marks = ",".join([d.p] * len(session_ids))
    rows = conn.execute(
        f"SELECT session_id, COUNT(*) FROM messages WHERE session_id IN ({marks}) AND active = 1 GROUP BY"
        " session_id",
        session_ids,
    )
    return dict(rows.fetchall())


def _nth_active_id(conn: sqlite3.Connection, session_id: str, after_id: int, n: int) -> int:
    """Id of the ``n``-th active message of a session after ``after_id`` (n >= 1)."""
    d = dialect_of(conn)
    row = conn.execute(
        f"SELECT id FROM messages WHERE session_id = {d.p} AND active = 1 AND id > {d.p} ORDER BY id LIMIT 1"
        f" OFFSET {d.p}",
        (session_id, after_id, n - 1),
    ).fetchone()
    return int(row[0])


BINARY_VALUE = "binary_value"
INVALID_UTF8 = "invalid_utf8"


class _BadText(bytes):
    """The bytes of a TEXT value that are not UTF-8 (see :func:`read_rows`)."""


def _lenient_text(data: bytes) -> str | bytes:
    try:
        return data.decode()
    except UnicodeDecodeError:
        return _BadText(data)


def _is_decode_error(exc: sqlite3.Error) -> bool:
    return "Could not decode to UTF-8" in str(exc)


def read_rows(
    conn: sqlite3.Connection, sql: str, params: list[Any]
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Column names and plain tuple rows. TEXT that is not UTF-8 makes the sqlite3 module fail the whole
    fetch: only then the rows are read again with such values kept as :class:`_BadText`."""
    cur = conn.cursor()
    cur.row_factory = None
    try:
        rows = cur.execute(sql, params).fetchall()
    except sqlite3.OperationalError as exc:
        if not _is_decode_error(exc):
            raise
        previous = conn.text_factory
        conn.text_factory = _lenient_text
        try:
            cur = conn.cursor()
            cur.row_factory = None
            rows = cur.execute(sql, params).fetchall()
        finally:
            conn.text_factory = previous
    return [d[0] for d in cur.description], rows


def _unwritable(row: dict[str, Any]) -> tuple[str, str] | None:
    """The first column (and why) whose value no JSON text can hold as it is stored."""
    for column, value in row.items():
        if isinstance(value, bytes):
            return column, INVALID_UTF8 if isinstance(value, _BadText) else BINARY_VALUE
    return None


_AS_STORED = object()


def _stored_json(text: str) -> Any:
    """``text`` decoded the way the agent's ``json.loads`` does, or ``_AS_STORED`` when the value cannot be
    written as JSON that importers read back unchanged (too deep, integers beyond 64 bits, lone
    surrogates): the export then writes the stored text itself, as a string. Raises ``ValueError`` when
    ``text`` is not JSON."""
    if may_be_unrenderable(text):
        value = load_stored(text)
        return _AS_STORED if is_unrenderable(value) else value
    return orjson.loads(text)


def decode_message(msg: dict[str, Any]) -> None:
    # Mirrors SessionDB.get_messages: content un-prefixed and decoded (kept as stored when it cannot be),
    # tool_calls decoded ([] when not JSON, as the agent; the stored text when it cannot be written).
    _decode_content(msg)
    tool_calls = msg.get("tool_calls")
    if tool_calls:
        msg["tool_calls"] = _decoded_tool_calls(tool_calls)


def _decode_content(msg: dict[str, Any]) -> None:
    content = msg.get("content")
    if isinstance(content, str) and content.startswith(CONTENT_JSON_PREFIX):
        with contextlib.suppress(ValueError):
            value = _stored_json(content[len(CONTENT_JSON_PREFIX) :])
            if value is not _AS_STORED:
                msg["content"] = value


def _decoded_tool_calls(tool_calls: Any) -> Any:
    try:
        value = _stored_json(tool_calls) if isinstance(tool_calls, str) else []
    except ValueError:
        value = []
    return tool_calls if value is _AS_STORED else value


def _tool_calls_as_stored(text: str) -> orjson.Fragment | None:
    """Stored ``tool_calls`` text to copy into an export line as it is stored, minified: what SQLite's
    ``json()`` writes for the rows ``export_render`` renders, so a line's numbers keep their stored form
    (``5e-05``, ``1.0``) whichever path, or backend, wrote it. ``None`` for text that the rendered path
    does not copy either (not JSON, ``\\u`` or ``\\/`` escapes, values that may be unrenderable)."""
    if "\\u" in text or "\\/" in text or may_be_unrenderable(text):
        return None
    try:
        orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    return orjson.Fragment(minified(text))


def _encode_messages(
    cols: list[str], rows: list[tuple[Any, ...]], skipped: list[Skipped]
) -> list[bytes | None]:
    """Each row's JSON object (``None``, and an entry in ``skipped``, for a row that cannot be written)."""
    out: list[bytes | None] = []
    for row in rows:
        msg = dict(zip(cols, row, strict=True))
        bad = _unwritable(msg)
        if bad is not None:
            skipped.append(Skipped(str(msg["session_id"]), int(msg["id"]), *bad))
            out.append(None)
            continue
        _decode_content(msg)
        tool_calls = msg.get("tool_calls")
        if tool_calls:
            as_stored = _tool_calls_as_stored(tool_calls) if isinstance(tool_calls, str) else None
            msg["tool_calls"] = _decoded_tool_calls(tool_calls) if as_stored is None else as_stored
        out.append(orjson.dumps(msg))
    return out


def _python_encoded(
    conn: sqlite3.Connection, ids: list[int], skipped: list[Skipped]
) -> dict[int, bytes | None]:
    """Message id → its JSON object, encoded the Python way (rows SQLite did not render)."""
    out: dict[int, bytes | None] = {}
    p = dialect_of(conn).p
    for start in range(0, len(ids), 500):
        batch = ids[start : start + 500]
        cols, rows = read_rows(
            conn, f"SELECT * FROM messages WHERE id IN ({','.join([p] * len(batch))})", batch
        )
        id_at = cols.index("id")
        for row, data in zip(rows, _encode_messages(cols, rows, skipped), strict=True):
            out[row[id_at]] = data
    return out


def _is_render_error(exc: sqlite3.Error) -> bool:
    # json_object refuses a BLOB argument; the Python path then reports that row alone.
    return "JSON cannot hold BLOB values" in str(exc) or _is_decode_error(exc)


def _rendered_rows(conn: sqlite3.Connection, sql: str, params: list[Any]) -> list[tuple[Any, ...]] | None:
    """The rows of a SQL-rendering query, or ``None`` when SQLite refused to render one of them (the
    caller then encodes the rows in Python)."""
    cur = conn.cursor()
    cur.row_factory = None
    try:
        return cur.execute(sql, params).fetchall()
    except sqlite3.OperationalError as exc:
        if not _is_render_error(exc):
            raise
        return None


def _is_utf8(data: bytes) -> bool:
    # SQLite copies TEXT bytes into json_object unchecked; a line must be UTF-8 for any importer to read it.
    if data.isascii():
        return True
    try:
        data.decode()
    except UnicodeDecodeError:
        return False
    return True


class _Messages:
    """Active messages in (session id, id) order, each already encoded as a JSON object.

    ``floats`` holds, in row order, the values of the float columns the SQL rendering left as markers;
    ``skipped`` the rows that could not be written (left out of ``encoded``; ``last_id`` still counts them).
    """

    def __init__(
        self,
        conn: sqlite3.Connection,
        render: RenderSelect | None,
        where: str,
        params: list[Any],
        limit: int = -1,
    ) -> None:
        d = dialect_of(conn)
        self.floats: list[Any] = []
        self.skipped: list[Skipped] = []
        # No LIMIT clause for "all": PostgreSQL refuses SQLite's LIMIT -1.
        order, params = (
            ("ORDER BY session_id, id", params)
            if limit < 0
            else (f"ORDER BY session_id, id LIMIT {d.p}", [*params, limit])
        )
        rows: list[tuple[Any, ...]] | None = None
        if render is not None:
            rows = _rendered_rows(conn, f"SELECT {render.select} FROM messages WHERE {where} {order}", params)
        if render is None or rows is None:
            cols, rows = read_rows(conn, f"SELECT * FROM messages WHERE {where} {order}", params)
            sid_at, id_at = cols.index("session_id"), cols.index("id")
            self.last_id: int | None = rows[-1][id_at] if rows else None
            encoded = _encode_messages(cols, rows, self.skipped)
            kept = [(row[sid_at], data) for row, data in zip(rows, encoded, strict=True) if data is not None]
            self.session_ids: list[str] = [sid for sid, _ in kept]
            self.encoded: list[bytes] = [data for _, data in kept]
            return
        self.last_id = rows[-1][1] if rows else None
        missing = [i for i, row in enumerate(rows) if row[2] is None]
        if not missing:
            self.session_ids = [r[0] for r in rows]
            self.encoded = [r[2] for r in rows]
        else:
            fallback = _python_encoded(conn, [rows[i][1] for i in missing], self.skipped)
            pairs = [(r[0], r[2] if r[2] is not None else fallback[r[1]]) for r in rows]
            self.session_ids = [sid for sid, data in pairs if data is not None]
            self.encoded = [data for _, data in pairs if data is not None]
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


def _python_heads(
    conn: sqlite3.Connection, where: str, params: list[Any], skipped: list[Skipped]
) -> dict[str, bytes]:
    """Session id → its line head object, encoded the Python way; a session that cannot be written is
    left out and added to ``skipped``."""
    cols, rows = read_rows(
        conn, f"SELECT s.*, {LAST_ACTIVE} AS last_active FROM sessions s WHERE {where}", params
    )
    out: dict[str, bytes] = {}
    for row in rows:
        session = dict(zip(cols, row, strict=True))
        bad = _unwritable(session)
        if bad is None:
            out[session["id"]] = orjson.dumps(session)
        else:
            skipped.append(Skipped(str(session["id"]), None, *bad))
    return out


def _session_heads(
    conn: sqlite3.Connection,
    sql_render: bool,
    flt: ExportFilter,
    after: str,
    upto: str,
    skipped: list[Skipped],
) -> tuple[list[str], list[bytes]]:
    """Ids and line heads (every column and ``last_active``, without the closing brace) of the sessions
    with ``after < id <= upto`` that pass the filter and can be written, in id order."""
    d = dialect_of(conn)
    where, params = filter_where(dialect_of(conn), flt, since=True)
    where = f"s.id > {d.p} AND s.id <= {d.p}{where}"
    params = [after, upto, *params]
    render = session_render(conn, LAST_ACTIVE) if sql_render else None
    rows: list[tuple[Any, ...]] | None = None
    if render is not None:
        rows = _rendered_rows(
            conn, f"SELECT {render.select} FROM sessions s WHERE {where} ORDER BY s.id", params
        )
    if rows is None:
        python = _python_heads(conn, where + " ORDER BY s.id", params, skipped)
        return list(python), [head[:-1] for head in python.values()]
    if not rows:
        # An empty join splits back into one empty head, not none.
        return [], []
    sids = [r[0] for r in rows]
    encoded: list[bytes] = [r[1] for r in rows]
    missing = [i for i, data in enumerate(encoded) if data is None]
    left_out: list[Skipped] = []
    if missing:
        marks = ",".join([d.p] * len(missing))
        python = _python_heads(conn, f"s.id IN ({marks})", [sids[i] for i in missing], left_out)
        for i in missing:
            encoded[i] = python.get(sids[i], b"")  # empty: left out, dropped below
    floats = [v for r in rows if r[1] is not None for v in r[2:]]
    # One fill for the page: a JSON object never holds a raw newline, so the heads split back apart.
    filled = fill_floats(b"\n".join(encoded), floats)
    if filled is None:  # a stored value equals the float marker
        python = _python_heads(conn, where + " ORDER BY s.id", params, skipped)
        return list(python), [head[:-1] for head in python.values()]
    skipped += left_out
    pairs = [(sid, head) for sid, head in zip(sids, filled.split(b"\n"), strict=True) if head]
    return [sid for sid, _ in pairs], [head[:-1] for _, head in pairs]


def _render_sessions(
    conn: sqlite3.Connection,
    render: RenderSelect | None,
    flt: ExportFilter,
    after: str,
    plan: ChunkPlan,
    parts: list[bytes],
    floats: list[Any],
    skipped: list[Skipped],
) -> int:
    """Append the sessions of the plan; the line state they leave (open when the plan cuts ``upto``)."""
    d = dialect_of(conn)
    assert plan.upto_session_id is not None
    upto = plan.upto_session_id
    sids, heads = _session_heads(conn, render is not None, flt, after, upto, skipped)
    if not sids:
        return LINE_CLOSED
    msg_where = f"session_id IN ({','.join([d.p] * len(sids))}) AND active = 1"
    msg_params: list[Any] = list(sids)
    if plan.cut_message_id is not None:
        msg_where += f" AND (session_id != {d.p} OR id <= {d.p})"
        msg_params += [upto, plan.cut_message_id]
    msgs = _Messages(conn, render, msg_where, msg_params)
    floats += msgs.floats
    skipped += msgs.skipped
    for head, sid in zip(heads, sids, strict=True):
        written = msgs.joined(sid)
        parts += (head, b',"messages":[', written)
        if not (sid == upto and plan.cut_message_id is not None):
            parts.append(b"]}\n")
        elif not written:  # every message of the cut session in this chunk was left out
            return LINE_EMPTY
    return LINE_OPEN if sids[-1] == upto and plan.cut_message_id is not None else LINE_CLOSED


class ExportChunks(Repository):
    """The JSONL export: chunk plans and rendered chunks, one lineage's sessions and message pages."""

    __slots__ = ()

    def plan_chunk(
        self, flt: ExportFilter, start: ExportCursor, *, max_sessions: int, max_messages: int
    ) -> ChunkPlan:
        """Where the chunk beginning at ``start`` ends: at most ``max_sessions`` new sessions and (give or
        take the empty sessions) ``max_messages`` messages, a big session being cut into several chunks."""
        budget = max_messages
        after = start.after_session_id
        if start.open_session_id is not None:
            sid = start.open_session_id
            (left,) = self.conn.execute(
                f"SELECT COUNT(*) FROM (SELECT 1 FROM messages WHERE session_id = {self.d.p} AND active = 1"
                f" AND id > {self.d.p} "
                # named: PostgreSQL before 16 refuses a subquery without one
                f"LIMIT {self.d.p}) AS left_in_session",
                (sid, start.after_message_id, budget + 1),
            ).fetchone()
            if left > budget:
                cut = _nth_active_id(self.conn, sid, start.after_message_id, budget)
                return ChunkPlan(start, None, cut, ExportCursor(sid, sid, cut))
            budget -= left
            after = sid
        page_end, ids = _page(self.conn, flt, after, max_sessions)
        if page_end is None:
            return ChunkPlan(start, None, None, None)
        counts = _active_counts(self.conn, ids) if ids else {}
        allowed = max(budget, 1)
        used = 0
        for i, sid in enumerate(ids):
            count = counts.get(sid, 0)
            if used + count > allowed:
                take = allowed - used
                if take == 0:  # the sessions before this one fill the chunk exactly
                    return ChunkPlan(start, ids[i - 1], None, ExportCursor(ids[i - 1]))
                cut = _nth_active_id(self.conn, sid, 0, take)
                return ChunkPlan(start, sid, cut, ExportCursor(sid, sid, cut))
            used += count
        return ChunkPlan(start, page_end, None, ExportCursor(page_end))

    @contextlib.contextmanager
    def small_page_cache(self, kib: int = 2048) -> Iterator[None]:
        """Cap this connection's page cache while streaming: an export reads every page exactly once, so a big
        cache would only fill with pages never read again (the reader's usual cache returns afterwards)."""
        (previous,) = self.conn.execute("PRAGMA cache_size").fetchone()
        self.conn.execute(f"PRAGMA cache_size=-{int(kib)}")
        try:
            yield
        finally:
            self.conn.execute(f"PRAGMA cache_size={int(previous)}")

    def render_chunk(self, flt: ExportFilter, plan: ChunkPlan, *, sql_render: bool = True) -> RenderedChunk:
        """The bytes of one planned chunk. ``sql_render=False`` encodes every row in Python (the reference the
        SQL rendering must equal, and the fallback when a stored value collides with its float marker or holds
        bytes that are not UTF-8)."""
        render = message_render(self.conn) if sql_render else None
        continuation = b""
        closes = False
        head_floats: list[Any] = []
        head_skipped: list[Skipped] = []
        after = plan.start.after_session_id
        open_after: int | None = LINE_CLOSED
        if plan.start.open_session_id is not None:
            sid = plan.start.open_session_id
            cut = plan.cut_message_id if plan.upto_session_id is None else None
            where = f"session_id = {self.d.p} AND active = 1 AND id > {self.d.p}" + (
                f" AND id <= {self.d.p}" if cut is not None else ""
            )
            params: list[Any] = [sid, plan.start.after_message_id] + ([cut] if cut is not None else [])
            msgs = _Messages(self.conn, render, where, params)
            head_floats = msgs.floats
            head_skipped = msgs.skipped
            continuation = msgs.joined()
            closes = cut is None
            if not closes:
                open_after = None
            after = sid
        parts: list[bytes] = []
        floats: list[Any] = []
        skipped: list[Skipped] = []
        if plan.upto_session_id is not None:
            open_after = _render_sessions(self.conn, render, flt, after, plan, parts, floats, skipped)
        body = b"".join(parts)
        if render is None:
            return RenderedChunk(continuation, closes, body, open_after, tuple(head_skipped), tuple(skipped))
        filled_continuation = fill_floats(continuation, head_floats)
        filled_body = fill_floats(body, floats)
        if (
            filled_continuation is None
            or filled_body is None
            or not (_is_utf8(filled_continuation) and _is_utf8(filled_body))
        ):
            return self.render_chunk(flt, plan, sql_render=False)
        return RenderedChunk(
            filled_continuation, closes, filled_body, open_after, tuple(head_skipped), tuple(skipped)
        )

    # -- one logical session (a compression lineage) --------------------------------------------------

    def session_rows(self, session_ids: list[str]) -> list[dict[str, Any]]:
        """Every column of these sessions (the agent's ``get_session``) in the order given; missing: left
        out."""
        cur = self.conn.cursor()
        cur.row_factory = None
        marks = ",".join([self.d.p] * len(session_ids))
        cur.execute(f"SELECT * FROM sessions WHERE id IN ({marks})", session_ids)
        cols = [d[0] for d in cur.description]
        found = {(d := dict(zip(cols, row, strict=True)))["id"]: d for row in cur.fetchall()}
        return [found[sid] for sid in session_ids if sid in found]

    def active_message_counts(self, session_ids: list[str]) -> dict[str, int]:
        """Active messages per session (sessions without any are left out)."""
        return _active_counts(self.conn, session_ids) if session_ids else {}

    def message_page(
        self, session_id: str, after_id: int, limit: int, *, sql_render: bool = True
    ) -> MessageJsonPage:
        """Up to ``limit`` active messages of a session after ``after_id``."""
        render = message_render(self.conn) if sql_render else None
        msgs = _Messages(
            self.conn,
            render,
            f"session_id = {self.d.p} AND active = 1 AND id > {self.d.p}",
            [session_id, after_id],
            limit,
        )
        data = msgs.joined()
        if render is None:
            return MessageJsonPage(data, msgs.last_id, tuple(msgs.skipped))
        filled = fill_floats(data, msgs.floats)
        if filled is None or not _is_utf8(filled):
            return self.message_page(session_id, after_id, limit, sql_render=False)
        return MessageJsonPage(filled, msgs.last_id, tuple(msgs.skipped))
