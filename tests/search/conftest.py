"""Search fixtures: the real agent writing into the same state.db the app serves, and every test on both
backends: on PostgreSQL the agent writes a file of its own, mirrored into the database before each
request (``tests/agent_mirror.py``), so its own answers stay the oracle."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hermes_state import SessionDB

from app.main import create_app
from app.settings import Settings
from tests.agent_mirror import mirror_agent_file
from tests.conftest import BACKENDS, TOKEN, backend_settings

Turn = tuple[str, str] | dict[str, Any]


@pytest.fixture(params=BACKENDS)
def settings(request: pytest.FixtureRequest, home: Path) -> Settings:
    """Every test of this directory that serves runs on both backends (PostgreSQL skips without a server)."""
    return backend_settings(request, home)


def agent_path(settings: Settings) -> Path:
    """The agent's file: the one the server serves on SQLite; on PostgreSQL one of its own."""
    return settings.home / ("agent" if settings.database_url else "") / "state.db"


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    """The app in-process; on PostgreSQL each request first mirrors the agent's file into the database."""
    with TestClient(create_app(settings), headers={"Authorization": f"Bearer {TOKEN}"}) as c:
        url = settings.database_url
        if url:
            source = agent_path(settings)
            c.event_hooks = {"request": [lambda _request: mirror_agent_file(source, url)], "response": []}
        yield c


@pytest.fixture
def agent(client: TestClient, settings: Settings) -> Iterator[SessionDB]:
    """The real agent's SessionDB on its file (opened after the server adopted the file it serves)."""
    path = agent_path(settings)
    path.parent.mkdir(exist_ok=True)
    db = SessionDB(db_path=path)
    try:
        yield db
    finally:
        db.close()


def add_session(
    agent: SessionDB,
    session_id: str,
    turns: Sequence[Turn],
    *,
    source: str = "cli",
    parent: str | None = None,
    model: str | None = "test-model",
) -> list[int]:
    """Create a session through the agent and append ``turns``; the new message ids in order."""
    agent.create_session(session_id, source, model=model, parent_session_id=parent)
    ids = []
    for turn in turns:
        fields = {"role": turn[0], "content": turn[1]} if isinstance(turn, tuple) else dict(turn)
        ids.append(agent.append_message(session_id, **fields))
    return ids


def search(client: TestClient, **params: Any) -> dict[str, Any]:
    """GET /search, asserting 200; the JSON body."""
    response = client.get("/search", params=params)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def found(body: dict[str, Any]) -> list[str]:
    """Session ids of a discover/browse body, in order."""
    return [r["session_id"] for r in body["results"]]
