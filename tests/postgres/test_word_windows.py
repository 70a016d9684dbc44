"""Relevance tiers read through a window of ids (``hs_window_matches``), chosen from the word statistics
(``word_stats``): the same rows as the primary-key walk, whatever the window, and the same hits in the same
order as the walk, tier after tier; the statistics estimate ``@@`` as PostgreSQL's planner does."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.domain.fts_query import plan
from app.services.search import hit_budget
from app.storage.postgres import migrate
from app.storage.postgres import search as pg_search
from app.storage.postgres.connection import configure
from app.storage.postgres.search import PgSearch, tsquery_text, word_tree
from app.storage.postgres.word_stats import fold, word_stats
from app.storage.rows import HitFilter
from tests.postgres import revisions

_NO_ID_LIMIT = 2**63 - 1
# Words by the share of messages holding them: a common one, a few mid-frequency ones, a rare one.
_SHARES = {"omnium": 0.6, "gamma": 0.05, "delta": 0.03, "epsilon": 0.08, "zeta": 0.004}


def _corpus(url: str, messages: int = 4000) -> psycopg.Connection[Any]:
    migrate.upgrade(url)
    conn = psycopg.connect(url, autocommit=True)
    configure(conn)
    rng = random.Random(7)
    conn.execute(
        "INSERT INTO sessions (id, source, started_at) VALUES ('cli', 'cli', 1.0), ('tg', 'telegram', 1.0)"
    )
    rows = []
    for i in range(messages):
        words = [w for w, share in _SHARES.items() if rng.random() < share]
        words += [w for w in words if rng.random() < 0.5]  # repeated words rank higher
        rows.append(("cli" if i % 3 else "tg", "tool" if i % 7 == 0 else "user", " ".join(words) or "filler"))
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO messages (session_id, role, content, timestamp) VALUES (%s, %s, %s, 1.0)", rows
        )
    # Rows the background indexer has not reached yet are in no window and no walk.
    conn.execute("UPDATE messages SET hs_search_ready = 0 WHERE id % 97 = 0")
    conn.execute("ANALYZE messages")
    return conn


def _walked(conn: psycopg.Connection[Any], query: str, below: int, n: int) -> list[int]:
    return [
        int(r[0])
        for r in conn.execute(
            "SELECT id FROM messages m WHERE hs_search_ready = 1"
            " AND search_vector @@ to_tsquery('hs_search', %s) AND id < %s ORDER BY id DESC LIMIT %s",
            (query, below, n),
        )
    ]


def test_a_window_returns_the_walks_rows_wherever_it_starts(pg_url: str) -> None:
    with _corpus(pg_url) as conn:
        for word in ("'gamma'", "'delta' | 'zeta'", "'epsilon' & !'gamma'", "'omnium' <-> 'omnium'"):
            for below in (_NO_ID_LIMIT, 4001, 2500, 30):
                for n in (1, 40, 500):
                    # Windows too small (a walk completes them), too big, past the top and empty.
                    for floor_id in (below - 10, 3900, 1000, 1, -5, 5000, 2**62):
                        window = [
                            int(r[0])
                            for r in conn.execute(
                                "SELECT id FROM hs_window_matches(to_tsquery('hs_search', %s), %s, %s, %s)",
                                (word, floor_id, below, n),
                            )
                        ]
                        assert window == _walked(conn, word, below, n), (word, below, n, floor_id)
        assert conn.execute("SHOW enable_indexscan").fetchone() == ("on",)


def test_the_setting_is_restored_when_the_window_fails(pg_url: str) -> None:
    with _corpus(pg_url, messages=50) as conn:
        with pytest.raises(psycopg.errors.QueryCanceled):
            conn.execute("SET statement_timeout = 1")
            conn.execute("SELECT count(*) FROM hs_window_matches('gamma', 1, 100, 10), pg_sleep(0.05)")
        conn.execute("RESET statement_timeout")
        assert conn.execute("SHOW enable_indexscan").fetchone() == ("on",)


@pytest.mark.parametrize(
    "query", ["gamma", "zeta", "omnium", "gamma delta", "gamma OR zeta", "epsilon NOT gamma", '"gamma delta"']
)
def test_the_estimate_is_the_planners(pg_url: str, query: str) -> None:
    with _corpus(pg_url) as conn:
        stats = word_stats(conn)
        assert stats is not None
        planned = plan(query)
        tree = word_tree(planned.match, planned.fallback)
        assert tree is not None
        explained = conn.execute(
            "EXPLAIN (FORMAT JSON) SELECT 1 FROM messages m"
            " WHERE search_vector @@ to_tsquery('hs_search', %s)",
            (tsquery_text(tree),),
        ).fetchone()
        assert explained is not None
        assert stats.matches(tree) == pytest.approx(explained[0][0]["Plan"]["Plan Rows"], rel=0.02, abs=1)


def test_no_statistics_before_analyze(pg_url: str) -> None:
    migrate.upgrade(pg_url)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        configure(conn)
        assert word_stats(conn) is None


@pytest.mark.parametrize("word", ["Café", "NAÏVE", "Straße", "Tiếng", "ÅNGSTRÖM"])
def test_words_fold_as_the_search_configuration_folds_them(pg_url: str, word: str) -> None:
    migrate.upgrade(pg_url)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        configure(conn)
        row = conn.execute("SELECT to_tsvector('hs_search', %s)::text", (word,)).fetchone()
        assert row is not None
        stored = row[0].split(":")[0].strip("'")
        # unaccent also expands ligatures and a few letters (ß to ss): the estimate then misses the lexeme,
        # which only means the rare-word default.
        assert fold(word) == stored or fold(word) == word.lower()


@pytest.mark.parametrize(("tier", "batch"), [(10, 3), (40, 100), (1000, 100)])
@pytest.mark.parametrize("query", ["gamma", "delta OR zeta", "epsilon NOT gamma", "omnium"])
def test_tiers_through_windows_give_the_walks_hits(
    pg_url: str, monkeypatch: pytest.MonkeyPatch, tier: int, batch: int, query: str
) -> None:
    with _corpus(pg_url) as conn:
        budget = replace(hit_budget(), rank_tier=tier, filter_batch=batch)
        wanted = HitFilter(roles=("user",), sources=("cli",))
        floors: list[int | None] = []
        choose = pg_search.PgHits._window_floor

        def spy(self: pg_search.PgHits, below: int, n: int) -> int | None:
            floors.append(choose(self, below, n))
            return floors[-1]

        monkeypatch.setattr(pg_search.PgHits, "_window_floor", spy)
        through_windows = [
            hit.id for hit in PgSearch(conn).message_hits(query, "relevance", budget).hits(wanted)
        ]
        monkeypatch.setattr(pg_search.PgHits, "_window_floor", lambda self, below, n: None)
        walked = [hit.id for hit in PgSearch(conn).message_hits(query, "relevance", budget).hits(wanted)]
        assert through_windows == walked
        assert walked
        # The mid-frequency words go through windows for tiers smaller than their matches; the common word
        # is walked.
        if query != "omnium" and tier < 100:
            assert any(f is not None for f in floors)
        if query == "omnium":
            assert all(f is None for f in floors)


def test_revision_0016_adds_the_window_function_and_its_downgrade_drops_it(pg_migrated_url: str) -> None:
    def present() -> bool:
        with psycopg.connect(pg_migrated_url, autocommit=True) as conn:
            row = conn.execute("SELECT to_regproc('hs_window_matches') IS NOT NULL").fetchone()
            return row == (True,)

    assert present()
    revisions.downgrade(pg_migrated_url, "0015_pg_deferred_search")
    assert not present()
    revisions.upgrade(pg_migrated_url, "0016_pg_window_matches")
    assert present()


_TOKENS = [*_SHARES, "OR", "NOT", "AND", '"gamma delta"', "eps*", "ga*", "(", ")", "nowhere"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    words=st.lists(st.sampled_from(_TOKENS), min_size=1, max_size=5),
    tier=st.sampled_from([7, 50, 300]),
    sources=st.sampled_from([None, ("cli",), ("telegram",)]),
)
def test_any_query_through_windows_gives_the_walks_hits(
    windows_corpus: psycopg.Connection[Any], words: list[str], tier: int, sources: tuple[str, ...] | None
) -> None:
    query = " ".join(words)
    budget = replace(hit_budget(), rank_tier=tier)
    wanted = HitFilter(roles=("user",), sources=sources)
    through_windows = [
        hit.id for hit in PgSearch(windows_corpus).message_hits(query, "relevance", budget).hits(wanted)
    ]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pg_search.PgHits, "_window_floor", lambda self, below, n: None)
        walked = [
            hit.id for hit in PgSearch(windows_corpus).message_hits(query, "relevance", budget).hits(wanted)
        ]
    assert through_windows == walked


@pytest.fixture
def windows_corpus(pg_url: str) -> Any:
    with _corpus(pg_url) as conn:
        yield conn
