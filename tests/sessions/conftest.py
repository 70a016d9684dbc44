"""Fixtures for the sessions tests: the real agent's SessionDB and a raw connection on the same file."""

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


def set_started(raw: sqlite3.Connection, session_id: str, started_at: float) -> None:
    """Pin a session's start time so orderings are deterministic."""
    raw.execute("UPDATE sessions SET started_at = ? WHERE id = ?", (started_at, session_id))
