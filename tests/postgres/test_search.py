"""Search on PostgreSQL against SQLite on the same corpus (the real agent's rows, same ids).

Parity: every query of ``search_corpus.QUERIES`` (every operator, every language) finds the same sessions
on both backends, in the same order for ``newest``/``oldest``. Differences the backends cannot avoid, and
which these tests therefore do not compare (also listed in docs/search.md):

* the order under ``relevance``: SQLite ranks by bm25, PostgreSQL by ``ts_rank`` (words) or newest first
  (substrings), so when more lineages match than ``limit`` the chosen ones may differ;
* snippets: FTS5's ``snippet()`` against ``ts_headline`` (other window, no ``...``) for words;
* accent folding beyond ``unicode61``: ``unaccent`` also folds letters with two diacritics (Vietnamese
  ``ế``, ``ệ``: ``tieng`` finds ``Tiếng``) and maps ``ß`` to ``ss``, ``œ`` to ``oe``, ``đ`` to ``d``, so a few
  queries find more on PostgreSQL (``SUPERSET_QUERIES``, checked as supersets);
* word search in a message reads its first 200,000 characters (``search_schema.MAX_WORD_CHARS``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import hermes_state
import psycopg
import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from app.main import create_app
from app.services.search import SearchRequest, Sort, discover, hit_budget
from app.services.sessions import default_exclusions
from app.settings import Settings
from app.storage.postgres import search as pg_search
from app.storage.postgres.search import compile_words, list_search_filter
from app.storage.postgres.search_tricks import SearchTricks, switched_off
from app.storage.postgres.tx import PgTx
from app.storage.protocols import Tx
from app.storage.rows import HitFilter, ListQuery
from tests.conftest import TOKEN
from tests.postgres import revisions
from tests.postgres.search_corpus import QUERIES, SUPERSET_QUERIES, create_pg_store, load_agent


@pytest.fixture(scope="module")
def corpus(pg_cluster: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Tx]]:
    """The corpus as the agent wrote it, served on SQLite by the app and copied into PostgreSQL; written once
    for the module, as no test here writes to it."""
    home = tmp_path_factory.mktemp("search-corpus")
    served = Settings(home=home, api_token=TOKEN, titles_auto=False)
    url = pg_cluster.create_database()
    try:
        with TestClient(create_app(served), headers={"Authorization": f"Bearer {TOKEN}"}) as client:
            agent = hermes_state.SessionDB(db_path=home / "state.db")
            try:
                load_agent(agent)
            finally:
                agent.close()
            with create_pg_store(home / "state.db", url) as conn:
                yield client, cast(Tx, PgTx(conn))
    finally:
        pg_cluster.drop_database(url)


def _sqlite(client: TestClient, q: str, sort: str) -> list[str]:
    response = client.get("/search", params={"q": q, "limit": 50, "sort": sort})
    assert response.status_code == 200, response.text
    return [r["session_id"] for r in response.json()["results"]]


def _pg(tx: Tx, q: str, sort: str) -> list[str]:
    body = discover(tx, SearchRequest(q=q, limit=50, sort=Sort(sort)))
    return [r["session_id"] for r in body["results"]]


def test_every_query_finds_the_same_sessions_on_both_backends(corpus: tuple[TestClient, Tx]) -> None:
    client, tx = corpus
    mismatched = {}
    for q in QUERIES:
        for sort in ("relevance", "newest", "oldest"):
            lite, pg = _sqlite(client, q, sort), _pg(tx, q, sort)
            same = lite == pg if sort != "relevance" else sorted(lite) == sorted(pg)
            if not same:
                mismatched[(q, sort)] = (lite, pg)
    assert mismatched == {}


@pytest.mark.parametrize("trick", SearchTricks.names())
def test_a_workaround_switched_off_finds_the_same(corpus: tuple[TestClient, Tx], trick: str) -> None:
    _, tx = corpus
    cast(PgTx, tx).pg.execute("ANALYZE")  # the listing's broad-term estimate reads the statistics
    # Filters choosing sessions and not, which the session lookup tells apart.
    requests = [
        SearchRequest(q=q, limit=50, sort=sort, sources=sources)
        for q in QUERIES
        for sort in (Sort.relevance, Sort.newest)
        for sources in (None, ("cli",))
    ]
    terms = ("fox", "zh-", "数据库", "no such text")
    found = [discover(tx, req)["results"] for req in requests], [_pg_list(tx, t, True) for t in terms]
    with switched_off(trick):
        assert found == (
            [discover(tx, req)["results"] for req in requests],
            [_pg_list(tx, t, True) for t in terms],
        )


def test_accent_folding_finds_a_superset(corpus: tuple[TestClient, Tx]) -> None:
    client, tx = corpus
    for q, extra in SUPERSET_QUERIES.items():
        lite = set(_sqlite(client, q, "relevance"))
        assert set(_pg(tx, q, "relevance")) == lite | extra, q


def test_the_corpus_exercises_every_engine(corpus: tuple[TestClient, Tx]) -> None:
    _, tx = corpus
    assert set(_pg(tx, "fox", "relevance")) == {"en-fox"}
    assert set(_pg(tx, "cafe", "relevance")) == {"fr-cafe"}
    assert set(_pg(tx, "数据库", "relevance")) == {"zh-db", "zh-migrate", "mixed"}
    assert set(_pg(tx, "数", "relevance")) == {"zh-db", "zh-migrate", "mixed"}
    assert _pg(tx, "nightly", "relevance") == ["cron-report"]


def test_snippets_mark_the_match(corpus: tuple[TestClient, Tx]) -> None:
    _, tx = corpus
    (word,) = discover(tx, SearchRequest(q="kubernetes"))["results"]
    assert ">>>kubernetes<<<" in word["snippet"]
    (accent,) = discover(tx, SearchRequest(q="cafe"))["results"]
    assert ">>>café<<<" in accent["snippet"]
    cjk = discover(tx, SearchRequest(q="迁移"))["results"]
    assert [r["snippet"] for r in cjk] == ["数据库>>>迁移<<<脚本已经完成"]


def test_a_caseless_term_is_scanned_in_every_column(corpus: tuple[TestClient, Tx]) -> None:
    client, tx = corpus
    for q in ("搜索", "索", "搜索 NOT 完"):
        lite = client.get("/search", params={"q": q, "role": "tool"}).json()["results"]
        pg = discover(tx, SearchRequest(q=q, roles=("tool",)))["results"]
        assert [r["session_id"] for r in pg] == [r["session_id"] for r in lite] == ["zh-tool"], q


def test_the_hidden_and_filtered_rows_stay_out(corpus: tuple[TestClient, Tx]) -> None:
    _, tx = corpus
    assert "hidden-tool" not in _pg(tx, "quick fox", "relevance")
    assert discover(tx, SearchRequest(q="passed", roles=("tool",)))["results"][0]["session_id"] == "en-tool"
    assert discover(tx, SearchRequest(q="quick", sources=("telegram",)))["results"] == []


def test_a_small_budget_caps_the_scan(corpus: tuple[TestClient, Tx], monkeypatch: pytest.MonkeyPatch) -> None:
    from app.services import search as svc

    _, tx = corpus
    monkeypatch.setattr(svc, "SCAN_FIRST_CHUNK", 2)
    monkeypatch.setattr(svc, "SCAN_MAX_CHUNK", 4)
    monkeypatch.setattr(svc, "SCAN_CAP", 10)
    body = discover(tx, SearchRequest(q="数", limit=50))
    assert body["scan_capped"] is True
    monkeypatch.setattr(svc, "RANK_TIER", 1)
    assert sorted(_pg(tx, "quick OR lazy", "relevance")) == ["en-dog", "en-fox"]


def test_the_compiler_renders_every_operator() -> None:
    assert compile_words('quick "lazy dog" NOT cat OR kube*', "") == (
        "(((('quick') & ('lazy' <-> 'dog')) & !('cat')) | ('kube':*))"
    )
    assert compile_words("a$ b", '"a" "b"') == "(('a') & ('b'))"
    assert compile_words('"..."', "") is None


_QUERY_TEXT = st.one_of(
    st.text(max_size=40),
    st.lists(
        st.sampled_from(
            [
                "fox",
                "Fox*",
                "数据库",
                "数",
                "NOT",
                "OR",
                "AND",
                '"',
                "*",
                "(",
                "-",
                "é",
                "🎉",
                "a",
                "x.y",
                "'",
                "\\",
                "数\x00",
            ]
        ),
        max_size=8,
    ).map(" ".join),
)


@settings(max_examples=150, deadline=None)
@given(q=_QUERY_TEXT, sort=st.sampled_from(["relevance", "newest", "oldest"]))
def test_no_query_string_breaks_the_compiler(corpus: tuple[TestClient, Tx], q: str, sort: str) -> None:
    _, tx = corpus
    body = discover(tx, SearchRequest(q=q, limit=5, sort=Sort(sort)))
    assert body["count"] == len(body["results"])
    stream = tx.search.message_hits(q, sort, hit_budget())
    for hit in stream.hits(HitFilter()):
        details = stream.details([hit], [hit.session_id], 2, 1)
        assert all(isinstance(s, str) for s in details.snippets)
        assert len(details.contexts) == 1 and hit.session_id in details.metas
        break


def _pg_list(tx: Tx, term: str, projecting: bool) -> list[str]:
    """The server's own listing on PostgreSQL (its search filter and its exact check of each row)."""
    query = ListQuery(
        limit=100, search=term, include_children=not projecting, exclude_sources=default_exclusions(())
    )
    page = tx.sessions.list_sessions_cached(query)
    return sorted(item["id"] for item in page.items)


@pytest.mark.parametrize("projecting", [False, True])
def test_the_listing_search_finds_what_sqlite_finds(corpus: tuple[TestClient, Tx], projecting: bool) -> None:
    client, tx = corpus
    for term in (
        "fox",
        "FOX",
        "zh-",
        "数据库",
        "数",
        "é",
        "Straße",
        "🎉",
        "-",
        "%",
        "_",
        "e",
        "no such text",
    ):
        items = client.get("/sessions", params={"q": term, "limit": 100}).json()["items"]
        assert _pg_list(tx, term, projecting) == sorted(i["id"] for i in items), term
    # The API refuses a NUL in q on SQLite; here no stored text can hold one.
    assert _pg_list(tx, "fox\x00", projecting) == []
    conn = cast(PgTx, tx).pg
    assert list_search_filter(conn, "fox", projecting).indexed
    assert not list_search_filter(conn, "fo", projecting).indexed


def test_the_listing_walks_the_trigram_candidates_for_a_rare_term(
    corpus: tuple[TestClient, Tx], monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.storage.repos import list_index

    _, tx = corpus

    def no_scan(term: str, projecting: bool, **_: Any) -> None:
        raise AssertionError(f"the listing scanned every row for {term!r}")

    for module in (pg_search, list_index):
        monkeypatch.setattr(module, "scan_filter", no_scan)
    assert _pg_list(tx, "fox", True) == ["en-fox"]
    assert _pg_list(tx, "zh-", False) == ["zh-db", "zh-migrate", "zh-seg", "zh-tool"]


def test_the_search_schema_is_idempotent_and_indexes_new_rows(pg_url: str) -> None:
    from app.storage.postgres import migrate
    from app.storage.postgres.search_schema import apply_search_schema

    migrate.upgrade(pg_url)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        apply_search_schema(conn)
        conn.execute("INSERT INTO sessions (id, source, started_at) VALUES ('s1', 'cli', 1.0)")
        conn.execute(
            "INSERT INTO messages (session_id, role, content, timestamp) VALUES"
            " ('s1', 'user', 'Appended later: naïve 東京タワー', 2.0)"
        )
        tx = cast(Tx, PgTx(conn))
        assert _pg(tx, "naive", "relevance") == ["s1"]
        assert _pg(tx, "東京タワー", "relevance") == ["s1"]
        conn.execute("UPDATE messages SET content = 'rewritten' WHERE session_id = 's1'")
        assert _pg(tx, "naive", "relevance") == []


def _tiered_oracle(
    conn: psycopg.Connection[Any], tier: int, sources: tuple[str, ...], role: str
) -> list[int]:
    """What relevance order means, computed row by row: the matches newest first, cut into tiers of
    ``tier``, each tier's rows of a wanted source and role ranked by ``ts_rank`` (ties: newest first)."""
    rows = conn.execute(
        "SELECT m.id, s.source, ts_rank(m.search_vector, to_tsquery('hs_search', 'alpha')), m.role"
        " FROM messages m JOIN sessions s ON s.id = m.session_id"
        " WHERE m.search_vector @@ to_tsquery('hs_search', 'alpha') ORDER BY m.id DESC"
    ).fetchall()
    order: list[int] = []
    for start in range(0, len(rows), tier):
        kept = [r for r in rows[start : start + tier] if r[1] in sources and r[3] == role]
        order += [int(r[0]) for r in sorted(kept, key=lambda r: (-r[2], -r[0]))]
    return order


@pytest.mark.parametrize(("tier", "batch"), [(1, 100), (2, 1), (3, 2), (7, 3), (1000, 2), (1000, 100)])
def test_relevance_tiers_rank_filter_and_continue_below_each_tier(
    pg_migrated_url: str, tier: int, batch: int
) -> None:
    from dataclasses import replace

    from app.storage.postgres.search import PgSearch

    with psycopg.connect(pg_migrated_url, autocommit=True) as conn:
        # Rows of other sources and roles outrank some wanted ones: they are dropped without ending the
        # tier, whether the message (role) or its session (source) fails, in any filter batch.
        conn.execute(
            "INSERT INTO sessions (id, source, started_at) VALUES"
            " ('cli', 'cli', 1.0), ('dc', 'discord', 1.0), ('tg', 'telegram', 1.0)"
        )
        for i in range(30):
            session = ("cli", "dc", "tg")[i % 3]
            role = "tool" if i % 4 == 1 else "user"
            words = " ".join(["alpha"] * (1 + i * 7 % 5) + ["filler"] * (i % 4))
            conn.execute(
                "INSERT INTO messages (session_id, role, content, timestamp) VALUES (%s, %s, %s, %s)",
                (session, role, words, float(i)),
            )
        budget = replace(hit_budget(), rank_tier=tier, filter_batch=batch)
        hits = PgSearch(conn).message_hits("alpha", "relevance", budget)
        found = [hit.id for hit in hits.hits(HitFilter(roles=("user",), sources=("cli",)))]
        assert found == _tiered_oracle(conn, tier, ("cli",), "user")
        assert len(found) == 8


def _strip_snippets(body: dict[str, Any]) -> dict[str, Any]:
    return {
        **body,
        "results": [{k: v for k, v in r.items() if k != "snippet"} for r in body.get("results", [])],
    }


@pytest.mark.parametrize(
    "params",
    [
        {"q": "kubernetes"},
        {"q": "tests passed", "window": 1},
        {"q": "数据库 NOT 迁移", "limit": 10},
        {"q": "passed", "role": "tool", "detail": "full"},
        {"session_id": "en-tool"},
        {"session_id": "en-tool", "around_message_id": 0},
        {"limit": 50},
        {"limit": 5, "source": "cli"},
    ],
)
def test_every_shape_returns_the_same_body_on_both_backends(
    corpus: tuple[TestClient, Tx], params: dict[str, Any]
) -> None:
    from app.services.search import Detail, search

    client, tx = corpus
    if params.get("around_message_id") == 0:
        # The id of the tool message in the middle of en-tool, whatever the agent numbered it.
        read = client.get("/search", params={"session_id": "en-tool"}).json()
        params = {**params, "around_message_id": read["messages"][2]["id"]}
    lite = client.get("/search", params=params).json()
    req = SearchRequest(
        q=params.get("q"),
        session_id=params.get("session_id"),
        around_message_id=params.get("around_message_id"),
        window=params.get("window", 5),
        limit=params.get("limit", 3),
        roles=tuple(params["role"].split(",")) if "role" in params else ("user", "assistant"),
        sources=tuple(params["source"].split(",")) if "source" in params else None,
        detail=Detail(params.get("detail", "adaptive")),
    )
    mine, theirs = _strip_snippets(search(tx, req)), _strip_snippets(lite)
    if req.q:  # the order under relevance is the backend's own (see the module docstring)
        mine["results"].sort(key=lambda r: r["session_id"])
        theirs["results"].sort(key=lambda r: r["session_id"])
    assert {k: v for k, v in mine.items() if k != "results"} == {
        k: v for k, v in theirs.items() if k != "results"
    }
    pairs = zip(mine["results"], theirs["results"], strict=True)
    assert [{k: (a[k], b.get(k)) for k in a if a[k] != b.get(k)} for a, b in pairs] == [{}] * len(
        theirs["results"]
    )


def test_revision_0026_drops_the_window_function_and_its_downgrade_restores_it(pg_migrated_url: str) -> None:
    def present() -> bool:
        with psycopg.connect(pg_migrated_url, autocommit=True) as conn:
            return conn.execute("SELECT to_regproc('hs_window_matches') IS NOT NULL").fetchone() == (True,)

    assert not present()
    revisions.downgrade(pg_migrated_url, "0025_sync_file_generations")
    assert present()
    revisions.upgrade(pg_migrated_url, "0026_pg_no_window_matches")
    assert not present()
