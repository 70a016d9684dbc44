"""Message rows written or read by lineage operations: a continuation's initial messages, a fork's copy,
and the conversation a recap is built from.

Rows are stored as the agent's ``SessionDB._insert_message_rows`` stores them: ``tool_calls`` and the other
structured columns as JSON text, list content behind the ``\\x00json:`` prefix, ``active = 1``, float
timestamps that strictly increase within one batch.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Mapping, Sequence
from typing import Any

from app.storage.repos.transfer import CONTENT_JSON_PREFIX

# Columns stored as JSON text when the caller gives a list or an object (the agent uses json.dumps).
_JSON_COLUMNS = ("tool_calls", "reasoning_details")
# Columns the agent keeps only on assistant rows.
_ASSISTANT_ONLY = ("reasoning", "reasoning_content", "reasoning_details")
_INSERT_COLUMNS = (
    "role",
    "content",
    "tool_call_id",
    "tool_calls",
    "tool_name",
    "timestamp",
    "token_count",
    "finish_reason",
    "reasoning",
    "reasoning_content",
    "reasoning_details",
)
# Tool calls of one stored row, counted like the API's message append: assistant rows only.
_TOOL_CALLS_OF_ROW_SQL = (
    "CASE WHEN role = 'assistant' AND tool_calls IS NOT NULL AND tool_calls != '' THEN"
    " CASE WHEN json_valid(tool_calls) AND json_type(tool_calls) = 'array'"
    " THEN json_array_length(tool_calls) ELSE 1 END ELSE 0 END"
)


def encode_content(content: Any) -> Any:
    """Message content as the agent stores it: text as is, lists/objects as prefixed JSON text."""
    if content is None or isinstance(content, str | int | float):
        return content
    return CONTENT_JSON_PREFIX + json.dumps(content)


def decode_content(content: Any) -> Any:
    """Reverse :func:`encode_content` (malformed JSON stays the raw text, like the agent)."""
    if isinstance(content, str) and content.startswith(CONTENT_JSON_PREFIX):
        try:
            return json.loads(content[len(CONTENT_JSON_PREFIX) :])
        except ValueError:
            return content
    return content


def _tool_call_count(message: Mapping[str, Any]) -> int:
    calls = message.get("tool_calls")
    if message.get("role") != "assistant" or not calls:
        return 0
    return len(calls) if isinstance(calls, list) else 1


def insert_messages(
    conn: sqlite3.Connection, session_id: str, messages: Sequence[Mapping[str, Any]]
) -> list[int]:
    """Append ``messages`` to a session and bump its counters; the new message ids in order.

    Each message is a mapping with ``role`` and any of ``content``, ``tool_call_id``, ``tool_calls``,
    ``tool_name``, ``timestamp``, ``token_count``, ``finish_reason``, ``reasoning``, ``reasoning_content``,
    ``reasoning_details``. Without a timestamp a message gets "now", kept strictly after the previous one
    so the batch keeps its order.
    """
    now = time.time()
    ids: list[int] = []
    tool_calls = 0
    placeholders = ", ".join("?" * (len(_INSERT_COLUMNS) + 2))
    sql = f"INSERT INTO messages (session_id, {', '.join(_INSERT_COLUMNS)}, active) VALUES ({placeholders})"
    for message in messages:
        role = message.get("role")
        values: dict[str, Any] = {column: message.get(column) for column in _INSERT_COLUMNS}
        if role != "assistant":
            for column in _ASSISTANT_ONLY:
                values[column] = None
        for column in _JSON_COLUMNS:
            values[column] = json.dumps(values[column]) if values[column] else None
        values["content"] = encode_content(values["content"])
        stamp = message.get("timestamp")
        values["timestamp"] = float(stamp) if stamp is not None else now
        cursor = conn.execute(sql, (session_id, *(values[c] for c in _INSERT_COLUMNS), 1))
        ids.append(int(cursor.lastrowid or 0))
        tool_calls += _tool_call_count(message)
        now = max(now + 1e-6, values["timestamp"] + 1e-6)
    if ids:
        conn.execute(
            "UPDATE sessions SET message_count = message_count + ?, tool_call_count = tool_call_count + ?"
            " WHERE id = ?",
            (len(ids), tool_calls, session_id),
        )
    return ids


def is_active_message(conn: sqlite3.Connection, session_id: str, message_id: int) -> bool:
    """Whether ``message_id`` is an active (not rewound) message of the session."""
    row = conn.execute(
        "SELECT 1 FROM messages WHERE id = ? AND session_id = ? AND active = 1", (message_id, session_id)
    ).fetchone()
    return row is not None


def _message_columns(conn: sqlite3.Connection) -> list[str]:
    """Every ``messages`` column but the key and the owner, so a newer agent's columns are copied too."""
    names = [str(row[1]) for row in conn.execute("PRAGMA table_info(messages)")]
    return [name for name in names if name not in ("id", "session_id")]


def copy_active_messages(
    conn: sqlite3.Connection, source_id: str, target_id: str, up_to_id: int | None = None
) -> int:
    """Copy the active messages of ``source_id`` (up to and including ``up_to_id``) into an empty
    ``target_id``, with their attachment links; set the target's counters. Returns the number copied.

    Rows keep every column, timestamps included: the branch repeats the same conversation.
    """
    columns = ", ".join(f'"{name}"' for name in _message_columns(conn))
    bound = "" if up_to_id is None else " AND id <= ?"
    params: tuple[Any, ...] = (source_id,) if up_to_id is None else (source_id, up_to_id)
    old_ids = [
        int(row[0])
        for row in conn.execute(
            f"SELECT id FROM messages WHERE session_id = ? AND active = 1{bound} ORDER BY id", params
        )
    ]
    conn.execute(
        f"INSERT INTO messages (session_id, {columns})"
        f" SELECT ?, {columns} FROM messages WHERE session_id = ? AND active = 1{bound} ORDER BY id",
        (target_id, *params),
    )
    new_ids = [
        int(row[0])
        for row in conn.execute("SELECT id FROM messages WHERE session_id = ? ORDER BY id", (target_id,))
    ]
    # The target was empty, so its rows in id order are the copies of the source rows in id order.
    conn.executemany(
        "INSERT INTO hs_message_attachments (message_id, attachment_id, position)"
        " SELECT ?, attachment_id, position FROM hs_message_attachments WHERE message_id = ?",
        zip(new_ids, old_ids, strict=True),
    )
    conn.execute(
        f"UPDATE sessions SET message_count = (SELECT COUNT(*) FROM messages WHERE session_id = :t),"
        f" tool_call_count = (SELECT COALESCE(SUM({_TOOL_CALLS_OF_ROW_SQL}), 0) FROM messages"
        f" WHERE session_id = :t) WHERE id = :t",
        {"t": target_id},
    )
    return len(new_ids)


def conversation_for_recap(conn: sqlite3.Connection, session_id: str) -> list[dict[str, Any]]:
    """The active user and assistant messages of a session in conversation order (id), decoded."""
    rows = conn.execute(
        "SELECT role, content, tool_calls FROM messages"
        " WHERE session_id = ? AND active = 1 AND role IN ('user', 'assistant') ORDER BY id",
        (session_id,),
    ).fetchall()
    messages: list[dict[str, Any]] = []
    for role, content, raw_calls in rows:
        try:
            calls = json.loads(raw_calls) if raw_calls else None
        except ValueError:
            calls = None
        messages.append({"role": role, "content": decode_content(content), "tool_calls": calls})
    return messages
