"""Fixtures for the lineage tests: the real agent's SessionDB and a raw connection on the server's file."""

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


def compress(client: TestClient, session_id: str, **body: Any) -> dict[str, Any]:
    """POST /sessions/{id}/continuations and return the child (asserting 201)."""
    response = client.post(f"/sessions/{session_id}/continuations", json=body)
    assert response.status_code == 201, response.text
    result: dict[str, Any] = response.json()
    return result


def resolve(client: TestClient, **params: Any) -> dict[str, Any]:
    """GET /sessions/resolve and return the body (asserting 200)."""
    response = client.get("/sessions/resolve", params=params)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result
