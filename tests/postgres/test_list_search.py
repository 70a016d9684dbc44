"""The listing's search on PostgreSQL answers ``GET /sessions?q=`` exactly like the substring rule.

The twin of ``tests/search/test_list_index.py``'s differential test, on the same generated stores (ASCII
of both cases, CJK, Vietnamese, LIKE wildcards, quotes, newlines, compression lineages) and terms cut from
their text: every listing with ``q`` equals the plain listing filtered by "the shown id, title or preview
contains the term, ASCII letters folded", before and after the edits a listing must follow (a retitle, an
earlier user message, a rewind, a deletion). Terms of three characters or more go through the trigram
indexes' candidates (:func:`app.storage.postgres.search.list_candidates`), shorter ones through the scan.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings

from app.storage.postgres.connection import SqliteStyle, configure
from app.storage.postgres.search import list_search_filter
from app.storage.postgres.tx import PgTx
from app.storage.repos.list_index import MIN_TERM
from app.storage.rows import ListQuery
from tests.search.test_list_index import _edit, _insert, _shown_contains, stores

_LISTINGS: tuple[dict[str, Any], ...] = ({}, {"include_children": True}, {"order": "last_active"})


@pytest.fixture
def pg(pg_migrated_url: str) -> Iterator[psycopg.Connection[Any]]:
    """An autocommit connection to a fresh database at head, set up as the store's pool sets its own."""
    with psycopg.connect(pg_migrated_url, autocommit=True) as conn:
        configure(conn)
        yield conn


def _ids(pg: psycopg.Connection[Any], **kwargs: Any) -> list[dict[str, Any]]:
    with pg.transaction():
        return list(PgTx(pg).sessions.list_sessions_cached(ListQuery(limit=500, **kwargs)).items)  # type: ignore[arg-type]


def _check(pg: psycopg.Connection[Any], terms: list[str]) -> None:
    for term in terms:
        for kwargs in _LISTINGS:
            found = [item["id"] for item in _ids(pg, search=term, **kwargs)]
            expected = [item["id"] for item in _ids(pg, **kwargs) if _shown_contains(item, term)]
            assert found == expected, (term, kwargs)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=stores())
def test_the_listing_search_equals_the_substring_rule(pg: psycopg.Connection[Any], data: Any) -> None:
    rows, terms, compressed = data
    pg.execute("TRUNCATE sessions, messages CASCADE")
    conn: Any = SqliteStyle(pg)
    _insert(conn, rows, compressed)
    assert all(list_search_filter(pg, t, projecting=True).indexed for t in terms if len(t) >= MIN_TERM)
    _check(pg, terms)
    _edit(conn, rows, terms)
    _check(pg, terms)


def test_a_broad_term_keeps_the_scan(pg: psycopg.Connection[Any]) -> None:
    from app.storage.repos.list_index import MAX_CANDIDATES

    pg.execute(
        "INSERT INTO sessions (id, source, started_at, title)"
        " SELECT 's' || g, 'cli', g, 'common title ' || g FROM generate_series(1, %s) g",
        (MAX_CANDIDATES + 1,),
    )
    assert not list_search_filter(pg, "common", projecting=True).indexed
    assert list_search_filter(pg, "title 77", projecting=True).indexed
    # A long term: the index is asked for a few of its pieces, the listing checks the whole term.
    assert [item["id"] for item in _ids(pg, search="COMMON title 1000")] == ["s1000"]
    assert [item["id"] for item in _ids(pg, search="title 77")] == [
        f"s{n}"
        for n in sorted((n for n in range(1, MAX_CANDIDATES + 2) if "title 77" in f"title {n}"), reverse=True)
    ]


def test_a_term_with_exactly_the_most_candidates_uses_them(pg: psycopg.Connection[Any]) -> None:
    from app.storage.repos.list_index import MAX_CANDIDATES

    pg.execute(
        "INSERT INTO sessions (id, source, started_at, title)"
        " SELECT 'e' || g, 'cli', g, 'edge title ' || g FROM generate_series(1, %s) g",
        (MAX_CANDIDATES,),
    )
    found = list_search_filter(pg, "edge title", projecting=True)
    assert found.indexed and len(found.params[0]) == MAX_CANDIDATES
    pg.execute("INSERT INTO sessions (id, source, started_at, title) VALUES ('e0', 'cli', 0, 'edge title 0')")
    assert not list_search_filter(pg, "edge title", projecting=False).indexed
