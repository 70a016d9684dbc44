"""SQL for import: whole sessions in, written exactly as the agent writes them.

Rows are written exactly as the agent's ``SessionDB`` writes them (``tool_calls`` and ``model_config``
as JSON text, structured ``content`` behind the agent's ``\\x00json:`` prefix, timestamps as float seconds),
so the agent reads what we import. Columns are discovered with
``PRAGMA table_info``, so a column a newer agent adds is carried through both ways untouched.
"""

from __future__ import annotations

import functools
import itertools
import json
import operator
import sqlite3
from collections.abc import Callable, Iterable
from typing import Any

from app.storage.commit_notice import note_messages
from app.storage.hermes_ddl import FTS_DOCUMENT_SQL
from app.storage.repos.sessions import session_exists

# The agent's marker for list/dict message content stored as JSON text (SessionDB._CONTENT_JSON_PREFIX).
CONTENT_JSON_PREFIX = "\x00json:"
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
        value = raw[column]
        if column == "model_config":
            values[column] = _model_config_text(value)
        elif value is None or (type(value) is str and _kind(declared) == "text"):
            values[column] = value  # the common case, already stored as is
        else:
            values[column] = _coerce(column, declared, value)
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
        except RecursionError:
            # Nested deeper than json decodes: an object if it opens as one (export writes it as stored).
            if value.lstrip().startswith("{"):
                return value
            raise RowError("model_config must be a JSON object") from None
        except json.JSONDecodeError as exc:
            raise RowError("model_config must be valid JSON") from exc
        if not isinstance(parsed, dict):
            raise RowError("model_config must be a JSON object")
        return value
    if isinstance(value, dict):
        return _json_text(value)
    raise RowError("model_config must be a JSON object")


class MessageLayout:
    """How one import stores messages: every column but ``id`` and ``session_id``, in table order.

    Built once per import, so each message becomes one row tuple without per-column dictionary work; keys
    missing from a message take the column's declared default, as a column left out of the INSERT would.
    """

    def __init__(self, columns: dict[str, str], defaults: dict[str, Any]) -> None:
        self.names = [c for c in columns if c not in ("id", "session_id")]
        self._columns = [(c, _converter(c, columns[c]), defaults.get(c)) for c in self.names]
        self._timestamp = self.names.index("timestamp") if "timestamp" in self.names else None
        self._active = self.names.index("active") if "active" in self.names else None
        self._platform_id = (
            self.names.index("platform_message_id") if "platform_message_id" in self.names else None
        )
        # Fast path: a message carrying every column (the agent's export and ours do) whose values already
        # have the stored types is taken as is, in one C-level itemgetter call.
        self._get = operator.itemgetter(*self.names) if len(self.names) > 1 else None
        self._kinds = [_kind(columns[c]) if c != "content" else "text" for c in self.names]
        self._ints = [i for i, kind in enumerate(self._kinds) if kind == "int"]
        self._plain: dict[tuple[type, ...], bool] = {}

    def row(self, raw: dict[str, Any], index: int, default_ts: float) -> list[Any]:
        """The stored values of one message, in :attr:`names` order."""
        role = raw.get("role")
        if not isinstance(role, str) or not role:
            raise RowError(f"messages[{index}].role must be a non-empty string")
        values: list[Any] = self._as_is(raw)
        if values:
            return self._fill(values, raw, default_ts)
        append = values.append
        try:
            for column, convert, default in self._columns:
                value = raw.get(column, _MISSING)
                append(default if value is _MISSING else convert(value))
        except RowError as exc:
            raise RowError(f"messages[{index}].{exc}") from exc
        return self._fill(values, raw, default_ts)

    def _as_is(self, raw: dict[str, Any]) -> list[Any]:
        # The values in column order when none needs converting, else [] (the per-column path decides).
        if self._get is None:
            return []
        try:
            values = list(self._get(raw))
        except KeyError:
            return []
        signature = tuple(map(type, values))
        plain = self._plain.get(signature)
        if plain is None:
            plain = self._plain[signature] = all(
                t is type(None) or t is _PLAIN_TYPE[kind]
                for t, kind in zip(signature, self._kinds, strict=True)
            )
        if not plain or any(
            values[i] is not None and not INT64_MIN <= values[i] <= INT64_MAX for i in self._ints
        ):
            return []
        return values

    def _fill(self, values: list[Any], raw: dict[str, Any], default_ts: float) -> list[Any]:
        if self._timestamp is not None and values[self._timestamp] is None:
            values[self._timestamp] = default_ts
        if (
            self._platform_id is not None
            and values[self._platform_id] is None
            and isinstance(raw.get("message_id"), str)
        ):
            values[self._platform_id] = raw["message_id"]
        if self._active is not None and values[self._active] is None:
            values[self._active] = 1
        return values


_MISSING = object()
_PLAIN_TYPE = {"text": str, "int": int, "real": float}


@functools.cache
def _kind(declared: str) -> str:
    # SQLite's type affinity rules, reduced to the three kinds import converts to.
    if "INT" in declared:
        return "int"
    if "REAL" in declared or "FLOA" in declared or "DOUB" in declared:
        return "real"
    return "text"


def _converter(column: str, declared: str) -> Callable[[Any], Any]:
    # The common case (a string in a TEXT column, an int in an INTEGER one) returns at the first test.
    if column == "content":

        def content(value: Any) -> Any:
            if value is None or type(value) is str:
                return value
            if isinstance(value, dict | list):
                return CONTENT_JSON_PREFIX + _json_text(value)
            return _coerce(column, declared, value)

        return content
    kind = _kind(declared)
    if kind == "int":

        def integer(value: Any) -> Any:
            if type(value) is int and INT64_MIN <= value <= INT64_MAX:
                return value
            return _coerce(column, declared, value)

        return integer
    if kind == "real":

        def real(value: Any) -> Any:
            return value if type(value) is float else _coerce(column, declared, value)

        return real

    def text(value: Any) -> Any:
        # Lists and dicts become the agent's json.dumps text (tool_calls, reasoning_details, ...).
        return value if value is None or type(value) is str else _coerce(column, declared, value)

    return text


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
    message_columns: list[str],
    rows: list[list[Any]],
    message_ids: list[int] | None,
    *,
    replace: bool,
) -> bool:
    """Write one session and its messages (caller holds a SAVEPOINT); returns whether ids were kept.

    ``rows`` hold ``session_id`` then ``message_columns`` (see :class:`MessageLayout`), preceded by the
    line's message id when ``message_ids`` is given; those ids are kept when none is taken, otherwise the
    messages get new ones. With ``replace`` the existing row is updated in place (its children keep
    pointing at it) and its messages are swapped.
    """
    sid = session["id"]
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
    if not rows:
        return keep_ids
    cols = ["session_id", *message_columns]
    if keep_ids:
        cols.insert(0, "id")
    elif message_ids is not None:
        rows = [row[1:] for row in rows]
    names = ", ".join(f'"{c}"' for c in cols)
    marks = ", ".join("?" * len(cols))
    conn.executemany(f"INSERT INTO messages ({names}) VALUES ({marks})", rows)
    note_messages(sid)
    return keep_ids


def message_defaults(conn: sqlite3.Connection) -> dict[str, Any]:
    """Declared defaults of the messages columns, evaluated by SQLite (literals and constant expressions)."""
    out: dict[str, Any] = {}
    for row in conn.execute("PRAGMA table_info(messages)").fetchall():
        raw = row["dflt_value"]
        # The text is the schema's own DEFAULT clause, so SQLite evaluates it exactly as an INSERT would.
        out[row["name"]] = None if raw is None else conn.execute(f"SELECT {raw}").fetchone()[0]
    return out


def tool_call_count(tool_calls: Any) -> int:
    """Tool calls in one message's ``tool_calls`` (a list, or its JSON text), as the agent's import counts."""
    if tool_calls is None:
        return 0
    try:
        decoded = json.loads(tool_calls) if isinstance(tool_calls, str) else tool_calls
    except (json.JSONDecodeError, RecursionError):  # not JSON, or deeper than json decodes: one value
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


def restore_fts_insert_triggers(conn: sqlite3.Connection, suspended: list[tuple[str, str, str]]) -> None:
    """Re-create the suspended triggers from their exact stored SQL."""
    for _, _, sql in suspended:
        conn.execute(sql)


def index_sessions(conn: sqlite3.Connection, tables: list[str], session_ids: list[str]) -> None:
    """Index the messages of ``session_ids`` in ``tables`` with one ``INSERT … SELECT`` per 500 sessions."""
    for table in tables:
        for start in range(0, len(session_ids), 500):
            part = session_ids[start : start + 500]
            marks = ",".join("?" * len(part))
            conn.execute(
                f"INSERT INTO {table}(rowid, content) SELECT id, {FTS_DOCUMENT_SQL} FROM messages "
                f"WHERE session_id IN ({marks}) ORDER BY id",
                part,
            )
