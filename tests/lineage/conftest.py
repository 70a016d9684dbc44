"""Fixtures for the lineage tests: the real agent's SessionDB and a raw connection on the server's file."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient


@pytest.fixture
def raw(client: TestClient, home: Path) -> Iterator[sqlite3.Connection]:
    """A plain autocommit connection for arranging rows (timestamps, markers) and inspecting them."""
    conn = sqlite3.connect(home / "state.db", isolation_level=None, timeout=10)
    conn.row_factory = sqlite3.Row
    try:
        yield conn
    finally:
        conn.close()


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
