"""Message JSON rendered by SQLite for the export: ``json_object`` writes each row's bytes in C.

Encoding half a million messages in Python (a dict per row, then orjson) was most of an export's CPU.
Here SQLite renders every column it renders exactly as the Python path would (strings, integers, NULLs,
``tool_calls`` minified by ``json()``); only floats are left to Python, because SQLite's float printing is
not the shortest round-trip form. A float column is rendered as a marker string and the chunk's floats are
spliced in afterwards with one ``orjson.dumps`` (see :func:`fill_floats`).

A row takes the Python path instead (``encoded`` is NULL) when SQLite could not match it byte for byte:
structured ``content`` (the agent's ``\\x00json:`` prefix, decoded as ``get_messages`` does), ``tool_calls``
that are not strict JSON or hold ``\\u`` / ``\\/`` escapes (orjson would unescape them), or a value of an
unexpected type (a REAL in an INTEGER column, text in a REAL column, a BLOB anywhere).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import orjson

from app.domain.stored_json import MAX_RENDER_DEPTH
from app.storage.sqlite.driver import sqlite3

# The float marker: a string no column of a rendered row can equal, since SQLite escapes control characters
# the same way; a value that happens to equal it is caught by the count check in ``fill_floats``.
_MARK_SQL = "char(1) || 'hs-export-float' || char(2)"
MARK_JSON = orjson.dumps("\x01hs-export-float\x02")
# SQLite's default limit is 127 function arguments; json_object takes two per column.
_MAX_RENDERED_COLUMNS = 60


def _affinity(declared: str) -> str:
    # SQLite's column affinity rules (datatype3.html §3.1), in their order.
    decl = declared.upper()
    if "INT" in decl:
        return "INTEGER"
    if "CHAR" in decl or "CLOB" in decl or "TEXT" in decl:
        return "TEXT"
    if "BLOB" in decl or not decl:
        return "BLOB"
    if "REAL" in decl or "FLOA" in decl or "DOUB" in decl:
        return "REAL"
    return "NUMERIC"


# What app.domain.stored_json.may_be_unrenderable looks for in JSON text, in SQL: a value that could be
# nested deeper than MAX_RENDER_DEPTH or hold an integer beyond 64 bits takes the Python path, which
# writes it decoded when it can and as its stored text when it cannot. (``\\u`` escapes already do.)
_LONG_DIGITS_GLOB = "*" + "[0-9]" * 20 + "*"


def _shallow(col: str) -> str:
    # Counting brackets costs a copy of the text: only text long enough to hold that many pairs is counted.
    brackets = f"length({col}) - length(replace(replace({col}, '[', ''), '{{', ''))"
    return f"(length(CAST({col} AS BLOB)) <= {2 * MAX_RENDER_DEPTH} OR {brackets} <= {MAX_RENDER_DEPTH})"


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(name: str) -> str:
    return "'" + name.replace("'", "''") + "'"


@dataclass(frozen=True)
class RenderSelect:
    """A select list that renders rows in SQL: for ``FROM messages`` it is ``session_id, id, encoded, <float
    columns...>``, for ``FROM sessions s`` it is ``s.id, encoded, <float columns...>, last_active``."""

    select: str
    float_columns: int


def _columns(conn: sqlite3.Connection, table: str) -> tuple[tuple[str, str], ...]:
    return tuple((row[1], row[2] or "") for row in conn.execute(f"PRAGMA table_info({table})"))


def message_render(conn: sqlite3.Connection) -> RenderSelect | None:
    """How to render this file's ``messages`` rows in SQL (``None``: too many columns, use Python)."""
    return _message_render(_columns(conn, "messages"))


def session_render(conn: sqlite3.Connection, last_active_sql: str) -> RenderSelect | None:
    """How to render ``sessions`` rows and the agent's ``last_active`` extra in SQL (``None``: Python)."""
    return _session_render(_columns(conn, "sessions"), last_active_sql)


def _encoded(
    columns: tuple[tuple[str, str], ...], alias: str, extra_floats: tuple[tuple[str, str], ...] = ()
) -> tuple[str, list[str]] | None:
    """The CASE expression rendering a row (NULL when it must take the Python path) and the float values
    it leaves as markers, in order."""
    if not columns or len(columns) + len(extra_floats) > _MAX_RENDERED_COLUMNS:
        return None
    pairs: list[str] = []
    checks: list[str] = []
    floats: list[str] = []
    for name, declared in columns:
        col = alias + _ident(name)
        affinity = _affinity(declared)
        value = col
        if name == "content":
            # get_messages decodes content behind the \x00json: prefix: text starting with NUL goes to Python.
            checks.append(f"substr(CAST({col} AS BLOB), 1, 1) IS NOT X'00'")
        elif name == "tool_calls":
            checks.append(
                f"({col} IS NULL OR {col} = '' OR (json_valid({col}) "
                f"AND instr({col}, '\\u') = 0 AND instr({col}, '\\/') = 0 "
                f"AND {col} NOT GLOB '{_LONG_DIGITS_GLOB}' AND {_shallow(col)}))"
            )
            value = f"CASE WHEN {col} IS NULL OR {col} = '' THEN {col} ELSE json({col}) END"
        # json_object reads a BLOB argument as JSONB (SQLite 3.45 on), which would turn a stored BLOB into
        # whatever it happens to decode to: a BLOB in any column takes the Python path, which refuses it.
        if affinity == "INTEGER":
            checks.append(f"typeof({col}) NOT IN ('real', 'blob')")
        elif affinity == "TEXT":
            checks.append(f"typeof({col}) != 'blob'")
        else:
            # REAL, NUMERIC and untyped columns: Python renders the number (shortest round-trip form).
            checks.append(f"typeof({col}) IN ('real', 'integer', 'null')")
            floats.append(col)
            value = _MARK_SQL
        pairs.append(f"{_literal(name)}, {value}")
    for name, expr in extra_floats:
        checks.append(f"typeof({expr}) IN ('real', 'integer', 'null')")
        floats.append(expr)
        pairs.append(f"{_literal(name)}, {_MARK_SQL}")
    encoded = f"CASE WHEN {' AND '.join(checks)} THEN CAST(json_object({', '.join(pairs)}) AS BLOB) END"
    return encoded, floats


@functools.lru_cache(maxsize=8)
def _message_render(columns: tuple[tuple[str, str], ...]) -> RenderSelect | None:
    # Keyed by the columns as the file has them now, so a column a newer agent adds is picked up.
    built = _encoded(columns, "")
    if built is None:
        return None
    encoded, floats = built
    return RenderSelect(select=", ".join(["session_id", "id", encoded, *floats]), float_columns=len(floats))


@functools.lru_cache(maxsize=8)
def _session_render(columns: tuple[tuple[str, str], ...], last_active_sql: str) -> RenderSelect | None:
    built = _encoded(columns, "s.", (("last_active", last_active_sql),))
    if built is None:
        return None
    encoded, floats = built
    return RenderSelect(select=", ".join(["s.id", encoded, *floats]), float_columns=len(floats))


def fill_floats(data: bytes, values: list[Any]) -> bytes | None:
    """Replace the float markers in ``data`` by ``values`` in order; ``None`` if the markers do not match."""
    pieces = data.split(MARK_JSON)
    if len(pieces) != len(values) + 1:
        return None
    if not values:
        return data
    out = [b""] * (2 * len(pieces) - 1)
    out[0::2] = pieces
    out[1::2] = orjson.dumps(values)[1:-1].split(b",")  # numbers and null only: no comma inside a value
    return b"".join(out)
