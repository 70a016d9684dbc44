"""MessagesRepo on PostgreSQL: an append's rows and its counters in one statement."""

from __future__ import annotations

import sqlite3
from typing import Any

from app.storage.repos.messages import COUNTERS_SQL, INSERT_COLUMNS, RowWriter, insert_messages
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
_WRITE_SQL = (
    f"WITH ins AS (INSERT INTO messages ({INSERT_COLUMNS}, active)"
    f" SELECT :id, {', '.join(f'u.{name}' for name, _ in _ARRAYS)}, 1"
    f" FROM unnest({', '.join(f':{name}::{kind}[]' for name, kind in _ARRAYS)})"
    f" WITH ORDINALITY AS u({', '.join(name for name, _ in _ARRAYS)}, ord)"
    " ORDER BY u.ord RETURNING id),"
    f" counted AS ({COUNTERS_SQL})"
    " SELECT id FROM ins ORDER BY id"
)


def write_rows(
    conn: sqlite3.Connection, session_id: str, rows: list[tuple[Any, ...]], calls: int
) -> list[int]:
    """The :data:`~app.storage.repos.messages.RowWriter` of PostgreSQL: every row and the counters in one
    round trip (one statement per row, and a second for the new id, cost a round trip each)."""
    columns = list(zip(*rows, strict=True)) if rows else [() for _ in _ARRAYS]
    params: dict[str, Any] = {name: list(values) for (name, _), values in zip(_ARRAYS, columns, strict=True)}
    params.update(id=session_id, n=len(rows), calls=calls)
    return [int(r[0]) for r in conn.execute(_WRITE_SQL, params).fetchall()]


class PgMessages(SqliteMessages):
    """MessagesRepo over one PostgreSQL connection."""

    __slots__ = ()

    def insert_messages(
        self, session_id: str, messages: list[dict[str, Any]], *, write: RowWriter = write_rows
    ) -> list[MessageRow]:
        """Append ``messages`` to a session (see :func:`app.storage.repos.messages.insert_messages`), by
        default in one statement."""
        return insert_messages(self.conn, session_id, messages, write=write)
