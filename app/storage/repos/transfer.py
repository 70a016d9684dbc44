"""SQL for import: whole sessions in, written exactly as the agent writes them.

Rows are written exactly as the agent's ``SessionDB`` writes them (``tool_calls`` and ``model_config``
as JSON text, structured ``content`` behind the agent's ``\\x00json:`` prefix, timestamps as float seconds),
so the agent reads what we import. Columns are discovered with
``PRAGMA table_info``, so a column a newer agent adds is carried through both ways untouched.
"""

from __future__ import annotations

import itertools
import json
import sqlite3
from collections.abc import Iterable
from typing import Any

from app.storage.hermes_ddl import FTS_DOCUMENT_SQL
from app.storage.repos.sessions import session_exists

# The agent's marker for list/dict message content stored as JSON text (SessionDB._CONTENT_JSON_PREFIX).
CONTENT_JSON_PREFIX = "\x00json:"
# Message columns whose stored text is JSON the agent encodes with json.dumps when given a list or dict.
_JSON_TEXT_MESSAGE_COLUMNS = (
    "tool_calls",
    "reasoning_details",
    "codex_reasoning_items",
    "codex_message_items",
)
# Columns the agent's import resets (live runtime state, not history); we carry everything else.
_LIVE_SESSION_COLUMNS = frozenset({"parent_session_id"})
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def table_columns(conn: sqlite3.Connection, table: str) -> dict[str, str]:
    """Column name → declared type (upper case) of one of the agent's tables."""
    return {row["name"]: (row["type"] or "").upper() for row in conn.execute(f"PRAGMA table_info({table})")}


class RowError(ValueError):
    """A session or message field the store cannot take; the line is reported and nothing of it written."""


def _json_text(value: Any) -> str:
    # json.dumps with the agent's defaults, so re-imported JSON text is byte-identical to what it wrote.
    return json.dumps(value)


def _coerce(column: str, declared: str, value: Any) -> Any:
    if value is None:
        return None
    if "INT" in declared:
        if isinstance(value, bool):
            return int(value)
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, int) and INT64_MIN <= value <= INT64_MAX:
            return value
        raise RowError(f"{column} must be a 64-bit integer")
    if "REAL" in declared or "FLOA" in declared or "DOUB" in declared:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise RowError(f"{column} must be a number")
        return float(value)
    if isinstance(value, str):
        return value
    if isinstance(value, dict | list):
        return _json_text(value)
    raise RowError(f"{column} must be a string")


def session_values(raw: dict[str, Any], columns: dict[str, str], now: float) -> dict[str, Any]:
    """The session row to store, from one export line (unknown keys such as ``last_active`` ignored)."""
    values: dict[str, Any] = {}
    for column, declared in columns.items():
        if column in _LIVE_SESSION_COLUMNS or column not in raw:
            continue
        if column == "model_config":
            values[column] = _model_config_text(raw[column])
        else:
            values[column] = _coerce(column, declared, raw[column])
    if not isinstance(values.get("source"), str) or not values["source"]:
        values["source"] = "import"
    if values.get("started_at") is None:
        values["started_at"] = now
    for column in ("archived",):
        if column in columns:
            values[column] = 1 if values.get(column) else 0
    return values


def _model_config_text(value: Any) -> str | None:
    # Kept as the exact JSON string the agent wrote; a dict is encoded the way the agent encodes it.
    if value is None:
        return None
    if isinstance(value, str):
        try:
            parsed = json.loads(value)
        except json.JSONDecodeError as exc:
            raise RowError("model_config must be valid JSON") from exc
        if not isinstance(parsed, dict):
            raise RowError("model_config must be a JSON object")
        return value
    if isinstance(value, dict):
        return _json_text(value)
    raise RowError("model_config must be a JSON object")


def message_values(
    raw: dict[str, Any], index: int, columns: dict[str, str], default_ts: float
) -> dict[str, Any]:
    """One message row to store (``session_id`` and ``id`` are set by :func:`insert_session`)."""
    role = raw.get("role")
    if not isinstance(role, str) or not role:
        raise RowError(f"messages[{index}].role must be a non-empty string")
    values: dict[str, Any] = {}
    for column, declared in columns.items():
        if column in ("id", "session_id") or column not in raw:
            continue
        value = raw[column]
        try:
            if column == "content" and isinstance(value, dict | list):
                values[column] = CONTENT_JSON_PREFIX + _json_text(value)
            elif column in _JSON_TEXT_MESSAGE_COLUMNS and isinstance(value, dict | list):
                values[column] = _json_text(value)
            else:
                values[column] = _coerce(column, declared, value)
        except RowError as exc:
            raise RowError(f"messages[{index}].{exc}") from exc
    if values.get("timestamp") is None:
        values["timestamp"] = default_ts
    if values.get("platform_message_id") is None and isinstance(raw.get("message_id"), str):
        values["platform_message_id"] = raw["message_id"]
    if "active" in columns and values.get("active") is None:
        values["active"] = 1
    return values


def existing_ids(conn: sqlite3.Connection, session_ids: Iterable[str]) -> set[str]:
    """The subset of ``session_ids`` already stored."""
    ids = list(session_ids)
    found: set[str] = set()
    for start in range(0, len(ids), 500):
        part = ids[start : start + 500]
        marks = ",".join("?" * len(part))
        found.update(r[0] for r in conn.execute(f"SELECT id FROM sessions WHERE id IN ({marks})", part))
    return found


def _ids_free(conn: sqlite3.Connection, ids: list[int]) -> bool:
    if not ids:
        return True
    if any(b <= a for a, b in itertools.pairwise(ids)):
        return False  # not in insertion order: new ids keep the order the line gives
    (taken,) = conn.execute(
        "SELECT COUNT(*) FROM messages WHERE id BETWEEN ? AND ?", (ids[0], ids[-1])
    ).fetchone()
    if taken == 0:
        return True
    for start in range(0, len(ids), 500):
        part = ids[start : start + 500]
        marks = ",".join("?" * len(part))
        if conn.execute(f"SELECT 1 FROM messages WHERE id IN ({marks}) LIMIT 1", part).fetchone():
            return False
    return True


def insert_session(
    conn: sqlite3.Connection,
    session: dict[str, Any],
    messages: list[dict[str, Any]],
    message_ids: list[int] | None,
    *,
    replace: bool,
) -> bool:
    """Write one session and its messages (caller holds a SAVEPOINT); returns whether ids were kept.

    With ``replace`` the existing row is updated in place (its children keep pointing at it) and its
    messages are swapped. Message counters are the line's when it carries them (the agent's export has
    them), otherwise counted from the messages written, as the agent's import does.
    """
    sid = session["id"]
    if "message_count" not in session:
        session["message_count"] = len(messages)
    if "tool_call_count" not in session:
        session["tool_call_count"] = sum(_tool_call_count(m.get("tool_calls")) for m in messages)
    if replace:
        conn.execute("DELETE FROM messages WHERE session_id = ?", (sid,))
        sets = ", ".join(f'"{c}" = ?' for c in session if c != "id")
        conn.execute(
            f"UPDATE sessions SET {sets} WHERE id = ?", [*(v for c, v in session.items() if c != "id"), sid]
        )
    else:
        names = ", ".join(f'"{c}"' for c in session)
        marks = ", ".join("?" * len(session))
        conn.execute(f"INSERT INTO sessions ({names}) VALUES ({marks})", list(session.values()))
    keep_ids = message_ids is not None and _ids_free(conn, message_ids)
    if not messages:
        return keep_ids
    # One executemany per session: keys missing from a message take the column's declared default.
    keys = list(dict.fromkeys(k for msg in messages for k in msg))
    defaults = message_defaults(conn)
    cols = ["session_id", *keys]
    rows: list[list[Any]] = [[sid, *(m.get(k, defaults.get(k)) for k in keys)] for m in messages]
    if keep_ids:
        assert message_ids is not None
        cols.insert(0, "id")
        rows = [[mid, *row] for mid, row in zip(message_ids, rows, strict=True)]
    names = ", ".join(f'"{c}"' for c in cols)
    marks = ", ".join("?" * len(cols))
    conn.executemany(f"INSERT INTO messages ({names}) VALUES ({marks})", rows)
    return keep_ids


def message_defaults(conn: sqlite3.Connection) -> dict[str, Any]:
    """Declared defaults of the messages columns (``0``, ``1``, ``NULL``, quoted text)."""
    out: dict[str, Any] = {}
    for row in conn.execute("PRAGMA table_info(messages)"):
        raw = row["dflt_value"]
        if raw is None or raw.upper() == "NULL":
            out[row["name"]] = None
        elif raw.startswith("'") and raw.endswith("'"):
            out[row["name"]] = raw[1:-1].replace("''", "'")
        else:
            try:
                out[row["name"]] = int(raw)
            except ValueError:
                out[row["name"]] = float(raw)
    return out


def _tool_call_count(tool_calls: Any) -> int:
    if tool_calls is None:
        return 0
    try:
        decoded = json.loads(tool_calls) if isinstance(tool_calls, str) else tool_calls
    except json.JSONDecodeError:
        return 1
    return len(decoded) if isinstance(decoded, list) else 1


def parent_chain_contains(conn: sqlite3.Connection, start: str, target: str) -> bool:
    """Whether ``target`` is ``start`` or one of its ancestors (linking would close a cycle)."""
    current: str | None = start
    seen: set[str] = set()
    while current is not None and current not in seen:
        if current == target:
            return True
        seen.add(current)
        row = conn.execute("SELECT parent_session_id FROM sessions WHERE id = ?", (current,)).fetchone()
        current = row[0] if row else None
    return False


def link_parent(conn: sqlite3.Connection, child_id: str, parent_id: str) -> bool:
    """Point ``child_id`` at ``parent_id`` when the parent exists and no cycle results."""
    if not session_exists(conn, parent_id) or parent_chain_contains(conn, parent_id, child_id):
        return False
    conn.execute("UPDATE sessions SET parent_session_id = ? WHERE id = ?", (parent_id, child_id))
    return True


# -- bulk FTS indexing during import ----------------------------------------------------------------

_FTS_INSERT_TRIGGERS = {
    "messages_fts_insert": "messages_fts",
    "messages_fts_trigram_insert": "messages_fts_trigram",
}


def _squash(sql: str) -> str:
    return "".join(sql.split()).lower()


def _expected_trigger_body(table: str) -> str:
    document = FTS_DOCUMENT_SQL.replace("COALESCE(", "COALESCE(new.")
    return _squash(f"INSERT INTO {table}(rowid, content) VALUES (new.id, {document});")


def suspend_fts_insert_triggers(conn: sqlite3.Connection) -> list[tuple[str, str, str]]:
    """Drop the agent's two FTS insert triggers for the rest of this transaction; returns what to restore.

    Indexing a batch with one ``INSERT … SELECT`` per FTS table is about ten times faster than firing the
    triggers row by row. The triggers are re-created from their exact stored SQL before the transaction
    ends (:func:`restore_fts_insert_triggers`), so no other connection ever sees them missing, and a
    rollback restores them too. A trigger whose text is not the agent's is left alone.
    """
    suspended: list[tuple[str, str, str]] = []
    for name, table in _FTS_INSERT_TRIGGERS.items():
        row = conn.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?", (name,)
        ).fetchone()
        if row is None or _expected_trigger_body(table) not in _squash(row[0]):
            continue
        conn.execute(f'DROP TRIGGER "{name}"')
        suspended.append((name, table, row[0]))
    return suspended


def restore_fts_insert_triggers(
    conn: sqlite3.Connection, suspended: list[tuple[str, str, str]], session_ids: list[str]
) -> None:
    """Index the messages of ``session_ids`` (all written while suspended), then re-create the triggers."""
    for _, table, _ in suspended:
        for start in range(0, len(session_ids), 500):
            part = session_ids[start : start + 500]
            marks = ",".join("?" * len(part))
            conn.execute(
                f"INSERT INTO {table}(rowid, content) SELECT id, {FTS_DOCUMENT_SQL} FROM messages "
                f"WHERE session_id IN ({marks}) ORDER BY id",
                part,
            )
    for _, _, sql in suspended:
        conn.execute(sql)
