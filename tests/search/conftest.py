"""Search fixtures: the real agent writing into the same state.db the app serves."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hermes_state import SessionDB

Turn = tuple[str, str] | dict[str, Any]


@pytest.fixture
def agent(home: Path) -> Iterator[SessionDB]:
    """The real agent's SessionDB on the test's state.db."""
    db = SessionDB(db_path=home / "state.db")
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
