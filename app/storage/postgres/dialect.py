"""PostgreSQL's hooks of :class:`app.storage.dialect.Dialect`, for psycopg's client-side placeholders."""

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
:class:`app.storage.postgres.connection.PlainCursor` and :meth:`PostgresDialect.table_columns` leave them out
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


class PostgresDialect(Dialect):
    """PostgreSQL's SQL with psycopg's placeholders (a literal ``%`` is doubled: statements always go with
    their parameters, an empty tuple too)."""

    __slots__ = ()
    name = "postgresql"
    p = "%s"
    pct = "%%"
    casefold_like = "ILIKE"

    def named(self, name: str) -> str:
        """``%(name)s``."""
        return f"%({name})s"

    def int64_cast(self, expr: str) -> str:
        """``bigint`` (``integer`` is 32-bit here)."""
        return f"CAST({expr} AS BIGINT)"

    def index_hint(self, index: str) -> str:
        """Nothing: the planner picks the index by itself."""
        return ""

    def char(self, code: int) -> str:
        """``chr``."""
        return f"chr({code})"

    def json_text(self, doc: str, path: str) -> str:
        """``#>>`` on the text cast to ``jsonb``."""
        keys = ",".join(path.removeprefix("$.").split("."))
        return f"(({doc})::jsonb #>> '{{{keys}}}')"

    def json_is_valid(self, doc: str) -> str:
        """Through ``hs_json_or_null``, which answers NULL where the text does not parse."""
        return f"(hs_json_or_null({doc}) IS NOT NULL)"

    def json_kind(self, doc: str) -> str:
        """``jsonb_typeof``."""
        return f"jsonb_typeof(({doc})::jsonb)"

    def json_array_len(self, doc: str) -> str:
        """``jsonb_array_length``."""
        return f"jsonb_array_length(({doc})::jsonb)"

    def table_columns(self, conn: Any, table: str) -> list[TableColumn]:
        """From ``information_schema``, types named as the agent's SQLite schema declares them."""
        return [
            TableColumn(name, _DECLARED.get(kind, kind.upper()), bool(notnull), default)
            for name, kind, notnull, default in conn.execute(_COLUMNS_SQL, (table,))
            if name not in HIDDEN_COLUMNS
        ]


POSTGRES: Dialect = PostgresDialect()
