"""The main read routes on PostgreSQL: the agent's store, moved over with our export and import, answers
as our SQLite server answers on it (which the other tests hold to the agent's dashboard)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.dashboard_api.conftest import NEEDLE, TOKEN, Pair

BEARER = {"Authorization": f"Bearer {TOKEN}"}
URLS = [
    "/api/sessions",
    "/api/sessions?limit=5&offset=3",
    "/api/sessions?order=recent&limit=100",
    "/api/sessions?archived=include&limit=100",
    "/api/sessions?archived=only",
    "/api/sessions?source=telegram&exclude_sources=cron",
    "/api/sessions?cwd_prefix=/work/repo1&min_messages=2",
    "/api/sessions/stats",
    "/api/sessions/empty/count",
    "/api/sessions/chainroot",
    "/api/sessions/chainr/messages",
    "/api/sessions/tools1/messages?limit=2&offset=1",
    "/api/sessions/tools1/export",
    "/api/sessions/plain01/latest-descendant",
    "/api/sessions/abcd2",
    "/api/sessions/search?q=abcd",
]
# Message search ranks with PostgreSQL's own text search there: the same sessions, in the same shape, but
# which equal-ranked hit stands for a session, and its snippet, are PostgreSQL's.
SEARCHES = [NEEDLE, "walrus", "zebra", "hello number"]


@pytest.fixture(scope="module")
def pg(
    reads: Pair, pg_cluster: Any, pg_template: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TestClient]:
    """Our app on a PostgreSQL database holding the agent's store, moved once for the module: its tests
    only read."""
    exported = reads.ours.get("/export", headers=BEARER)
    assert exported.status_code == 200
    url = pg_cluster.create_database(template=pg_template)
    settings = Settings(
        home=tmp_path_factory.mktemp("pg") / "home", api_token=TOKEN, titles_auto=False, database_url=url
    )
    try:
        with TestClient(create_app(settings), headers={"X-Hermes-Session-Token": TOKEN}) as client:
            imported = client.post(
                "/import",
                params={"wait_for_index": "true"},
                content=exported.content,
                headers={**BEARER, "Content-Type": "application/x-ndjson"},
            )
            assert imported.status_code == 200 and imported.json()["failed"] == 0, imported.text
            yield client
    finally:
        pg_cluster.drop_database(url)


def test_read_routes_answer_on_postgresql_as_on_sqlite(reads: Pair, pg: TestClient) -> None:
    for url in URLS:
        on_sqlite = reads.ours.get(url)
        on_postgresql = pg.get(url)
        assert on_postgresql.status_code == on_sqlite.status_code == 200, url
        assert on_postgresql.json() == on_sqlite.json(), url
    # An ambiguous prefix names no session there either.
    assert pg.get("/api/sessions/abcd").json() == {"detail": "Session not found"}


@pytest.mark.parametrize("q", SEARCHES)
def test_search_finds_the_same_sessions_on_postgresql(reads: Pair, pg: TestClient, q: str) -> None:
    on_sqlite = reads.ours.get("/api/sessions/search", params={"q": q}).json()["results"]
    on_postgresql = pg.get("/api/sessions/search", params={"q": q}).json()["results"]
    assert {r["session_id"] for r in on_postgresql} == {r["session_id"] for r in on_sqlite}
    assert all(r.keys() == on_sqlite[0].keys() and ">>>" in r["snippet"] for r in on_postgresql)
