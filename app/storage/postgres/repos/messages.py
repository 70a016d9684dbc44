"""MessagesRepo on PostgreSQL: an append's rows and its counters in one statement."""

from __future__ import annotations

import sqlite3
from typing import Any

from app.storage.postgres.connection import to_psycopg
from app.storage.postgres.repos.base import pg_of
from app.storage.repos.messages import (
    COUNTERS_SQL,
    INSERT_COLUMNS,
    RowWriter,
    append_if_open,
    insert_messages,
)
from app.storage.rows import MessageRow
from app.storage.sqlite_tx import SqliteMessages

# The rows arrive as one array per column, unnested in order: the identity draws ids in that order, and
# the ids come back sorted. The counters are bumped in the same statement (a data-modifying CTE).
_ARRAYS = (
    ("role", "text"),
    ("content", "text"),
    ("tool_call_id", "text"),
    ("tool_calls", "text"),
    ("tool_name", "text"),
    ("ts", "float8"),
    ("token_count", "bigint"),
    ("finish_reason", "text"),
    ("reasoning", "text"),
    ("reasoning_content", "text"),
    ("reasoning_details", "text"),
)
_UNNESTED = (
    f" FROM unnest({', '.join(f':{name}::{kind}[]' for name, kind in _ARRAYS)})"
    f" WITH ORDINALITY AS u({', '.join(name for name, _ in _ARRAYS)}, ord)"
)
_INSERT = (
    f"INSERT INTO messages ({INSERT_COLUMNS}, active)"
    f" SELECT :id, {', '.join(f'u.{name}' for name, _ in _ARRAYS)}, 1"
)
_WRITE_SQL = (
    f"WITH ins AS ({_INSERT}{_UNNESTED} ORDER BY u.ord RETURNING id),"
    f" counted AS ({COUNTERS_SQL})"
    " SELECT id FROM ins ORDER BY id"
)
# The same, written only when the session exists and has not ended (nothing at all otherwise).
_OPEN_WRITE_SQL = (
    "WITH open AS (SELECT 1 FROM sessions WHERE id = :id AND ended_at IS NULL),"
    f" ins AS ({_INSERT}{_UNNESTED}, open ORDER BY u.ord RETURNING id),"
    f" counted AS ({COUNTERS_SQL} AND EXISTS (SELECT 1 FROM open))"
    " SELECT id FROM ins ORDER BY id"
)


def _binary_arrays(sql: str) -> str:
    """``sql`` in psycopg's placeholders, the column arrays bound in binary: in text, psycopg quotes every
    element with a regular expression, which cost more than the rest of a single append's parameters."""
    sql = to_psycopg(sql)
    for name, kind in _ARRAYS:
        sql = sql.replace(f"%({name})s::{kind}[]", f"%({name})b::{kind}[]")
    return sql


_WRITE_PG = _binary_arrays(_WRITE_SQL)
_OPEN_WRITE_PG = _binary_arrays(_OPEN_WRITE_SQL)


def write_rows(
    conn: sqlite3.Connection, session_id: str, rows: list[tuple[Any, ...]], calls: int
) -> list[int]:
    """The :data:`~app.storage.repos.messages.RowWriter` of PostgreSQL: every row and the counters in one
    round trip (one statement per row, and a second for the new id, cost a round trip each)."""
    return _written(conn, _WRITE_PG, session_id, rows, calls)


class _NotOpen(Exception):
    """The session of a guarded write does not exist or has ended: nothing was written."""


def _write_open_rows(
    conn: sqlite3.Connection, session_id: str, rows: list[tuple[Any, ...]], calls: int
) -> list[int]:
    ids = _written(conn, _OPEN_WRITE_PG, session_id, rows, calls)
    if rows and not ids:
        raise _NotOpen
    return ids


def _written(
    conn: sqlite3.Connection, sql: str, session_id: str, rows: list[tuple[Any, ...]], calls: int
) -> list[int]:
    columns = list(zip(*rows, strict=True)) if rows else [() for _ in _ARRAYS]
    params: dict[str, Any] = {name: list(values) for (name, _), values in zip(_ARRAYS, columns, strict=True)}
    params.update(id=session_id, n=len(rows), calls=calls)
    # A binary array holds values of one type: the rows' values are typed per column by insert_messages.
    return [int(r[0]) for r in pg_of(conn).execute(sql, params).fetchall()]


class PgMessages(SqliteMessages):
    """MessagesRepo over one PostgreSQL connection."""

    __slots__ = ()

    def insert_messages(
        self, session_id: str, messages: list[dict[str, Any]], *, write: RowWriter = write_rows
    ) -> list[MessageRow]:
        """Append ``messages`` to a session (see :func:`app.storage.repos.messages.insert_messages`), by
        default in one statement."""
        return insert_messages(self.conn, session_id, messages, write=write)

    def append_if_open(
        self, session_id: str, messages: list[dict[str, Any]], *, write: RowWriter = write_rows
    ) -> list[MessageRow] | None:
        """:meth:`insert_messages` guarded by the session's state in the same statement; ``None`` (nothing
        written) when the session does not exist or has ended. An empty batch, or one linking attachments,
        checks the state first and then writes with ``write``, as on SQLite (a missing session is reported
        before an unknown attachment)."""
        if not messages or any(m.get("attachments") for m in messages):
            return append_if_open(self.conn, session_id, messages, write=write)
        try:
            return insert_messages(self.conn, session_id, messages, write=_write_open_rows)
        except _NotOpen:
            return None
