"""The app on PostgreSQL: what exists only for the SQLite file is refused with a clear 501."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.conftest import TOKEN


@pytest.fixture
def pg_client(pg_migrated_url: str, tmp_path: Path) -> Iterator[TestClient]:
    """The app in-process on a fresh PostgreSQL database."""
    settings = Settings(
        home=tmp_path / "home", api_token=TOKEN, titles_auto=False, database_url=pg_migrated_url
    )
    with TestClient(create_app(settings), headers={"Authorization": f"Bearer {TOKEN}"}) as client:
        yield client


def test_ready_and_metrics_without_a_file(pg_client: TestClient) -> None:
    ready = pg_client.get("/readyz").json()
    assert ready["checks"]["migrations_at_head"] is True
    # Each engine has its own field: the PostgreSQL server's version is not SQLite's.
    assert ready["sqlite_version"] is None and ready["postgresql_version"]
    metrics = pg_client.get("/metrics")
    assert metrics.status_code == 200
    assert "hermes_writer_commits" in metrics.text and "hermes_database_bytes" not in metrics.text


def _session_with(client: TestClient, session_id: str, texts: list[str]) -> None:
    assert client.post("/sessions", json={"id": session_id, "source": "cli"}).status_code == 201
    for text in texts:
        response = client.post(f"/sessions/{session_id}/messages", json={"role": "user", "content": text})
        assert response.status_code == 201, response.text


def test_search_through_the_api_on_postgresql(pg_client: TestClient) -> None:
    """The search service, unchanged, over the PostgreSQL store's search repository: words, phrases, NOT,
    prefixes and CJK substrings find the sessions that hold them, each shape answers."""
    _session_with(pg_client, "s-docker", ["how do I install docker on debian?", "docker compose restarts"])
    _session_with(pg_client, "s-nginx", ["configure nginx as a reverse proxy for docker"])
    _session_with(pg_client, "s-zh", ["请帮我写一个快速排序算法"])

    def found(q: str) -> set[str]:
        response = pg_client.get("/search", params={"q": q, "limit": 20})
        assert response.status_code == 200, response.text
        return {r["session_id"] for r in response.json()["results"]}

    assert found("docker") == {"s-docker", "s-nginx"}
    assert found('"reverse proxy"') == {"s-nginx"}
    assert found("docker NOT nginx") == {"s-docker"}
    assert found("deb*") == {"s-docker"}
    assert found("快速排序") == {"s-zh"}
    assert found("kubernetes") == set()
    hit = pg_client.get("/search", params={"q": "compose"}).json()["results"][0]
    assert ">>>compose<<<" in hit["snippet"].lower()
    read = pg_client.get("/search", params={"session_id": "s-docker"})
    assert read.status_code == 200, read.text
