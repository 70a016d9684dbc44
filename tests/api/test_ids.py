"""Reference checks 11.2: generated id formats, the 256-character limit, duplicates."""

from __future__ import annotations

import re

import hermes_state
import pytest
from fastapi.testclient import TestClient

from app.settings import Settings
from tests.api.problem_assert import assert_problem
from tests.conftest import RawDatabase


@pytest.mark.parametrize(
    ("source", "pattern"),
    [
        (None, r"^api_\d+_[0-9a-f]{8}$"),
        ("cli", r"^\d{8}_\d{6}_[0-9a-f]{6}$"),
        ("tui", r"^\d{8}_\d{6}_[0-9a-f]{6}$"),
        ("telegram", r"^\d{8}_\d{6}_[0-9a-f]{8}$"),
        ("discord", r"^\d{8}_\d{6}_[0-9a-f]{8}$"),
    ],
)
def test_generated_id_format(client: TestClient, source: str | None, pattern: str) -> None:
    body = {} if source is None else {"source": source}
    resp = client.post("/sessions", json=body)
    assert resp.status_code == 201, resp.text
    assert re.match(pattern, resp.json()["id"])


def test_256_character_id_accepted(client: TestClient) -> None:
    sid = "x" * 256
    resp = client.post("/sessions", json={"id": sid})
    assert resp.status_code == 201, resp.text
    assert client.get(f"/sessions/{sid}").json()["id"] == sid


@pytest.mark.usefixtures("sqlite_only")
def test_the_agent_reads_a_256_character_id(client: TestClient, settings: Settings) -> None:
    sid = "x" * 256
    assert client.post("/sessions", json={"id": sid}).status_code == 201
    # The agent (also its read-only mode) reads what we wrote.
    agent = hermes_state.SessionDB(db_path=settings.db_path, read_only=True)
    try:
        assert agent.get_session(sid)["source"] == "api_server"
    finally:
        agent.close()


def test_existing_id_conflicts_and_row_unchanged(client: TestClient, settings: Settings) -> None:
    first = client.post("/sessions", json={"id": "mine-1", "source": "cli", "title": "Original"})
    assert first.status_code == 201, first.text
    before = _row(settings, "mine-1")
    resp = client.post("/sessions", json={"id": "mine-1", "source": "telegram", "title": "Other"})
    assert_problem(resp, 409, "session_exists", extra=("session_id",))
    assert _row(settings, "mine-1") == before


def _row(settings: Settings, sid: str) -> tuple[object, ...]:
    with RawDatabase(settings) as raw:
        return tuple(raw.execute("SELECT * FROM sessions WHERE id = ?", (sid,)).fetchone())
