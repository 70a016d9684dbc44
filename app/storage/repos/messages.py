"""Message rows in the agent's ``messages`` table: insert (with counters), page, window, fetch, rewind.

Rows are written exactly as ``SessionDB._insert_message_rows`` writes them (list/dict content behind the
``\\x00json:`` prefix, ``tool_calls`` / ``reasoning_details`` as ``json.dumps`` text, reasoning only on
assistant rows, ``active = 1``, float timestamps strictly increasing within a batch), so the agent reads
and rewrites them unchanged.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from app.domain.messages import (
    assistant_text,
    batch_timestamps,
    decode_content,
    decode_json_column,
    encode_content,
    tool_call_count,
)
from app.storage.agent_shape import shape_of
from app.storage.dialect import Dialect, dialect_of
from app.storage.repos.attachments import Attachments
from app.storage.repos.repository import Repository
from app.storage.repos.usage import saturating_add_sql
from app.storage.rows import AttachmentRef, MessageQuery, MessageRow
from app.storage.sqlite.driver import sqlite3

COLUMNS = (
    "id, session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp, token_count, "
    "finish_reason, reasoning, reasoning_content, reasoning_details, active, compacted"
)

INSERT_COLUMNS = (
    "session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp, token_count, finish_reason,"
    " reasoning, reasoning_content, reasoning_details"
)
"""The columns an append writes (``active`` is always 1), in the order of a :data:`RowWriter`'s values."""


@cache
def _insert_sql(d: Dialect) -> str:
    marks = ", ".join([d.p] * 12)
    return f"INSERT INTO messages ({INSERT_COLUMNS}, active) VALUES ({marks}, 1)"


# Saturating, like every counter: past int64 SQLite would turn the agent's INTEGER column into a REAL.
@cache
def counters_sql(d: Dialect) -> str:
    """The UPDATE adding ``:n`` messages and ``:calls`` tool calls to session ``:id``."""
    return (
        f"UPDATE sessions SET message_count = {saturating_add_sql(d, 'message_count', 'n')},"
        f" tool_call_count = {saturating_add_sql(d, 'tool_call_count', 'calls')} WHERE id = {d.named('id')}"
    )


# A newer agent's heartbeat column: it only ever moves forward, and its recent list is preselected by it.
@cache
def _counters_and_activity_sql(d: Dialect) -> str:
    return counters_sql(d).replace(
        " WHERE id", f", last_activity_at = MAX(COALESCE(last_activity_at, 0), {d.named('ts')}) WHERE id"
    )


_TIMESTAMP = INSERT_COLUMNS.split(", ").index("timestamp") - 1


RowWriter = Callable[[sqlite3.Connection, str, list[tuple[Any, ...]], int], list[int]]
"""Writes a batch's rows (the values of ``INSERT_COLUMNS`` after ``session_id``, in order) and bumps the
session's counters by the rows and the tool calls given; the new ids, in the rows' order."""


def write_rows(
    conn: sqlite3.Connection, session_id: str, rows: list[tuple[Any, ...]], calls: int
) -> list[int]:
    """The :data:`RowWriter` of SQLite: one INSERT per row (in-process, a statement costs microseconds)."""
    d = dialect_of(conn)
    ids: list[int] = []
    insert = _insert_sql(d)
    for values in rows:
        message_id = conn.execute(insert, (session_id, *values)).lastrowid
        assert message_id is not None  # an INSERT always sets it
        ids.append(message_id)
    counts = {"n": len(rows), "calls": calls, "id": session_id}
    if rows and shape_of(conn).has_session_column("last_activity_at"):
        latest = max(float(values[_TIMESTAMP]) for values in rows)
        conn.execute(_counters_and_activity_sql(d), {**counts, "ts": latest})
    else:
        conn.execute(counters_sql(d), counts)
    return ids


@dataclass
class PreparedAppend:
    """An append's rows before they are written: the values of ``INSERT_COLUMNS`` after ``session_id``, in
    order, the public messages they become (ids still 0), and the tool calls the counters gain."""

    rows: list[tuple[Any, ...]]
    stored: list[MessageRow]
    tool_calls: int


def prepare_append(session_id: str, messages: list[dict[str, Any]]) -> PreparedAppend:
    """The rows :meth:`insert_messages` writes for ``messages`` (timestamps drawn now), attachments aside."""
    stamps = batch_timestamps([m.get("timestamp") for m in messages], time.time())
    stored: list[MessageRow] = []
    rows: list[tuple[Any, ...]] = []
    for message, ts in zip(messages, stamps, strict=True):
        role = message["role"]
        content = message.get("content")
        tool_calls = message.get("tool_calls") or None
        reasoning = assistant_text(role, message.get("reasoning"))
        reasoning_content = assistant_text(role, message.get("reasoning_content"))
        details = message.get("reasoning_details") if role == "assistant" else None
        details = details or None
        rows.append(
            (
                role,
                encode_content(content),
                message.get("tool_call_id"),
                None if tool_calls is None else json.dumps(tool_calls),
                message.get("tool_name"),
                # REAL in the agent's schema (SQLite stores an integer there as a real anyway); one type per
                # column also lets a backend send the batch's values as one typed array.
                float(ts),
                message.get("token_count"),
                message.get("finish_reason"),
                reasoning,
                reasoning_content,
                None if details is None else json.dumps(details),
            )
        )
        stored.append(
            {
                "id": 0,
                "session_id": session_id,
                "role": role,
                "content": content,
                "tool_call_id": message.get("tool_call_id"),
                "tool_calls": tool_calls,
                "tool_name": message.get("tool_name"),
                "timestamp": ts,
                "token_count": message.get("token_count"),
                "finish_reason": message.get("finish_reason"),
                "reasoning": reasoning,
                "reasoning_content": reasoning_content,
                "reasoning_details": details,
                "attachments": [],
                "active": True,
                "compacted": False,
            }
        )
    return PreparedAppend(rows, stored, sum(tool_call_count(m) for m in messages))


def row_to_message(row: sqlite3.Row, attachments: list[AttachmentRef] | None = None) -> MessageRow:
    """The public message of a stored row: content and JSON columns decoded, flags as booleans."""
    return {
        "id": row["id"],
        "session_id": row["session_id"],
        "role": row["role"],
        "content": decode_content(row["content"]),
        "tool_call_id": row["tool_call_id"],
        "tool_calls": decode_json_column(row["tool_calls"], fallback=[]),
        "tool_name": row["tool_name"],
        "timestamp": row["timestamp"],
        "token_count": row["token_count"],
        "finish_reason": row["finish_reason"],
        "reasoning": row["reasoning"] or None,
        "reasoning_content": row["reasoning_content"] or None,
        "reasoning_details": decode_json_column(row["reasoning_details"]),
        "attachments": attachments or [],
        "active": bool(row["active"]),
        "compacted": bool(row["compacted"]),
    }


def _filters(d: Dialect, roles: Sequence[str], include_inactive: bool) -> tuple[str, list[Any]]:
    sql = "" if include_inactive else " AND active = 1"
    params: list[Any] = []
    if roles:
        sql += f" AND role IN ({','.join([d.p] * len(roles))})"
        params.extend(roles)
    return sql, params


class Messages(Repository):
    """A session's messages: append, pages, windows, rewind and the counters kept on the session."""

    __slots__ = ()

    def insert_messages(
        self,
        session_id: str,
        messages: list[dict[str, Any]],
        *,
        write: RowWriter = write_rows,
    ) -> list[MessageRow]:
        """Append ``messages`` to an existing session inside the caller's transaction; the stored messages.

        Each message is a dict with ``role`` and optionally ``content`` (text, or a list/dict of multimodal
        parts), ``tool_call_id``, ``tool_calls`` (list), ``tool_name``, ``timestamp`` (float epoch; default
        now, kept strictly increasing across the batch), ``token_count``, ``finish_reason``, ``reasoning``,
        ``reasoning_content``, ``reasoning_details`` (the last three assistant-only, empty values not stored)
        and ``attachments`` (attachment ids; 422 ``unknown_attachment`` when one does not exist).

        Bumps ``sessions.message_count`` by the number of rows and ``tool_call_count`` by the tool calls of
        assistant rows. Text must already be validated (no NUL, no lone surrogate). The returned dicts have
        the public message shape (see :func:`row_to_message`), built from the values written, in order.
        ``write`` stores the rows (a backend where each statement is a round trip writes them in one);
        ``changes`` is the record the session goes in (see :mod:`app.storage.commit_notice`).
        """
        wanted = [a for m in messages for a in (m.get("attachments") or ())]
        # Most appends link nothing: the attachments repository is built only for those that do.
        attachments = Attachments(self.conn, self.changes) if wanted else None
        refs = attachments.refs_for_ids(wanted) if attachments is not None else {}
        prepared = prepare_append(session_id, messages)
        ids = write(self.conn, session_id, prepared.rows, prepared.tool_calls)
        for message, row, message_id in zip(messages, prepared.stored, ids, strict=True):
            row["id"] = message_id
            if attachments is None:
                continue
            linked = list(dict.fromkeys(message.get("attachments") or ()))
            if linked:
                attachments.link(message_id, linked)
                row["attachments"] = [refs[a] for a in linked]
        if prepared.stored:
            self.changes.note_messages(session_id)
        return prepared.stored

    def append_if_open(
        self,
        session_id: str,
        messages: list[dict[str, Any]],
        *,
        write: RowWriter = write_rows,
    ) -> list[MessageRow] | None:
        """:meth:`insert_messages` when the session exists and has not ended; ``None`` (nothing written)
        otherwise."""
        exists, ended = self.session_end_state(session_id)
        if not exists or ended:
            return None
        return self.insert_messages(session_id, messages, write=write)

    def to_messages(self, rows: Sequence[sqlite3.Row]) -> list[MessageRow]:
        """Public messages of ``rows`` with their attachment refs (one extra query for the whole page)."""
        refs = Attachments(self.conn, self.changes).refs_for_messages([row["id"] for row in rows])
        return [row_to_message(row, refs.get(row["id"])) for row in rows]

    def page(self, query: MessageQuery) -> list[sqlite3.Row]:
        """Up to ``limit + 1`` rows of the query in id order: after ``after``, or the newest ones before
        ``before``, or from the start. The extra row tells the caller there is more (in the paging
        direction)."""
        session_id, limit, after, before = query.session_id, query.limit, query.after, query.before
        where, params = _filters(self.d, query.roles, query.include_inactive)
        if before is not None:
            rows = self.conn.execute(
                f"SELECT {COLUMNS} FROM messages WHERE session_id = {self.d.p} AND id < {self.d.p}{where}"
                f" ORDER BY id DESC LIMIT {self.d.p}",
                [session_id, before, *params, limit + 1],
            ).fetchall()
            rows.reverse()
            return rows
        return self.conn.execute(
            f"SELECT {COLUMNS} FROM messages WHERE session_id = {self.d.p} AND id > {self.d.p}{where}"
            f" ORDER BY id LIMIT {self.d.p}",
            [session_id, after or 0, *params, limit + 1],
        ).fetchall()

    def around(
        self, query: MessageQuery, anchor_id: int
    ) -> tuple[list[sqlite3.Row], sqlite3.Row, list[sqlite3.Row]] | None:
        """``query.window`` rows before the anchor, the anchor, ``query.window`` rows after (like the agent's
        ``get_messages_around``); the query's filters apply to the neighbours, the anchor is always kept.
        ``None`` when the anchor is not a message of the session."""
        session_id, window = query.session_id, query.window
        anchor = self.fetch(session_id, anchor_id)
        if anchor is None:
            return None
        where, params = _filters(self.d, query.roles, query.include_inactive)
        before = self.conn.execute(
            f"SELECT {COLUMNS} FROM messages WHERE session_id = {self.d.p} AND id < {self.d.p}{where}"
            f" ORDER BY id DESC LIMIT {self.d.p}",
            [session_id, anchor_id, *params, window],
        ).fetchall()
        before.reverse()
        after = self.conn.execute(
            f"SELECT {COLUMNS} FROM messages WHERE session_id = {self.d.p} AND id > {self.d.p}{where}"
            f" ORDER BY id LIMIT {self.d.p}",
            [session_id, anchor_id, *params, window],
        ).fetchall()
        return before, anchor, after

    def fetch(self, session_id: str, message_id: int) -> sqlite3.Row | None:
        """One message row of a session (active or not), or ``None``."""
        row: sqlite3.Row | None = self.conn.execute(
            f"SELECT {COLUMNS} FROM messages WHERE id = {self.d.p} AND session_id = {self.d.p}",
            (message_id, session_id),
        ).fetchone()
        return row

    def rewind(self, session_id: str, target_id: int) -> tuple[int, int | None]:
        """Deactivate the target and every later active message of the session and bump ``rewind_count``,
        as ``SessionDB.rewind_to_message`` does (``message_count`` is left alone, like the agent). Returns
        ``(rewound_count, new_head_id)``; the caller has checked that the target is a user message."""
        cursor = self.conn.execute(
            f"UPDATE messages SET active = 0 WHERE session_id = {self.d.p} AND id >= {self.d.p}"
            " AND active = 1",
            (session_id, target_id),
        )
        self.conn.execute(
            f"UPDATE sessions SET rewind_count = {saturating_add_sql(self.d, 'rewind_count', 'one')}"
            f" WHERE id = {self.d.named('id')}",
            {"one": 1, "id": session_id},
        )
        head = self.conn.execute(
            f"SELECT MAX(id) FROM messages WHERE session_id = {self.d.p} AND active = 1", (session_id,)
        ).fetchone()
        return cursor.rowcount, head[0]

    def session_end_state(self, session_id: str) -> tuple[bool, bool]:
        """``(exists, ended)`` for a session, in one indexed lookup (the append hot path)."""
        row = self.conn.execute(
            f"SELECT ended_at FROM sessions WHERE id = {self.d.p}", (session_id,)
        ).fetchone()
        return (False, False) if row is None else (True, row[0] is not None)

    def session_counters(self, session_id: str) -> dict[str, int]:
        """A session's ``message_count`` and ``rewind_count``."""
        row = self.conn.execute(
            f"SELECT message_count, rewind_count FROM sessions WHERE id = {self.d.p}", (session_id,)
        ).fetchone()
        return {"message_count": row["message_count"], "rewind_count": row["rewind_count"]}
