"""Helpers for the messages tests: a session to write into and direct file access."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.settings import Settings


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
        conn = sqlite3.connect(settings.db_path)
        conn.row_factory = sqlite3.Row
        try:
            return conn.execute(sql, params).fetchall()
        finally:
            conn.close()

    return query
