"""Both directions against the real agent: its files served identically, our writes read identically."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import hermes_state
import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.compat.legacy import fts_ok
from tests.conftest import TOKEN

TOOL_CALLS = [
    {"id": "call_1", "type": "function", "function": {"name": "read_file", "arguments": '{"path": "a.py"}'}},
    {"id": "call_2", "type": "function", "function": {"name": "grep", "arguments": '{"q": "β"}'}},
]
MULTIMODAL = [
    {"type": "text", "text": "what is in this picture? 图片"},
    {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
]
SESSION_FIELDS = (
    "id",
    "title",
    "source",
    "user_id",
    "model",
    "parent_session_id",
    "started_at",
    "ended_at",
    "end_reason",
    "message_count",
    "tool_call_count",
    "input_tokens",
    "output_tokens",
)
MESSAGE_FIELDS = (
    "id",
    "session_id",
    "role",
    "content",
    "tool_call_id",
    "tool_calls",
    "tool_name",
    "timestamp",
)


def _build_agent_file(path: Path) -> None:
    agent = hermes_state.SessionDB(db_path=path)
    agent.create_session("20260101_100000_aaaaaa", "cli", model="claude-x", model_config={"temperature": 0.2})
    root = "20260101_100000_aaaaaa"
    agent.set_session_title(root, "Refactor parser")
    agent.append_message(root, "user", "Please refactor the parser ünïcode")
    agent.append_message(root, "assistant", "Looking.", tool_calls=TOOL_CALLS, finish_reason="tool_calls")
    agent.append_message(root, "tool", "def parse(): ...", tool_call_id="call_1", tool_name="read_file")
    agent.append_message(root, "tool", "no match", tool_call_id="call_2", tool_name="grep")
    agent.update_token_counts(root, input_tokens=1200, output_tokens=300, model="claude-x")
    agent.end_session(root, "compression")
    tip = "20260101_110000_bbbbbb"
    agent.create_session(tip, "cli", model="claude-x", parent_session_id=root)
    agent.set_session_title(tip, agent.get_next_title_in_lineage("Refactor parser"))
    agent.append_message(tip, "user", MULTIMODAL)
    agent.append_message(tip, "assistant", "A parser diagram.")
    agent.create_session("20260102_090000_cccccccc", "telegram", user_id="u42")
    agent.append_message("20260102_090000_cccccccc", "user", "hola 👋")
    agent.end_session("20260102_090000_cccccccc", "user_exit")
    agent.create_session("20260103_080000_dddddd", "cli")
    agent.close()


@pytest.fixture
def agent_file(home: Path) -> Path:
    path = home / "state.db"
    _build_agent_file(path)
    return path


@pytest.fixture
def api(settings: Settings, agent_file: Path) -> Iterator[TestClient]:
    """The app opened on the agent's file (built before the server starts)."""
    with TestClient(create_app(settings), headers={"Authorization": f"Bearer {TOKEN}"}) as c:
        yield c


def _url(sid: str) -> str:
    return f"/sessions/{quote(sid, safe='')}"


def test_agent_sessions_served_identically(api: TestClient, agent_file: Path) -> None:
    agent = hermes_state.SessionDB(db_path=agent_file)
    try:
        for sid in (
            "20260101_100000_aaaaaa",
            "20260101_110000_bbbbbb",
            "20260102_090000_cccccccc",
            "20260103_080000_dddddd",
        ):
            resp = api.get(_url(sid))
            assert resp.status_code == 200, resp.text
            ours, theirs = resp.json(), agent.get_session(sid)
            for field in SESSION_FIELDS:
                assert ours[field] == theirs[field], (sid, field)
            stored = theirs["model_config"]
            assert ours["model_config"] == (json.loads(stored) if stored else None)
            assert ours["lineage_root_id"] == (
                "20260101_100000_aaaaaa" if sid.startswith("20260101") else sid
            )
    finally:
        agent.close()


def test_agent_lineage_folded_in_list(api: TestClient) -> None:
    items = api.get("/sessions", params={"limit": 200}).json()["items"]
    ids = [s["id"] for s in items]
    assert "20260101_110000_bbbbbb" in ids and "20260101_100000_aaaaaa" not in ids
    assert {"20260102_090000_cccccccc", "20260103_080000_dddddd"} <= set(ids)
    everything = api.get("/sessions", params={"limit": 200, "include_children": "true"}).json()["items"]
    assert {"20260101_100000_aaaaaa", "20260101_110000_bbbbbb"} <= {s["id"] for s in everything}


def test_agent_messages_served_identically(api: TestClient, agent_file: Path) -> None:
    agent = hermes_state.SessionDB(db_path=agent_file)
    try:
        for sid in ("20260101_100000_aaaaaa", "20260101_110000_bbbbbb", "20260102_090000_cccccccc"):
            resp = api.get(f"{_url(sid)}/messages")
            assert resp.status_code == 200, resp.text
            ours, theirs = resp.json()["items"], agent.get_messages(sid)
            assert len(ours) == len(theirs)
            for mine, real in zip(ours, theirs, strict=True):
                for field in MESSAGE_FIELDS:
                    assert mine[field] == real[field], (sid, field, mine[field], real[field])
    finally:
        agent.close()


def _post_messages(api: TestClient, sid: str, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    resp = api.post(f"{_url(sid)}/messages", json={"messages": messages})
    assert resp.status_code == 201, resp.text
    items: list[dict[str, Any]] = resp.json()["items"]
    return items


def test_api_writes_read_identically_by_agent(client: TestClient, settings: Settings) -> None:
    created = client.post("/sessions", json={"source": "cli", "title": "Compat run", "model": "m-1"})
    assert created.status_code == 201, created.text
    sid = created.json()["id"]
    stored = _post_messages(
        client,
        sid,
        [
            {"role": "user", "content": "find the quokka 🦘 in 東京"},
            {"role": "assistant", "content": None, "tool_calls": TOOL_CALLS},
            {"role": "tool", "content": "quokka found", "tool_call_id": "call_1", "tool_name": "read_file"},
            {"role": "user", "content": MULTIMODAL},
        ],
    )
    assert client.patch(_url(sid), json={"title": "Compat run renamed"}).status_code == 200

    agent = hermes_state.SessionDB(db_path=settings.db_path)
    try:
        session = agent.get_session(sid)
        assert session is not None
        ours = client.get(_url(sid)).json()
        for field in SESSION_FIELDS:
            assert ours[field] == session[field], field
        assert session["message_count"] == 4
        assert session["tool_call_count"] == 2
        messages = agent.get_messages(sid)
        assert [m["id"] for m in messages] == [m["id"] for m in stored]
        assert messages[0]["content"] == "find the quokka 🦘 in 東京"
        assert messages[1]["tool_calls"] == TOOL_CALLS
        assert messages[2]["tool_name"] == "read_file" and messages[2]["tool_call_id"] == "call_1"
        assert messages[3]["content"] == MULTIMODAL
        assert all(m["active"] == 1 and isinstance(m["timestamp"], float) for m in messages)
        assert agent.resolve_session_by_title("Compat run renamed") == sid
        assert agent.get_next_title_in_lineage("Compat run renamed") == "Compat run renamed #2"
        hits = agent.search_messages("quokka")
        assert {h["session_id"] for h in hits} == {sid}
        assert agent.search_messages("東京")
        # And the agent keeps writing the session we created.
        agent.append_message(sid, "assistant", "agent reply")
        assert agent.get_session(sid)["message_count"] == 5
    finally:
        agent.close()
    assert client.get(_url(sid)).json()["message_count"] == 5
    fts_ok(settings.db_path)


def test_api_lineage_read_identically_by_agent(client: TestClient, settings: Settings) -> None:
    root = client.post("/sessions", json={"source": "cli", "title": "Long task"}).json()["id"]
    _post_messages(client, root, [{"role": "user", "content": "start the long task"}])
    resp = client.post(
        f"{_url(root)}/continuations",
        json={"messages": [{"role": "user", "content": "[summary] the long task so far"}]},
    )
    assert resp.status_code == 201, resp.text
    child = resp.json()["id"]
    branch = client.post(f"{_url(child)}/fork", json={})
    assert branch.status_code == 201, branch.text
    branch_id = branch.json()["id"]

    agent = hermes_state.SessionDB(db_path=settings.db_path)
    try:
        parent, cont = agent.get_session(root), agent.get_session(child)
        assert parent["end_reason"] == "compression" and parent["ended_at"] is not None
        assert cont["parent_session_id"] == root
        assert cont["title"] == "Long task #2"
        assert [m["content"] for m in agent.get_messages(child)] == ["[summary] the long task so far"]
        forked = agent.get_session(branch_id)
        assert forked["parent_session_id"] == child
        assert agent.get_session(child)["end_reason"] == "branched"
        assert [m["content"] for m in agent.get_messages(branch_id)] == ["[summary] the long task so far"]
        # The agent resolves the base title to the newest of the lineage, and numbers the next one after it.
        assert agent.resolve_session_by_title("Long task") == branch_id
        assert agent.get_next_title_in_lineage("Long task") == f"Long task #{_number(forked['title']) + 1}"
    finally:
        agent.close()
    fts_ok(settings.db_path)


def _number(title: str) -> int:
    return int(title.rsplit("#", 1)[1])
