"""PostgreSQL's values of :class:`app.storage.dialect.Dialect`, for psycopg's client-side placeholders."""

from __future__ import annotations

from typing import Any

from app.storage.dialect import Dialect, TableColumn

# PostgreSQL's types of the agent's columns, named as the agent's SQLite schema declares them (import and
# export convert values by the declared type, as SQLite's affinity rules do).
_DECLARED = {
    "bigint": "INTEGER",
    "integer": "INTEGER",
    "smallint": "INTEGER",
    "double precision": "REAL",
    "real": "REAL",
    "text": "TEXT",
    "bytea": "BLOB",
}

HIDDEN_COLUMNS = frozenset({"search_vector", "hs_search_ready", "hidden", "last_activity_at"})
"""Columns that are not part of the agent's schema-22 rows, so ``SELECT *`` through a
:class:`app.storage.postgres.connection.PlainCursor` and ``POSTGRES.table_columns`` leave them out
(exports stay the agent's lines): what the server computes for search, and the two flags of newer agents'
files that revision 0023 keeps beside them (read and written by name, see
:data:`app.storage.postgres.shape.PG_SHAPE`)."""

_COLUMNS_SQL = (
    "SELECT column_name, data_type, is_nullable = 'NO',"
    " CASE WHEN is_identity = 'YES' THEN NULL ELSE column_default END"
    " FROM information_schema.columns"
    " WHERE table_schema = current_schema() AND table_name = %s AND is_generated = 'NEVER'"
    " ORDER BY ordinal_position"
)


def _columns(conn: Any, table: str) -> list[TableColumn]:
    # From information_schema, types named as the agent's SQLite schema declares them.
    return [
        TableColumn(name, _DECLARED.get(kind, kind.upper()), bool(notnull), default)
        for name, kind, notnull, default in conn.execute(_COLUMNS_SQL, (table,))
        if name not in HIDDEN_COLUMNS
    ]


# psycopg's client-side placeholders: a literal % is doubled, since statements always go with their
# parameters (an empty tuple too).
POSTGRES = Dialect(
    name="postgresql",
    p="%s",
    pct="%%",
    casefold_like="ILIKE",
    named_template="%({name})s",
    # integer is 32-bit here.
    int64_type="BIGINT",
    # The planner picks the index by itself.
    index_hint_template="",
    char_template="chr({code})",
    json_text_template="(({doc})::jsonb #>> '{{{keys}}}')",
    # hs_json_or_null answers NULL where the text does not parse.
    json_is_valid_template="(hs_json_or_null({doc}) IS NOT NULL)",
    json_kind_template="jsonb_typeof(({doc})::jsonb)",
    json_array_len_template="jsonb_array_length(({doc})::jsonb)",
    table_columns=_columns,
)
