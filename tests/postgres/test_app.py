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


@pytest.mark.parametrize("path", ["/maintenance/vacuum", "/maintenance/backup", "/maintenance/optimize"])
def test_file_operations_answer_not_supported_on_backend(pg_client: TestClient, path: str) -> None:
    response = pg_client.post(path)
    assert response.status_code == 501
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["code"] == "not_supported_on_backend"
    assert "postgresql" in response.json()["detail"]


def test_ready_and_metrics_without_a_file(pg_client: TestClient) -> None:
    assert pg_client.get("/readyz").json()["checks"]["migrations_at_head"] is True
    metrics = pg_client.get("/metrics")
    assert metrics.status_code == 200
    assert "hermes_writer_commits" in metrics.text and "hermes_database_bytes" not in metrics.text
