"""Gateway fixtures: routing helpers and direct access to the routing rows."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, cast

import pytest

from app.services.gateway import Gateway
from app.settings import Settings
from app.storage.sqlite.driver import sqlite3
from tests.cli.conftest import run  # noqa: F401  (the CLI fixture, for test_cli.py)
from tests.conftest import BACKENDS, HttpClient, RawDatabase, backend_settings


def route(http: HttpClient, **source: Any) -> dict[str, Any]:
    """POST /gateway/route (telegram dm by default) and return the answer."""
    body = {"platform": "telegram", "chat_type": "dm", **source}
    response = http.post("/gateway/route", json=body)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def put_config(http: HttpClient, **body: Any) -> dict[str, Any]:
    """PUT /gateway/config."""
    response = http.put("/gateway/config", json=body)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def agent_scope(home: Path) -> str:
    """The agent's routing scope for a home: the resolved sessions directory (the scope on SQLite)."""
    return str((home / "sessions").resolve())


def scope(settings: Settings) -> str:
    """The store's routing scope: the agent's on SQLite, the one every replica shares on PostgreSQL."""
    return "" if settings.database_url else agent_scope(settings.home)


@pytest.fixture(params=BACKENDS)
def settings(request: pytest.FixtureRequest, home: Path) -> Settings:
    """Every gateway test that serves runs on both backends (the PostgreSQL run skips without a server)."""
    return backend_settings(request, home)


@pytest.fixture
def raw(client: Any, settings: Settings) -> Iterator[sqlite3.Connection]:
    """A plain connection to the server's store (opened after the server created it), on either backend."""
    with RawDatabase(settings, named_rows=False) as conn:
        yield cast(sqlite3.Connection, conn)


def edit_entry(conn: sqlite3.Connection, key: str, **changes: Any) -> dict[str, Any]:
    """Change members of a stored entry (e.g. move ``updated_at`` back) as another writer would (the test's
    store routes in one scope)."""
    row = conn.execute("SELECT entry_json FROM gateway_routing WHERE session_key = ?", (key,)).fetchone()
    entry: dict[str, Any] = json.loads(row[0])
    for name, value in changes.items():
        entry[name] = value.isoformat() if isinstance(value, datetime) else value
    conn.execute("UPDATE gateway_routing SET entry_json = ? WHERE session_key = ?", (json.dumps(entry), key))
    return entry


def session_row(conn: sqlite3.Connection, session_id: str) -> dict[str, Any]:
    """A session row as a dict."""
    cur = conn.execute("SELECT * FROM sessions WHERE id = ?", (session_id,))
    row = cur.fetchone()
    assert row is not None
    return dict(zip([d[0] for d in cur.description], row, strict=True))


def gateway_of(client: Any) -> Gateway:
    """The app's routing service."""
    gateway: Gateway = client.app.state.gateway
    return gateway
