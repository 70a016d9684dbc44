"""Search fixtures: the real agent writing into the same state.db the app serves, and every test on both
backends: on PostgreSQL the agent's file is mirrored into the database before each request
(``tests/agent_mirror.py``), so its own answers stay the oracle."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hermes_state import SessionDB

from app.settings import Settings
from tests import agent_mirror

# Both backends, the agent's file mirrored into PostgreSQL before each request.
settings = agent_mirror.settings
client = agent_mirror.client

Turn = tuple[str, str] | dict[str, Any]


@pytest.fixture
def agent(client: TestClient, settings: Settings) -> Iterator[SessionDB]:
    """The real agent's SessionDB on ``$HERMES_HOME/state.db`` (opened after a SQLite server adopted it)."""
    db = SessionDB(db_path=settings.db_path)
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
