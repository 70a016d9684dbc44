"""The SQL text each dialect's hooks write, pinned: repository statements are built from them, so a change
here changes every statement a backend receives."""

from __future__ import annotations

import pytest

from app.storage.dialect import SQLITE, Dialect, TableColumn
from app.storage.postgres.dialect import POSTGRES
from app.storage.sqlite.driver import sqlite3

_HOOKS = [
    (lambda d: d.p, "?", "%s"),
    (lambda d: d.pct, "%", "%%"),
    (lambda d: d.casefold_like, "LIKE", "ILIKE"),
    (lambda d: d.named("sid"), ":sid", "%(sid)s"),
    (lambda d: d.int64_cast("m.ts"), "CAST(m.ts AS INTEGER)", "CAST(m.ts AS BIGINT)"),
    (lambda d: d.index_hint("idx_m"), " INDEXED BY idx_m", ""),
    (lambda d: d.char(10), "X'0A'", "chr(10)"),
    (lambda d: d.json_text("s.doc", "$.a"), "json_extract(s.doc, '$.a')", "((s.doc)::jsonb #>> '{a}')"),
    (
        lambda d: d.json_text("s.doc", "$.a.b"),
        "json_extract(s.doc, '$.a.b')",
        "((s.doc)::jsonb #>> '{a,b}')",
    ),
    (lambda d: d.json_is_valid("x"), "json_valid(x)", "(hs_json_or_null(x) IS NOT NULL)"),
    (lambda d: d.json_kind("x"), "json_type(x)", "jsonb_typeof((x)::jsonb)"),
    (lambda d: d.json_array_len("x"), "json_array_length(x)", "jsonb_array_length((x)::jsonb)"),
]


@pytest.mark.parametrize(("hook", "sqlite_text", "postgres_text"), _HOOKS)
def test_each_dialect_writes_its_own_text(hook: object, sqlite_text: str, postgres_text: str) -> None:
    assert callable(hook)
    assert hook(SQLITE) == sqlite_text
    assert hook(POSTGRES) == postgres_text


def test_dialects_compare_and_hash_by_name() -> None:
    assert SQLITE != POSTGRES
    assert {SQLITE: 1, POSTGRES: 2}[SQLITE] == 1
    assert repr(SQLITE) == "<Dialect sqlite>"
    assert repr(POSTGRES) == "<Dialect postgresql>"
    assert all(isinstance(d, Dialect) for d in (SQLITE, POSTGRES))


def test_sqlite_table_columns_read_the_declared_schema() -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE t (id INTEGER NOT NULL, note TEXT DEFAULT 'x', raw)")
    assert SQLITE.table_columns(conn, "t") == [
        TableColumn("id", "INTEGER", True, None),
        TableColumn("note", "TEXT", False, "'x'"),
        TableColumn("raw", "", False, None),
    ]
