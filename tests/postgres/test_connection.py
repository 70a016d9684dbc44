"""The repositories' connection over psycopg: statements pass as written, rows by name or position."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from app.storage.dialect import dialect_of
from app.storage.postgres.connection import PgConnection, _row_class
from tests.postgres import revisions


class _Recorder:
    """A psycopg connection and cursor that only record what they were asked to run."""

    def __init__(self) -> None:
        self.ran: list[tuple[str, Any]] = []

    def cursor(self, **_: Any) -> _Recorder:
        return self

    def execute(self, sql: str, params: Any = None) -> None:
        self.ran.append((sql, params))

    def executemany(self, sql: str, rows: Any) -> None:
        self.ran.append((sql, rows))


def test_statements_reach_psycopg_as_written() -> None:
    pg = _Recorder()
    conn = PgConnection(pg)  # type: ignore[arg-type]
    d = dialect_of(conn)
    sql = f"SELECT '?', ':x', '50{d.pct}' FROM t WHERE a {d.casefold_like} {d.p} AND b = {d.named('b')}"
    conn.execute(sql, ("x",))
    conn.executemany(sql, [("y",)])
    assert [ran[0] for ran in pg.ran] == [sql, sql]
    assert sql == "SELECT '?', ':x', '50%%' FROM t WHERE a ILIKE %s AND b = %(b)s"


def test_rows_read_by_name_and_position_and_compare_as_tuples() -> None:
    row = _row_class(("id", "title"))(("s1", "T"))
    assert row["title"] == row[1] == "T"
    assert dict(row) == {"id": "s1", "title": "T"}
    assert tuple(row[0:1]) == ("s1",)
    assert row[-1] == "T"

    class Name(str):
        """A str subclass (an enum member's value, for instance) names a column as a str does."""

    assert row[Name("id")] == "s1"
    with pytest.raises(KeyError):
        row["missing"]
    # Last: mypy narrows ``row`` to the tuple it equals, which has no names.
    assert row == ("s1", "T")


def test_revision_0027_swaps_the_sqlite_imitations_for_hs_json_or_null(pg_migrated_url: str) -> None:
    imitations = ("json_valid(text)", "json_extract(text,text)", "json_type(text)", "json_array_length(text)")

    def present() -> list[str]:
        with psycopg.connect(pg_migrated_url, autocommit=True) as conn:
            return [
                name
                for name in (*imitations, "hs_json_or_null(text)")
                if conn.execute("SELECT to_regprocedure(%s) IS NOT NULL", (name,)).fetchone() == (True,)
            ]

    assert present() == ["hs_json_or_null(text)"]
    revisions.downgrade(pg_migrated_url, "0026_pg_no_window_matches")
    assert present() == list(imitations)
    revisions.upgrade(pg_migrated_url, "0027_pg_json_or_null")
    assert present() == ["hs_json_or_null(text)"]


def test_hs_json_or_null_answers_null_where_the_text_is_not_json(pg_migrated_url: str) -> None:
    with psycopg.connect(pg_migrated_url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT hs_json_or_null('{\"a\": [1]}'), hs_json_or_null('{'), hs_json_or_null(NULL),"
            " hs_json_or_null('null') IS NOT NULL"
        ).fetchone()
    assert row == ({"a": [1]}, None, None, True)
