"""Our rows and the agent's rows are interchangeable; listings agree with ``list_sessions_rich``."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from app.storage.sqlite.driver import sqlite3
from tests.sessions.conftest import create, set_started


def test_agent_upsert_on_our_row_fills_only_nulls(client: TestClient, agent: Any) -> None:
    create(client, id="s", source="cli", model="m")
    agent.create_session("s", "cli", model="other", chat_id="c")
    body = client.get("/sessions/s").json()
    assert body["model"] == "m" and body["chat_id"] == "c"


def test_agent_rows_served(client: TestClient, agent: Any) -> None:
    agent.create_session("a1", "telegram", model="m", model_config={"provider": "x"}, system_prompt="p")
    agent.set_session_title("a1", "Agent made")
    agent.append_message("a1", "user", "hi there")
    agent.append_message("a1", "assistant", "hello", tool_calls=[{"id": "1", "function": {"name": "f"}}])
    body = client.get("/sessions/a1").json()
    assert body["title"] == "Agent made" and body["model_config"] == {"provider": "x"}
    assert body["message_count"] == 2 and body["tool_call_count"] == 1
    assert body["preview"] == "hi there" and body["has_system_prompt"] is True


def test_listing_matches_agent(client: TestClient, agent: Any, raw: sqlite3.Connection) -> None:
    t = 1000.0
    for i in range(6):
        create(client, id=f"r{i}", source="cli" if i % 2 else "telegram")
        set_started(raw, f"r{i}", t + i)
        agent.append_message(f"r{i}", "user", f"message {i} " + "z" * (i * 20))
    agent.end_session("r1", "compression")
    agent.create_session("r1c", "cli", parent_session_id="r1")
    set_started(raw, "r1c", t + 10)
    agent.end_session("r2", "branched")
    agent.create_session("r2b", "cli", parent_session_id="r2", model_config={"_branched_from": "r2"})
    set_started(raw, "r2b", t + 11)
    agent.create_session("r3d", "subagent", parent_session_id="r3", model_config={"_delegate_from": "r3"})
    agent.create_session("tool1", "tool")
    ours = client.get("/sessions", params={"limit": 50}).json()["items"]
    theirs = agent.list_sessions_rich(limit=50, exclude_sources=["tool", "subagent"])
    assert [s["id"] for s in ours] == [s["id"] for s in theirs]
    for mine, agents in zip(ours, theirs, strict=True):
        assert mine["preview"] == agents["preview"]
        assert mine["last_active"] == agents["last_active"]
        assert mine["started_at"] == agents["started_at"]
        assert mine["lineage_root_id"] == agents.get("_lineage_root_id", agents["id"])
    by_activity = client.get("/sessions", params={"limit": 50, "order": "last_active"}).json()["items"]
    agent_activity = agent.list_sessions_rich(
        limit=50, exclude_sources=["tool", "subagent"], order_by_last_active=True
    )
    assert [s["id"] for s in by_activity] == [s["id"] for s in agent_activity]


def test_agent_deletes_our_sessions(client: TestClient, agent: Any) -> None:
    create(client, id="x", source="cli", title="Gone soon")
    client.post("/sessions/x/usage", json={"input_tokens": 3, "model": "m"})
    assert agent.delete_session("x") is True
    assert client.get("/sessions/x").status_code == 404
