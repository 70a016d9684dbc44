"""Fixtures for the sessions tests: the real agent's SessionDB and a raw connection on the same file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from fastapi.testclient import TestClient

from app.settings import Settings
from app.storage.sqlite.driver import sqlite3
from tests.conftest import BACKENDS, RawDatabase, backend_settings


@pytest.fixture
def raw(client: TestClient, settings: Settings) -> Iterator[sqlite3.Connection]:
    """A plain autocommit connection for arranging rows (timestamps, markers) and inspecting them (on
    PostgreSQL a psycopg one behind the same calls)."""
    conn = RawDatabase(settings)
    try:
        yield cast(sqlite3.Connection, conn)
    finally:
        conn.close()


@pytest.fixture(params=BACKENDS)
def settings(request: pytest.FixtureRequest, home: Path) -> Settings:
    """Every test of this directory runs on both backends (the PostgreSQL run skips without a server)."""
    return backend_settings(request, home)


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    """POST /sessions and return the created session (asserting 201)."""
    response = client.post("/sessions", json=body)
    assert response.status_code == 201, response.text
    result: dict[str, Any] = response.json()
    return result


def set_started(raw: sqlite3.Connection, session_id: str, started_at: float) -> None:
    """Pin a session's start time so orderings are deterministic."""
    raw.execute("UPDATE sessions SET started_at = ? WHERE id = ?", (started_at, session_id))
