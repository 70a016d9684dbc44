"""Helpers for the messages tests: a session to write into and direct file access."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.settings import Settings
from app.storage.sqlite.driver import sqlite3
from tests.conftest import BACKENDS, RawDatabase, backend_settings


@pytest.fixture
def sid(client: TestClient) -> str:
    """A fresh CLI session."""
    response = client.post("/sessions", json={"source": "cli"})
    assert response.status_code == 201, response.text
    session_id: str = response.json()["id"]
    return session_id


@pytest.fixture
def raw(settings: Settings) -> Callable[..., list[sqlite3.Row]]:
    """Run a query against state.db directly (what is really on disk)."""

    def query(sql: str, *params: Any) -> list[sqlite3.Row]:
        conn = RawDatabase(settings)
        try:
            rows: list[sqlite3.Row] = conn.execute(sql, params).fetchall()
            return rows
        finally:
            conn.close()

    return query


@pytest.fixture(params=BACKENDS)
def settings(request: pytest.FixtureRequest, home: Path) -> Settings:
    """Every test of this directory runs on both backends (the PostgreSQL run skips without a server)."""
    return backend_settings(request, home)
