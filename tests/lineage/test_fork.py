"""Branching (POST /sessions/{id}/fork; reference §6.4, check 72), checked against the real agent."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from app.storage.sqlite.driver import sqlite3
from tests.lineage.conftest import create, resolve


def _conversation(agent: Any, session_id: str, turns: int) -> list[int]:
    """Append ``turns`` user/assistant pairs (the second assistant calls two tools) with the agent."""
    ids = []
    for i in range(turns):
        ids.append(agent.append_message(session_id, "user", f"question {i}"))
        calls = (
            [
                {"id": "a", "type": "function", "function": {"name": "read", "arguments": "{}"}},
                {"id": "b", "type": "function", "function": {"name": "grep", "arguments": "{}"}},
            ]
            if i == 1
            else None
        )
        ids.append(agent.append_message(session_id, "assistant", f"answer {i}", tool_calls=calls))
    return ids


def test_fork_copies_active_messages(client: TestClient, agent: Any, raw: sqlite3.Connection) -> None:
    parent = create(client, source="cli", title="T", model="m1", system_prompt="sys")
    _conversation(agent, parent["id"], 3)
    response = client.post(f"/sessions/{parent['id']}/fork", json={})
    assert response.status_code == 201, response.text
    child = response.json()
    assert response.headers["Location"] == f"/sessions/{child['id']}"
    assert child["parent_session_id"] == parent["id"]
    assert child["model_config"] == {"_branched_from": parent["id"]}
    assert (child["title"], child["model"], child["source"]) == ("T #2", "m1", "cli")
    assert (child["message_count"], child["tool_call_count"]) == (6, 2)
    assert child["has_system_prompt"] is True
    assert child["lineage_root_id"] == child["id"]
    assert client.get(f"/sessions/{parent['id']}").json()["end_reason"] == "branched"
    # Same conversation for the agent, in order, tool calls intact.
    original = agent.get_messages_as_conversation(parent["id"])
    copied = agent.get_messages_as_conversation(child["id"])
    assert [(m["role"], m["content"]) for m in copied] == [(m["role"], m["content"]) for m in original]
    assert copied[3]["tool_calls"] == original[3]["tool_calls"]
    # The branch is listed beside its parent and never followed as a compression continuation.
    listed = {row["id"] for row in client.get("/sessions").json()["items"]}
    assert {parent["id"], child["id"]} <= listed
    assert agent.get_compression_tip(parent["id"]) == parent["id"]
    assert resolve(client, ref=parent["id"])["id"] == parent["id"]
    assert agent.get_session(child["id"])["parent_session_id"] == parent["id"]
    # The copies are searchable through the agent's FTS triggers.
    assert (
        raw.execute("SELECT COUNT(*) FROM messages_fts WHERE messages_fts MATCH 'question'").fetchone()[0]
        == 6
    )


def test_fork_up_to_message(client: TestClient, agent: Any) -> None:
    parent = create(client, source="cli")
    ids = _conversation(agent, parent["id"], 3)
    child = client.post(f"/sessions/{parent['id']}/fork", json={"message_id": ids[3]}).json()
    assert (child["message_count"], child["tool_call_count"]) == (4, 2)
    assert child["title"] is None
    contents = [m["content"] for m in agent.get_messages_as_conversation(child["id"])]
    assert contents == ["question 0", "answer 0", "question 1", "answer 1"]


def test_fork_skips_inactive_messages(client: TestClient, agent: Any, raw: sqlite3.Connection) -> None:
    parent = create(client, source="cli")
    ids = _conversation(agent, parent["id"], 2)
    raw.execute("UPDATE messages SET active = 0 WHERE id >= ?", (ids[2],))
    child = client.post(f"/sessions/{parent['id']}/fork", json={}).json()
    assert (child["message_count"], child["tool_call_count"]) == (2, 0)
    response = client.post(f"/sessions/{parent['id']}/fork", json={"message_id": ids[3]})
    assert (response.status_code, response.json()["code"]) == (404, "message_not_found")


def test_fork_unknown_message_or_session(client: TestClient, agent: Any, raw: sqlite3.Connection) -> None:
    parent = create(client, source="cli")
    other = create(client, source="cli")
    foreign = _conversation(agent, other["id"], 1)[0]
    for message_id in (999999, foreign):
        response = client.post(f"/sessions/{parent['id']}/fork", json={"message_id": message_id})
        assert (response.status_code, response.json()["code"]) == (404, "message_not_found")
    assert client.get(f"/sessions/{parent['id']}").json()["ended_at"] is None
    missing = client.post("/sessions/nope/fork", json={})
    assert (missing.status_code, missing.json()["code"]) == (404, "session_not_found")
    assert raw.execute("SELECT COUNT(*) FROM sessions").fetchone()[0] == 2


def test_fork_explicit_title(client: TestClient) -> None:
    taken = create(client, source="cli", title="taken")
    parent = create(client, source="cli", title="T")
    response = client.post(f"/sessions/{parent['id']}/fork", json={"title": "taken"})
    assert (response.status_code, response.json()["code"]) == (409, "title_in_use")
    assert response.json()["holder"] == taken["id"]
    assert client.get(f"/sessions/{parent['id']}").json()["ended_at"] is None
    named = client.post(f"/sessions/{parent['id']}/fork", json={"title": "experiment"}).json()
    assert named["title"] == "experiment"


def test_fork_ended_session_keeps_its_end_reason(client: TestClient) -> None:
    parent = create(client, source="telegram", model_config={"temperature": 0.2})
    client.post(f"/sessions/{parent['id']}/end", json={"end_reason": "user_exit"})
    child = client.post(f"/sessions/{parent['id']}/fork", json={}).json()
    assert child["model_config"] == {"temperature": 0.2, "_branched_from": parent["id"]}
    assert client.get(f"/sessions/{parent['id']}").json()["end_reason"] == "user_exit"


def test_fork_idempotency(client: TestClient, raw: sqlite3.Connection) -> None:
    parent = create(client, source="cli")
    headers = {"Idempotency-Key": "fork-1"}
    first = client.post(f"/sessions/{parent['id']}/fork", json={}, headers=headers)
    again = client.post(f"/sessions/{parent['id']}/fork", json={}, headers=headers)
    assert first.json()["id"] == again.json()["id"]
    assert raw.execute("SELECT COUNT(*) FROM sessions").fetchone()[0] == 2
    reused = client.post(f"/sessions/{parent['id']}/fork", json={"title": "x"}, headers=headers)
    assert (reused.status_code, reused.json()["code"]) == (422, "idempotency_key_reused")


def test_fork_with_client_id(client: TestClient) -> None:
    parent = create(client, source="cli")
    child = client.post(f"/sessions/{parent['id']}/fork", json={"id": "my-branch"}).json()
    assert child["id"] == "my-branch"
    taken = client.post(f"/sessions/{parent['id']}/fork", json={"id": "my-branch"})
    assert (taken.status_code, taken.json()["code"]) == (409, "session_exists")
    bad = client.post(f"/sessions/{parent['id']}/fork", json={"id": "../etc"})
    assert (bad.status_code, bad.json()["code"]) == (422, "invalid_session_id")


def test_fork_keeps_attachment_links(client: TestClient) -> None:
    parent = create(client, source="cli")
    upload = client.post(
        f"/sessions/{parent['id']}/attachments", files={"file": ("notes.txt", b"hello notes", "text/plain")}
    )
    assert upload.status_code == 201, upload.text
    attachment = upload.json()["id"]
    appended = client.post(
        f"/sessions/{parent['id']}/messages",
        json={"messages": [{"role": "user", "content": "see file", "attachments": [attachment]}]},
    )
    assert appended.status_code == 201, appended.text
    child = client.post(f"/sessions/{parent['id']}/fork", json={}).json()
    items = client.get(f"/sessions/{child['id']}/messages").json()["items"]
    assert [a["id"] for a in items[0]["attachments"]] == [attachment]
    assert items[0]["id"] != appended.json()["items"][0]["id"]
