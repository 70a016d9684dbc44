"""The agent's row format for import: each export line's values converted to what ``SessionDB`` stores.

Rows are written exactly as the agent's ``SessionDB`` writes them (``tool_calls`` and ``model_config`` as
JSON text, structured ``content`` behind the agent's ``\\x00json:`` prefix, timestamps as float seconds), so
the agent reads what we import, whichever backend holds it. Columns come from the store
(``Transfer.table_columns``), so a column a newer agent adds is carried through untouched.
"""

from __future__ import annotations

import functools
import json
import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# The agent's marker for list/dict message content stored as JSON text (SessionDB._CONTENT_JSON_PREFIX).
CONTENT_JSON_PREFIX = "\x00json:"
# Columns the agent's import resets (live runtime state, not history); we carry everything else.
_LIVE_SESSION_COLUMNS = frozenset({"parent_session_id"})
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


@dataclass
class Prepared:
    """One session validated and turned into rows, ready for the writer."""

    ref: dict[str, Any]
    session_id: str
    session: dict[str, Any]
    # session_id then the layout's columns, preceded by the line's message id when message_ids is set.
    rows: list[list[Any]]
    message_ids: list[int] | None
    parent_id: str | None


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
    for column in ("archived", "hidden"):
        if column in columns:
            values[column] = 1 if values.get(column) else 0
    if "pinned" in raw:
        # A store without the agent's column keeps the pin in a table of its own (storage decides).
        values["pinned"] = 1 if raw["pinned"] else 0
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


def tool_call_count(tool_calls: Any) -> int:
    """Tool calls in one message's ``tool_calls`` (a list, or its JSON text), as the agent's import counts."""
    if tool_calls is None:
        return 0
    try:
        decoded = json.loads(tool_calls) if isinstance(tool_calls, str) else tool_calls
    except (json.JSONDecodeError, RecursionError):  # not JSON, or deeper than json decodes: one value
        return 1
    return len(decoded) if isinstance(decoded, list) else 1
