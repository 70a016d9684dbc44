"""Message rows read or copied by lineage operations: a fork's copy of its parent's conversation and the
conversation a recap is built from. A continuation's initial messages use ``messages.insert_messages``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from app.domain.messages import decode_content, decode_json_column
from app.storage.dialect import Dialect, dialect_of
from app.storage.repos.repository import Repository
from app.storage.sqlite.driver import sqlite3


@cache
def tool_calls_of_row_sql(d: Dialect) -> str:
    """Tool calls of one stored row, counted like the API's message append: assistant rows only."""
    return (
        "CASE WHEN role = 'assistant' AND tool_calls IS NOT NULL AND tool_calls != '' THEN"
        f" CASE WHEN {d.json_is_valid('tool_calls')} AND {d.json_kind('tool_calls')} = 'array'"
        f" THEN {d.json_array_len('tool_calls')} ELSE 1 END ELSE 0 END"
    )


def _message_columns(conn: sqlite3.Connection) -> list[str]:
    """Every ``messages`` column but the key and the owner, so a newer agent's columns are copied too."""
    names = [column.name for column in dialect_of(conn).table_columns(conn, "messages")]
    return [name for name in names if name not in ("id", "session_id")]


class LineageMessages(Repository):
    """The messages a lineage operation reads or copies."""

    __slots__ = ()

    def is_active_message(self, session_id: str, message_id: int) -> bool:
        """Whether ``message_id`` is an active (not rewound) message of the session."""
        row = self.conn.execute(
            f"SELECT 1 FROM messages WHERE id = {self.d.p} AND session_id = {self.d.p} AND active = 1",
            (message_id, session_id),
        ).fetchone()
        return row is not None

    def copy_active_messages(self, source_id: str, target_id: str, up_to_id: int | None = None) -> int:
        """Copy the active messages of ``source_id`` (up to and including ``up_to_id``) into an empty
        ``target_id``, with their attachment links; set the target's counters. Returns the number copied.

        Rows keep every column, timestamps included: the branch repeats the same conversation.
        """
        columns = ", ".join(f'"{name}"' for name in _message_columns(self.conn))
        bound = "" if up_to_id is None else f" AND id <= {self.d.p}"
        params: tuple[Any, ...] = (source_id,) if up_to_id is None else (source_id, up_to_id)
        old_ids = [
            int(row[0])
            for row in self.conn.execute(
                f"SELECT id FROM messages WHERE session_id = {self.d.p} AND active = 1{bound} ORDER BY id",
                params,
            )
        ]
        self.conn.execute(
            f"INSERT INTO messages (session_id, {columns})"
            f" SELECT {self.d.p}, {columns} FROM messages"
            f" WHERE session_id = {self.d.p} AND active = 1{bound} ORDER BY id",
            (target_id, *params),
        )
        new_ids = [
            int(row[0])
            for row in self.conn.execute(
                f"SELECT id FROM messages WHERE session_id = {self.d.p} ORDER BY id", (target_id,)
            )
        ]
        # The target was empty, so its rows in id order are the copies of the source rows in id order.
        self.conn.executemany(
            "INSERT INTO hs_message_attachments (message_id, attachment_id, position)"
            f" SELECT {self.d.p}, attachment_id, position FROM hs_message_attachments"
            f" WHERE message_id = {self.d.p}",
            zip(new_ids, old_ids, strict=True),
        )
        self.conn.execute(
            "UPDATE sessions SET message_count = (SELECT COUNT(*) FROM messages WHERE session_id ="
            f" {self.d.named('t')}), tool_call_count = (SELECT COALESCE(SUM({tool_calls_of_row_sql(self.d)}),"
            f" 0) FROM messages WHERE session_id = {self.d.named('t')}) WHERE id = {self.d.named('t')}",
            {"t": target_id},
        )
        if new_ids:
            self.changes.note_messages(target_id)
        return len(new_ids)

    def conversation_for_recap(self, session_id: str) -> list[dict[str, Any]]:
        """The active user and assistant messages of a session in conversation order (id), decoded."""
        rows = self.conn.execute(
            "SELECT role, content, tool_calls FROM messages"
            f" WHERE session_id = {self.d.p} AND active = 1 AND role IN ('user', 'assistant') ORDER BY id",
            (session_id,),
        ).fetchall()
        return [
            {"role": role, "content": decode_content(content), "tool_calls": decode_json_column(raw_calls)}
            for role, content, raw_calls in rows
        ]
