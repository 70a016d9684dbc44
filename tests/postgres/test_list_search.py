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
from hypothesis import strategies as st

from app.storage.postgres import search
from app.storage.postgres.connection import PgConnection, configure
from app.storage.postgres.dialect import POSTGRES
from app.storage.postgres.list_stats import ListStats, TextSample, list_stats
from app.storage.postgres.search import list_candidates, list_search_filter
from app.storage.postgres.search_schema import (
    LIST_INDEXED_ROWS,
    LIST_PREVIEW_TEXT,
    LIST_SESSION_TEXT,
    LIST_TEXT,
)
from app.storage.postgres.tx import PgTx
from app.storage.repos.list_index import MIN_TERM
from app.storage.repos.sessions import preview_raw_sql
from app.storage.rows import ListQuery, SessionRow
from tests.postgres import revisions
from tests.search.test_list_index import _edit, _insert, _shown_contains, stores

_LISTINGS: tuple[dict[str, Any], ...] = ({}, {"include_children": True}, {"order": "last_active"})


@pytest.fixture
def pg(pg_migrated_url: str) -> Iterator[psycopg.Connection[Any]]:
    """An autocommit connection to a fresh database at head, set up as the store's pool sets its own."""
    with psycopg.connect(pg_migrated_url, autocommit=True) as conn:
        configure(conn)
        yield conn


def _ids(pg: psycopg.Connection[Any], **kwargs: Any) -> list[SessionRow]:
    with pg.transaction():
        return list(PgTx(pg).sessions.list_sessions_cached(ListQuery(limit=500, **kwargs)).items)


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
    conn: Any = PgConnection(pg)
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
    # No statistics yet: the listing's statement looks the candidates up, finds too many, admits nothing,
    # and the listing settles on the scan.
    assert list_search_filter(pg, "common", projecting=True).settle is not None
    assert list_candidates(pg, "common", projecting=True) is None
    assert search._settled_filter(pg, "common", projecting=True) == search._scan("common", projecting=True)
    listed = [item["id"] for item in _ids(pg, search="common")]
    assert listed == [f"s{n}" for n in range(MAX_CANDIDATES + 1, MAX_CANDIDATES + 1 - 500, -1)]
    assert list_candidates(pg, "title 77", projecting=True) is not None
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
    found = search._settled_filter(pg, "edge title", projecting=True)
    assert found.indexed and len(found.params[0]) == MAX_CANDIDATES
    assert len(_ids(pg, search="edge title")) == 500
    pg.execute("INSERT INTO sessions (id, source, started_at, title) VALUES ('e0', 'cli', 0, 'edge title 0')")
    assert not search._settled_filter(pg, "edge title", projecting=False).indexed
    assert len(_ids(pg, search="edge title")) == 500


def test_candidates_other_filters_drop_settle_on_no_rows(pg: psycopg.Connection[Any]) -> None:
    pg.execute(
        "INSERT INTO sessions (id, source, started_at, title, archived)"
        " VALUES ('a', 'cli', 1, 'hidden one', 1)"
    )
    # The listing's own candidates admit the archived session, the listing drops it, and settling (a
    # statement of its own) finds the same candidate: the page is empty, not an error, not the scan.
    assert _ids(pg, search="hidden") == []
    assert [item["id"] for item in _ids(pg, search="hidden", include_archived=True)] == ["a"]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\x00"), max_size=40))
def test_the_terms_map_is_the_indexes_map(pg: psycopg.Connection[Any], text: str) -> None:
    # A term is mapped in Python, the indexed text in SQL: were they to differ, a term would miss its text.
    assert pg.execute("SELECT hs_list_text(%s)", (text,)).fetchone() == (text.translate(LIST_TEXT),)


def _index_rows(pg: psycopg.Connection[Any], sql: str, pattern: str, index: str) -> int:
    """The rows ``index`` itself gives for ``sql`` (before the rows are checked)."""
    pg.execute("SET enable_seqscan = off")
    try:
        ((plan,),) = pg.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}", (pattern,)).fetchall()
    finally:
        pg.execute("RESET enable_seqscan")
    nodes = [plan[0]["Plan"]]
    while nodes:
        node = nodes.pop()
        if node.get("Index Name") == index:
            return int(node["Actual Rows"])
        nodes.extend(node.get("Plans", []))
    raise AssertionError(f"{index} not used: {plan}")


def test_spaces_and_punctuation_narrow_the_candidates(pg: psycopg.Connection[Any]) -> None:
    # Every session holds the words "here", "s" and "an"; one holds them as "Here's an". Plain pg_trgm keeps
    # letters and digits only, so its index gives every session, and each must be read to be ruled out.
    pg.execute(
        "INSERT INTO sessions (id, source, started_at, title)"
        " SELECT 'w' || g, 'cli', g, 'an s here ' || g FROM generate_series(1, 200) g"
    )
    pg.execute(
        "INSERT INTO sessions (id, source, started_at, title) VALUES ('hit', 'cli', 0, 'So: Here''s an idea')"
    )
    pg.execute(
        "INSERT INTO messages (session_id, role, content, timestamp)"
        " SELECT 'w' || (g % 200 + 1), 'user', 'see app storage py ' || g, 1 FROM generate_series(1, 4000) g"
    )
    pg.execute(
        "INSERT INTO messages (session_id, role, content, timestamp)"
        " VALUES ('hit', 'user', 'app/storage.py', 1)"
    )
    # As the leader keeps them: the new entries merged out of the pending lists, which the planner prices.
    pg.execute("VACUUM ANALYZE sessions, messages")
    term = "%" + "Here's an".translate(LIST_TEXT) + "%"
    sessions = f"SELECT id FROM sessions WHERE {LIST_SESSION_TEXT} ILIKE %s"
    assert _index_rows(pg, sessions, term, "idx_sessions_list_text_trgm") == 1
    path = "%" + "/storage.".translate(LIST_TEXT) + "%"
    messages = f"SELECT id FROM messages WHERE {LIST_INDEXED_ROWS} AND {LIST_PREVIEW_TEXT} ILIKE %s"
    assert _index_rows(pg, messages, path, "idx_messages_list_text_trgm") == 1
    assert list_candidates(pg, "here's an", projecting=False) == ["hit"]
    assert [item["id"] for item in _ids(pg, search="here's AN")] == ["hit"]
    assert [item["id"] for item in _ids(pg, search="APP/STORAGE.")] == ["hit"]


def test_a_settled_filter_holds_its_candidates(pg: psycopg.Connection[Any]) -> None:
    pg.execute(
        "INSERT INTO sessions (id, source, started_at, title) VALUES ('one', 'cli', 1, 'a lonely title')"
    )
    found = search._settled_filter(pg, "lonely", projecting=False)
    assert found.indexed and found.params[0] == ["one"]
    none = search._settled_filter(pg, "absent", projecting=False)
    assert none.indexed and none.clause == "FALSE"
    assert _ids(pg, search="absent") == []


def test_the_scan_keeps_one_generic_plan(pg: psycopg.Connection[Any]) -> None:
    # A term in every row: with its pattern visible to the planner, every custom plan of a short page
    # looked cheaper than the generic one, and the prepared listing was planned again on each call.
    pg.execute(
        "INSERT INTO sessions (id, source, started_at, title)"
        " SELECT 'wide' || g, 'cli', g, 'wide title ' || g FROM generate_series(1, 3000) g"
    )
    pg.execute(
        "INSERT INTO messages (session_id, role, content, timestamp)"
        " SELECT 'wide' || (g % 3000 + 1), 'user', 'a question ' || g, g FROM generate_series(1, 12000) g"
    )
    pg.execute("ANALYZE sessions, messages")
    # psycopg prepares a statement on its fifth run; PostgreSQL plans the first five runs of it custom.
    query = ListQuery(limit=20, search="wi", include_children=True)
    for _ in range(20):
        with pg.transaction():
            page = PgTx(pg).sessions.list_sessions_cached(query)
        assert [item["id"] for item in page.items] == [f"wide{n}" for n in range(3000, 2980, -1)]
    plans = pg.execute(
        "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE %s",
        ("%ESCAPE%",),
    ).fetchall()
    assert len(plans) == 1 and plans[0][0] > plans[0][1], plans


def test_a_sample_estimates_the_rows_holding_every_piece() -> None:
    sessions = TextSample((("abc def", 0.5), ("abc", 0.25), ("xyz", 0.25)), rows=1000)
    previews = TextSample((("abc def", 1.0),), rows=10)
    stats = ListStats(sessions, previews)
    assert stats.matches(["ABC"]) == 750 + 10
    assert stats.matches(["abc", "def"]) == 500 + 10
    assert stats.matches(["nothing"]) == 0


@given(
    texts=st.lists(st.tuples(st.text("ab \x01", max_size=6), st.floats(0, 1)), max_size=8),
    pieces=st.lists(st.text("ab \x01", min_size=1, max_size=3), max_size=3),
    beyond=st.floats(0, 100),
)
def test_a_sample_counts_each_text_holding_every_piece_once(
    texts: list[tuple[str, float]], pieces: list[str], beyond: float
) -> None:
    expected = 10 * sum(share for text, share in texts if all(p in text for p in pieces))
    sample = TextSample(texts, rows=10)
    assert sample.matches(pieces) == pytest.approx(expected)
    # Counting stops past a bound: the answer is exact up to it, and past it whenever the full count is.
    bounded = sample.matches(pieces, beyond)
    if expected <= beyond:
        assert bounded == pytest.approx(expected)
    else:
        assert beyond < bounded <= expected + 1e-9


def test_the_estimate_stops_counting_past_its_bound() -> None:
    shares = [(f"common {n}", 1 / 64) for n in range(64)]
    seen: list[int] = []

    class Counted(TextSample):
        def _holding(self, piece: str) -> Iterator[int]:
            for index in super()._holding(piece):
                seen.append(index)
                yield index

    stats = ListStats(Counted(shares, rows=1024), TextSample([], 0.0))
    assert stats.matches(["common"], beyond=100) == 112  # each text stands for 16 rows
    assert len(seen) == 7
    assert stats.matches(["common"]) == 1024


def test_a_term_the_statistics_call_broad_skips_the_candidates(
    pg: psycopg.Connection[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    pg.execute(
        "INSERT INTO sessions (id, source, started_at, title)"
        " SELECT 'b' || g, 'cli', g, 'broad title ' || g FROM generate_series(1, 5000) g"
    )
    pg.execute("INSERT INTO sessions (id, source, started_at, title) VALUES ('x', 'cli', 0, 'one of a kind')")
    pg.execute("ANALYZE sessions, messages")
    stats = list_stats(pg)
    assert stats is not None and stats.matches(["broad"]) > 4000
    asked: list[str] = []
    real = search.list_candidates

    def candidates(conn: psycopg.Connection[Any], term: str, projecting: bool) -> list[str] | None:
        asked.append(term)
        return real(conn, term, projecting)

    monkeypatch.setattr(search, "list_candidates", candidates)
    assert list_search_filter(pg, "BROAD TITLE", projecting=True) == search._scan("BROAD TITLE", True)
    assert list_search_filter(pg, "of a kind", projecting=True).settle is not None
    assert [item["id"] for item in _ids(pg, search="broad title 4999")] == ["b4999"]
    assert [item["id"] for item in _ids(pg, search="of a kind")] == ["x"]
    assert asked == []  # neither term needed a candidate statement of its own


def test_revision_0017_swaps_the_preview_index_and_its_downgrade_restores_it(pg_migrated_url: str) -> None:
    def indexes() -> set[str]:
        with psycopg.connect(pg_migrated_url, autocommit=True) as conn:
            names = (
                "idx_messages_list_preview_trgm",
                "idx_messages_list_text_trgm",
                "idx_sessions_list_text_trgm",
            )
            found = {n for n in names if conn.execute("SELECT to_regclass(%s)", (n,)).fetchone() != (None,)}
            if conn.execute("SELECT to_regproc('hs_list_text')").fetchone() != (None,):
                found.add("hs_list_text")
            return found

    new = {"idx_messages_list_text_trgm", "idx_sessions_list_text_trgm", "hs_list_text"}
    assert indexes() == new
    revisions.downgrade(pg_migrated_url, "0016_pg_window_matches")
    assert indexes() == {"idx_messages_list_preview_trgm"}
    revisions.upgrade(pg_migrated_url, "0017_pg_list_text")
    assert indexes() == new


def test_the_preview_is_read_through_its_index_in_order(pg: psycopg.Connection[Any]) -> None:
    pg.execute(
        "INSERT INTO sessions (id, source, started_at)"
        " SELECT 'p' || g, 'cli', g FROM generate_series(1, 400) g"
    )
    # Each session opens with a system message, then two user messages at one timestamp, the later id
    # written first: the preview is the lower id's.
    pg.execute(
        "INSERT INTO messages (id, session_id, role, content, timestamp)"
        " SELECT 10 * g + n, 'p' || g, CASE n WHEN 1 THEN 'system' ELSE 'user' END,"
        " CASE n WHEN 1 THEN 'be brief' WHEN 2 THEN 'first ' || g ELSE 'second ' || g END,"
        " CASE n WHEN 1 THEN 0 ELSE 1 END"
        " FROM generate_series(1, 400) g, (VALUES (1), (3), (2)) v(n)"
    )
    pg.execute("ANALYZE sessions, messages")
    assert [item["preview"] for item in _ids(pg)[:2]] == ["first 400", "first 399"]
    plan = " ".join(
        str(row[0])
        for row in PgConnection(pg)
        .execute(
            f"EXPLAIN SELECT {preview_raw_sql(POSTGRES).format(a='s')} FROM sessions s WHERE s.id = 'p1'"
        )
        .fetchall()
    )
    assert "idx_hs_messages_preview" in plan and "Sort" not in plan, plan


def test_revision_0019_adds_the_preview_index_and_its_downgrade_drops_it(pg_migrated_url: str) -> None:
    def present() -> bool:
        with psycopg.connect(pg_migrated_url, autocommit=True) as conn:
            return conn.execute("SELECT to_regclass('idx_hs_messages_preview')").fetchone() != (None,)

    assert present()
    revisions.downgrade(pg_migrated_url, "0018_pg_cjk_rows")
    assert not present()
    revisions.upgrade(pg_migrated_url, "0019_pg_preview_index")
    assert present()


def test_revision_0020_leaves_waiting_rows_out_of_the_index_and_its_downgrade_takes_them_back(
    pg_migrated_url: str,
) -> None:
    def waits() -> bool:
        with psycopg.connect(pg_migrated_url, autocommit=True) as conn:
            row = conn.execute(
                "SELECT pg_get_indexdef('idx_messages_list_text_trgm'::regclass) LIKE '%hs_search_ready = 1%'"
            ).fetchone()
            return row == (True,)

    assert waits()
    revisions.downgrade(pg_migrated_url, "0019_pg_preview_index")
    assert not waits()
    revisions.upgrade(pg_migrated_url, "0020_pg_list_index_waits")
    assert waits()


def _backlog_branch_scans(pg: psycopg.Connection[Any], term: str) -> list[tuple[str, int]]:
    """The scans of ``messages`` in the waiting rows' branch of the candidates for ``term`` (node type,
    loops), from the executed plan."""
    found = search._found_sql(1, "%s")
    pattern = f"%{term}%"
    ((plan,),) = pg.execute(
        f"EXPLAIN (ANALYZE, FORMAT JSON) {found}", (pattern, pattern, pattern, 1001)
    ).fetchall()
    append = plan[0]["Plan"]["Plans"][0]
    assert append["Node Type"] == "Append", append
    branch, scans = append["Plans"][2], []
    nodes = [branch]
    while nodes:
        node = nodes.pop()
        if node.get("Relation Name") == "messages":
            scans.append((node["Node Type"], int(node["Actual Loops"])))
        nodes.extend(node.get("Plans", []))
    return scans


def test_waiting_rows_are_read_through_the_backlogs_runs_whatever_the_statistics(
    pg: psycopg.Connection[Any],
) -> None:
    # Statistics taken while a big batch waited (the leader analyzes during a sync), read once it is
    # indexed: planned from them, the branch started from every user message and probed the runs for each
    # (60 ms a call on the 100,000-message store with the backlog empty). Driven by the runs, it reads
    # nothing when there are none, and only the runs' rows when there are.
    pg.execute("INSERT INTO sessions (id, source, started_at) VALUES ('w', 'cli', 1)")
    pg.execute(
        "INSERT INTO messages (session_id, role, content, timestamp, hs_search_ready)"
        " SELECT 'w', 'user', 'waiting question ' || g, g, 0 FROM generate_series(1, 6000) g"
    )
    pg.execute(
        "INSERT INTO hs_fts_backlog (first_id, last_id, queued_at)"
        " SELECT min(id) + 300 * k, min(id) + 300 * k + 299, 0"
        " FROM messages, generate_series(0, 19) k GROUP BY k"
    )
    pg.execute("ANALYZE messages, hs_fts_backlog")
    assert _backlog_branch_scans(pg, "zzqx")  # the runs are walked while they exist
    pg.execute("UPDATE messages SET hs_search_ready = 1")
    pg.execute("DELETE FROM hs_fts_backlog")
    assert all(loops == 0 for _, loops in _backlog_branch_scans(pg, "zzqx"))
