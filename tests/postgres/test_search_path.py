"""The schema works under any ``search_path``: autovacuum analyzes our tables, and ``pg_dump`` restores.

Autovacuum's ``ANALYZE`` and ``pg_restore`` run with an empty ``search_path`` and evaluate every index
expression and predicate there; a function body that calls one of ours by name fails in both (revision
0021: every automatic analyze of ``messages`` failed on ``hs_has_cjk``, so its statistics never followed
the table's growth).
"""

from __future__ import annotations

import subprocess
from typing import Any

import psycopg
import pytest
from psycopg import errors as pg_errors

from app.storage.postgres.search_schema import has_cjk
from tests.postgres import revisions

_CONTENTS = ("plain english", "文件 and 光标", "カーソル", "naïve →", None, "한국어 파일")
_ROWS = [
    (("user", "assistant", "tool")[i % 3], _CONTENTS[i % 6], "検索" if i % 7 == 0 else None, float(i))
    for i in range(300)
]


def _fill(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO sessions (id, source, started_at, title) VALUES ('s', 'cli', 1.0, 'Ｔitle')"
        )
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO messages (session_id, role, content, tool_name, timestamp)"
                " VALUES ('s', %s, %s, %s, %s)",
                _ROWS,
            )


def _analyze_without_search_path(url: str) -> None:
    """``ANALYZE`` every table of the schema as autovacuum does: with an empty ``search_path``."""
    with psycopg.connect(url, autocommit=True) as conn:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT quote_ident(schemaname) || '.' || quote_ident(tablename) FROM pg_tables"
                " WHERE schemaname = current_schema()"
            )
        ]
        assert "public.messages" in tables
        conn.execute("SET search_path = ''")
        for table in tables:
            conn.execute(f"ANALYZE {table}")


def _cjk_rows(url: str) -> list[tuple[str | None, str | None]]:
    """The (content, tool name) of the messages ``hs_has_cjk`` picks, in id order."""
    with psycopg.connect(url, autocommit=True) as conn:
        return [
            (r[0], r[1])
            for r in conn.execute(
                "SELECT content, tool_name FROM messages"
                " WHERE hs_has_cjk(content, tool_name, tool_calls) ORDER BY id"
            )
        ]


_EXPECTED = [(c, t) for _, c, t, _ in _ROWS if has_cjk(c or "") or has_cjk(t or "")]


def test_every_table_analyzes_with_an_empty_search_path(pg_migrated_url: str) -> None:
    _fill(pg_migrated_url)
    _analyze_without_search_path(pg_migrated_url)
    with psycopg.connect(pg_migrated_url, autocommit=True) as conn:
        row = conn.execute("SELECT reltuples FROM pg_class WHERE relname = 'messages'").fetchone()
    assert row == (300.0,)


def test_a_dump_restores_into_an_empty_database(pg_cluster: Any, pg_migrated_url: str) -> None:
    _fill(pg_migrated_url)
    dump = subprocess.run(
        [str(pg_cluster.bin_dir / "pg_dump"), "--no-owner", "-d", pg_migrated_url],
        check=True,
        capture_output=True,
    ).stdout
    target = pg_cluster.create_database(prefix="restored")
    try:
        restore = subprocess.run(
            [str(pg_cluster.bin_dir / "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", target],
            input=dump,
            check=False,
            capture_output=True,
        )
        assert restore.returncode == 0, restore.stderr.decode(errors="replace")
        assert _cjk_rows(target) == _EXPECTED
        with psycopg.connect(target, autocommit=True) as conn:
            row = conn.execute("SELECT to_regclass('idx_messages_cjk') IS NOT NULL").fetchone()
        assert row == (True,)
    finally:
        pg_cluster.drop_database(target)


def test_revision_0021_makes_the_predicate_resolve_without_a_search_path(pg_migrated_url: str) -> None:
    _fill(pg_migrated_url)
    revisions.downgrade(pg_migrated_url, "0020_pg_list_index_waits")
    with pytest.raises(pg_errors.UndefinedFunction):
        _analyze_without_search_path(pg_migrated_url)
    revisions.upgrade(pg_migrated_url, "0021_pg_cjk_search_path")
    _analyze_without_search_path(pg_migrated_url)
    with psycopg.connect(pg_migrated_url, autocommit=True) as conn:
        row = conn.execute("SELECT to_regproc('hs_cjk_in') IS NULL").fetchone()
    assert row == (True,)
    assert _cjk_rows(pg_migrated_url) == _EXPECTED
