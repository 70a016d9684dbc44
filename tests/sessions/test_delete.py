"""DELETE /sessions/{id} (reference checks 11.12 and the delete side of 11.7)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from app.storage.sqlite.driver import sqlite3
from tests.sessions.conftest import create


def test_delete_removes_messages_usage_and_fts(
    client: TestClient, agent: Any, raw: sqlite3.Connection
) -> None:
    create(client, id="d1", source="cli")
    agent.append_message("d1", "user", "zanzibar quokka")
    client.post("/sessions/d1/usage", json={"input_tokens": 5, "model": "m"})
    assert agent.search_messages("quokka")
    assert client.delete("/sessions/d1").status_code == 204
    assert client.get("/sessions/d1").status_code == 404
    assert raw.execute("SELECT COUNT(*) FROM messages WHERE session_id='d1'").fetchone()[0] == 0
    assert raw.execute("SELECT COUNT(*) FROM session_model_usage WHERE session_id='d1'").fetchone()[0] == 0
    assert agent.search_messages("quokka") == []


def test_delete_missing_is_404(client: TestClient) -> None:
    response = client.delete("/sessions/ghost")
    assert response.status_code == 404 and response.json()["code"] == "session_not_found"


def test_children_orphaned_delegates_deleted(client: TestClient, agent: Any) -> None:
    create(client, id="p", source="cli")
    agent.end_session("p", "compression")
    agent.create_session("comp", "cli", parent_session_id="p")
    agent.create_session("br", "cli", parent_session_id="p", model_config={"_branched_from": "p"})
    agent.create_session("dele", "subagent", parent_session_id="p", model_config={"_delegate_from": "p"})
    agent.create_session(
        "dele2", "subagent", parent_session_id="dele", model_config={"_delegate_from": "dele"}
    )
    agent.append_message("dele2", "user", "deep")
    assert client.delete("/sessions/p").status_code == 204
    assert agent.get_session("comp")["parent_session_id"] is None
    assert agent.get_session("br")["parent_session_id"] is None
    assert agent.get_session("dele") is None and agent.get_session("dele2") is None
    assert agent.get_messages("dele2") == []
