"""The sqlite3-style layer over psycopg: placeholder translation and rows by name or position."""

from __future__ import annotations

import pytest

from app.storage.postgres.connection import _row_class, to_psycopg


@pytest.mark.parametrize(
    ("sqlite_sql", "psycopg_sql"),
    [
        ("SELECT a FROM t WHERE id = ? AND b = ?", "SELECT a FROM t WHERE id = %s AND b = %s"),
        ("UPDATE t SET c = :value WHERE id = :id", "UPDATE t SET c = %(value)s WHERE id = %(id)s"),
        ("SELECT '?', ':x', '50%' WHERE a LIKE ?", "SELECT '?', ':x', '50%%' WHERE a ILIKE %s"),
        ('SELECT "odd?name" FROM t', 'SELECT "odd?name" FROM t'),
        ("SELECT x::text, CAST(y AS INTEGER) FROM t", "SELECT x::text, CAST(y AS BIGINT) FROM t"),
        ("REPLACE(c, X'0A', ' ')", "REPLACE(c, chr(10), ' ')"),
        ("SELECT * FROM s INDEXED BY idx_a WHERE 1", "SELECT * FROM s WHERE 1"),
        ("SELECT 'it''s ?'", "SELECT 'it''s ?'"),
    ],
)
def test_sqlite_placeholders_become_psycopg_ones(sqlite_sql: str, psycopg_sql: str) -> None:
    assert to_psycopg(sqlite_sql) == psycopg_sql


def test_rows_read_by_name_and_position_and_compare_as_tuples() -> None:
    row = _row_class(("id", "title"))(("s1", "T"))
    assert row["title"] == row[1] == "T"
    assert row == ("s1", "T")
    assert dict(row) == {"id": "s1", "title": "T"}
    assert tuple(row[0:1]) == ("s1",)
    assert row[-1] == "T"

    class Name(str):
        """A str subclass (an enum member's value, for instance) names a column as a str does."""

    assert row[Name("id")] == "s1"
    with pytest.raises(KeyError):
        row["missing"]
