"""Handoff fixtures: a configured destination platform, the agent's SessionDB and a raw connection."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from fastapi.testclient import TestClient

from app.settings import Settings
from app.storage.sqlite.driver import sqlite3
from tests.conftest import BACKENDS, HttpClient, HttpResponse, RawDatabase, backend_settings

HOME = {"chat_id": "-100123", "name": "Ops room"}


def configure(http: HttpClient, platform: str = "telegram", **body: Any) -> dict[str, Any]:
    """PUT a platform's settings (default: enabled with a home channel) and return them."""
    settings = {"enabled": True, "home_channel": HOME, "threads": False, **body}
    response = http.put(f"/platforms/{platform}", json=settings)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def new_session(http: HttpClient, **body: Any) -> str:
    """A new CLI session's id."""
    response = http.post("/sessions", json={"source": "cli", **body})
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def request(http: HttpClient, session_id: str, platform: str = "telegram", **extra: Any) -> HttpResponse:
    """POST /handoff."""
    return http.post("/handoff", json={"session_id": session_id, "platform": platform, **extra})


@pytest.fixture
def telegram(client: TestClient) -> TestClient:
    """The in-process client with telegram enabled and a home channel set."""
    configure(client)
    return client


@pytest.fixture
def raw(client: TestClient, settings: Settings) -> Iterator[sqlite3.Connection]:
    """A plain autocommit connection for arranging and inspecting rows (either backend)."""
    conn = RawDatabase(settings, named_rows=False)
    try:
        yield cast(sqlite3.Connection, conn)
    finally:
        conn.close()


@pytest.fixture(params=BACKENDS)
def settings(request: pytest.FixtureRequest, home: Path) -> Settings:
    """Every test of this directory runs on both backends (the PostgreSQL run skips without a server)."""
    return backend_settings(request, home)
