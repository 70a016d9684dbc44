"""The scan of a one- or two-character CJK term reads only the rows holding a CJK character
(``idx_messages_cjk``), and finds what the scan of every row finds.

The index's predicate (``hs_has_cjk``) and the term's test (``search_schema.has_cjk``) must agree: were
the predicate to leave out a character a term may hold, the scan would miss the rows holding it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.services.search import hit_budget
from app.storage.postgres.connection import configure
from app.storage.postgres.search import PgHits
from app.storage.postgres.search_schema import CJK_RANGES, CJK_ROWS, has_cjk
from app.storage.rows import HitFilter
from tests.postgres import revisions

_EDGES = "".join(chr(c) for low, high in CJK_RANGES for c in (low - 1, low, high, high + 1))
_TEXT = st.text(alphabet=st.sampled_from(f"aZ 1.é→😀文件光标ひカ한。Ａ{_EDGES}"), max_size=12)


@pytest.fixture
def pg(pg_migrated_url: str) -> Iterator[psycopg.Connection[Any]]:
    """An autocommit connection to a fresh database at head, set up as the store's pool sets its own."""
    with psycopg.connect(pg_migrated_url, autocommit=True) as conn:
        configure(conn)
        yield conn


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=st.one_of(st.none(), _TEXT), tool_name=st.one_of(st.none(), _TEXT), calls=_TEXT)
def test_the_indexes_predicate_is_the_terms_test(
    pg: psycopg.Connection[Any], content: str | None, tool_name: str | None, calls: str
) -> None:
    expected = any(has_cjk(text or "") for text in (content, tool_name, calls))
    row = pg.execute("SELECT hs_has_cjk(%s, %s, %s)", (content, tool_name, calls)).fetchone()
    assert row == (expected,)


def _corpus(pg: psycopg.Connection[Any]) -> list[tuple[int, str]]:
    rng = random.Random(11)
    pieces = ["plain english", "文件", "光标 moves", "文", "件", "カーソル", "한국어 파일", "Ａ", "naïve →"]
    pg.execute("INSERT INTO sessions (id, source, started_at) VALUES ('s', 'cli', 1.0)")
    rows = [" ".join(rng.choice(pieces) for _ in range(rng.randint(1, 3))) for _ in range(3000)]
    with pg.cursor() as cur:
        cur.executemany(
            "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('s', 'user', %s, 1.0)",
            [(r,) for r in rows],
        )
    pg.execute("VACUUM ANALYZE messages")
    return [(int(i), str(c)) for i, c in pg.execute("SELECT id, content FROM messages ORDER BY id DESC")]


_QUERIES = {
    "文件": lambda c: "文件" in c,
    "光标": lambda c: "光标" in c,
    "文": lambda c: "文" in c,
    "한": lambda c: "한" in c,
    "Ａ": lambda c: "Ａ" in c,
    "ソ": lambda c: "ソ" in c,
    "文件 OR 光标": lambda c: "文件" in c or "光标" in c,
    "文件 NOT 光标": lambda c: "文件" in c and "光标" not in c,
}


@pytest.mark.parametrize("query", list(_QUERIES))
def test_a_cjk_scan_reads_the_cjk_rows_and_finds_every_match(pg: psycopg.Connection[Any], query: str) -> None:
    rows = _corpus(pg)
    hits = PgHits(pg, query, "newest", hit_budget())
    assert not hits.indexed and hits.condition.startswith(CJK_ROWS)
    found = [hit.id for hit in hits.hits(HitFilter())]
    assert found == [i for i, c in rows if _QUERIES[query](c)]
    plan = pg.execute(
        f"EXPLAIN SELECT m.id FROM messages m WHERE m.id >= 0 AND m.id < %s AND {hits.condition}",
        (rows[0][0] + 1, *hits.params),
    ).fetchall()
    assert "idx_messages_cjk" in " ".join(str(r[0]) for r in plan)


def test_revision_0018_adds_the_index_and_its_downgrade_drops_it(pg_migrated_url: str) -> None:
    def present() -> bool:
        with psycopg.connect(pg_migrated_url, autocommit=True) as conn:
            row = conn.execute(
                "SELECT to_regclass('idx_messages_cjk') IS NOT NULL AND to_regproc('hs_has_cjk') IS NOT NULL"
            ).fetchone()
            return row == (True,)

    assert present()
    revisions.downgrade(pg_migrated_url, "0017_pg_list_text")
    assert not present()
    revisions.upgrade(pg_migrated_url, "0018_pg_cjk_rows")
    assert present()
