"""POST /sessions/{id}/messages: rows as the agent writes them, counters in the same transaction,
all-or-nothing batches, ended sessions, bad text, idempotent retries (reference checks 29-33)."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hermes_state import SessionDB

from app.settings import Settings
from app.storage.sqlite.driver import sqlite3
from tests.conftest import LiveServer, count_rows

Raw = Callable[..., list[sqlite3.Row]]


def _session(client: TestClient, sid: str) -> dict[str, Any]:
    body: dict[str, Any] = client.get(f"/sessions/{sid}").json()
    return body


@pytest.mark.usefixtures("sqlite_only")
def test_user_then_assistant_in_id_order(client: TestClient, sid: str, settings: Settings) -> None:
    """Check 29."""
    first = client.post(f"/sessions/{sid}/messages", json={"role": "user", "content": "hi"})
    second = client.post(f"/sessions/{sid}/messages", json={"role": "assistant", "content": "hello"})
    assert first.status_code == second.status_code == 201
    a, b = first.json()["items"][0], second.json()["items"][0]
    assert b["id"] > a["id"]
    listed = client.get(f"/sessions/{sid}/messages").json()["items"]
    assert [(m["role"], m["content"]) for m in listed] == [("user", "hi"), ("assistant", "hello")]
    assert listed == [a, b]  # the append response is the stored message
    assert _session(client, sid)["message_count"] == 2
    agent = SessionDB(db_path=settings.db_path)
    try:
        assert [(m["role"], m["content"]) for m in agent.get_messages(sid)] == [
            ("user", "hi"),
            ("assistant", "hello"),
        ]
        assert agent.get_session(sid)["message_count"] == 2
    finally:
        agent.close()


def test_tool_calls_counted_on_assistant_only(client: TestClient, sid: str, raw: Raw) -> None:
    """Checks 30 and 31."""
    calls = [
        {"id": f"c{i}", "type": "function", "function": {"name": "ls", "arguments": "{}"}} for i in range(3)
    ]
    r = client.post(
        f"/sessions/{sid}/messages", json={"role": "assistant", "content": None, "tool_calls": calls}
    )
    assert r.status_code == 201
    assert r.json()["items"][0]["tool_calls"] == calls
    assert _session(client, sid)["tool_call_count"] == 3
    results = [
        {"role": "tool", "content": "ok", "tool_call_id": f"c{i}", "tool_name": "ls"} for i in range(3)
    ]
    assert client.post(f"/sessions/{sid}/messages", json={"messages": results}).status_code == 201
    session = _session(client, sid)
    assert (session["tool_call_count"], session["message_count"]) == (3, 4)
    stored = raw("SELECT tool_calls FROM messages WHERE role = 'assistant'")[0]["tool_calls"]
    assert isinstance(stored, str) and stored.startswith("[{")
    got = client.get(f"/sessions/{sid}/messages", params={"role": "assistant"}).json()["items"][0]
    assert got["tool_calls"] == calls


def test_reasoning_assistant_only_and_empty_not_stored(client: TestClient, sid: str, raw: Raw) -> None:
    """Check 33: empty reasoning is absent; reasoning is kept on assistant rows only."""
    batch = [
        {"role": "assistant", "content": "a", "reasoning": "", "reasoning_content": ""},
        {"role": "assistant", "content": "b", "reasoning": "think", "reasoning_details": [{"k": 1}]},
        {"role": "user", "content": "c", "reasoning": "nope"},
    ]
    items = client.post(f"/sessions/{sid}/messages", json={"messages": batch}).json()["items"]
    assert [m["reasoning"] for m in items] == [None, "think", None]
    assert items[1]["reasoning_details"] == [{"k": 1}]
    rows = raw("SELECT reasoning, reasoning_content, reasoning_details FROM messages ORDER BY id")
    assert [tuple(r) for r in rows] == [(None, None, None), ("think", None, '[{"k": 1}]'), (None, None, None)]


@pytest.mark.usefixtures("sqlite_only")
def test_multimodal_content_uses_agent_encoding(
    client: TestClient, sid: str, settings: Settings, raw: Raw
) -> None:
    parts = [{"type": "text", "text": "look ü"}, {"type": "image_url", "image_url": {"url": "data:x"}}]
    item = client.post(f"/sessions/{sid}/messages", json={"role": "user", "content": parts}).json()["items"][
        0
    ]
    assert item["content"] == parts
    assert raw("SELECT content FROM messages")[0]["content"].startswith("\x00json:[")
    agent = SessionDB(db_path=settings.db_path)
    try:
        assert agent.get_messages(sid)[0]["content"] == parts
    finally:
        agent.close()
    assert client.get(f"/sessions/{sid}/messages/{item['id']}").json()["content"] == parts


def test_batch_timestamps_strictly_increase(client: TestClient, sid: str) -> None:
    batch: list[dict[str, Any]] = [{"role": "user", "content": str(i)} for i in range(5)]
    batch[2]["timestamp"] = 1_000.0  # explicit values are kept as given
    items = client.post(f"/sessions/{sid}/messages", json={"messages": batch}).json()["items"]
    stamps = [m["timestamp"] for m in items]
    assert stamps[2] == 1_000.0
    assert stamps[0] < stamps[1] and stamps[3] < stamps[4]
    assert all(isinstance(t, float) for t in stamps)


def test_integer_and_fractional_timestamps_mix_in_one_batch(client: TestClient, sid: str) -> None:
    batch = [
        {"role": "user", "content": "a", "timestamp": 1_700_000_000, "token_count": 3},
        {"role": "assistant", "content": "b", "timestamp": 1_700_000_000.5},
    ]
    response = client.post(f"/sessions/{sid}/messages", json={"messages": batch})
    assert response.status_code == 201, response.text
    stored = client.get(f"/sessions/{sid}/messages").json()["items"]
    assert [m["timestamp"] for m in stored] == [1_700_000_000, 1_700_000_000.5]
    assert [m["token_count"] for m in stored] == [3, None]


def test_batch_limits(client: TestClient, sid: str) -> None:
    ok = client.post(
        f"/sessions/{sid}/messages", json={"messages": [{"role": "user", "content": "x"}] * 1000}
    )
    assert ok.status_code == 201 and len(ok.json()["items"]) == 1000
    too_many = client.post(
        f"/sessions/{sid}/messages", json={"messages": [{"role": "user", "content": "x"}] * 1001}
    )
    assert too_many.status_code == 422
    empty = client.post(f"/sessions/{sid}/messages", json={"messages": []})
    assert empty.status_code == 422
    assert _session(client, sid)["message_count"] == 1000


def test_batch_is_all_or_nothing(client: TestClient, sid: str, raw: Raw) -> None:
    batch = [
        {"role": "user", "content": "fine"},
        {"role": "assistant", "content": "x", "tool_calls": [{"id": "1"}], "attachments": ["att_missing"]},
    ]
    r = client.post(f"/sessions/{sid}/messages", json={"messages": batch})
    assert r.status_code == 422 and r.json()["code"] == "unknown_attachment"
    assert r.json()["attachment_ids"] == ["att_missing"]
    assert raw("SELECT COUNT(*) FROM messages")[0][0] == 0
    session = _session(client, sid)
    assert (session["message_count"], session["tool_call_count"]) == (0, 0)


def test_bad_role_and_unknown_field(client: TestClient, sid: str) -> None:
    assert client.post(f"/sessions/{sid}/messages", json={"role": "robot", "content": "x"}).status_code == 422
    assert client.post(f"/sessions/{sid}/messages", json={"role": "user", "colour": "x"}).status_code == 422
    assert client.post(f"/sessions/{sid}/messages", json=[1]).status_code in (400, 422)


def test_nul_and_lone_surrogate_rejected(client: TestClient, sid: str, raw: Raw) -> None:
    nul = client.post(f"/sessions/{sid}/messages", json={"role": "user", "content": "a\x00b"})
    assert nul.status_code == 422 and nul.json()["code"] == "invalid_text"
    body = b'{"messages": [{"role": "user", "content": "ok"}, {"role": "user", "content": "x\\ud800y"}]}'
    lone = client.post(
        f"/sessions/{sid}/messages", content=body, headers={"Content-Type": "application/json"}
    )
    assert lone.status_code == 422 and lone.json()["code"] == "invalid_text"
    nested = client.post(
        f"/sessions/{sid}/messages",
        json={"role": "assistant", "tool_calls": [{"function": {"arguments": "\x00"}}]},
    )
    assert nested.status_code == 422 and nested.json()["code"] == "invalid_text"
    assert raw("SELECT COUNT(*) FROM messages")[0][0] == 0


def test_unknown_session_404(client: TestClient) -> None:
    r = client.post("/sessions/nope/messages", json={"role": "user", "content": "x"})
    assert r.status_code == 404 and r.json()["code"] == "session_not_found"


def test_ended_session_409_unless_reopen(client: TestClient, sid: str) -> None:
    assert client.post(f"/sessions/{sid}/end", json={"end_reason": "user_exit"}).status_code == 200
    r = client.post(f"/sessions/{sid}/messages", json={"role": "user", "content": "x"})
    assert r.status_code == 409 and r.json()["code"] == "session_ended"
    assert _session(client, sid)["message_count"] == 0
    ok = client.post(
        f"/sessions/{sid}/messages", params={"reopen": "true"}, json={"role": "user", "content": "x"}
    )
    assert ok.status_code == 201
    session = _session(client, sid)
    assert session["ended_at"] is None and session["end_reason"] is None and session["message_count"] == 1


def test_idempotent_retry_replays(client: TestClient, sid: str, raw: Raw) -> None:
    body = {"messages": [{"role": "user", "content": "once"}, {"role": "assistant", "content": "only"}]}
    headers = {"Idempotency-Key": "k-1"}
    first = client.post(f"/sessions/{sid}/messages", json=body, headers=headers)
    again = client.post(f"/sessions/{sid}/messages", json=body, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert raw("SELECT COUNT(*) FROM messages")[0][0] == 2
    assert _session(client, sid)["message_count"] == 2
    other = client.post(
        f"/sessions/{sid}/messages", json={"role": "user", "content": "other"}, headers=headers
    )
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"


@pytest.mark.usefixtures("sqlite_only")
def test_agent_and_server_interleave(client: TestClient, sid: str, settings: Settings) -> None:
    """The agent appends to the same file between our appends; both views and counters agree."""
    client.post(f"/sessions/{sid}/messages", json={"role": "user", "content": "from api"})
    agent = SessionDB(db_path=settings.db_path)
    try:
        agent.append_message(sid, "assistant", "from agent", tool_calls=[{"id": "x"}])
    finally:
        agent.close()
    client.post(f"/sessions/{sid}/messages", json={"role": "user", "content": "again"})
    items = client.get(f"/sessions/{sid}/messages").json()["items"]
    assert [m["content"] for m in items] == ["from api", "from agent", "again"]
    assert items[1]["tool_calls"] == [{"id": "x"}]
    session = _session(client, sid)
    assert (session["message_count"], session["tool_call_count"]) == (3, 1)


def test_concurrent_appends_over_http(live_server: LiveServer) -> None:
    """16 clients appending at once over loopback: every append acknowledged, counted and ordered."""
    with live_server.client() as c:
        session_id = c.post("/sessions", json={"source": "cli"}).json()["id"]

    def worker(n: int) -> list[int]:
        with live_server.client() as c:
            out = []
            for i in range(10):
                r = c.post(f"/sessions/{session_id}/messages", json={"role": "user", "content": f"{n}-{i}"})
                assert r.status_code == 201
                out.append(r.json()["items"][0]["id"])
            return out

    with ThreadPoolExecutor(16) as pool:
        per_client = list(pool.map(worker, range(16)))
    assert all(ids == sorted(ids) for ids in per_client)
    with live_server.client() as c:
        assert c.get(f"/sessions/{session_id}").json()["message_count"] == 160
        listed = c.get(f"/sessions/{session_id}/messages", params={"limit": 1000}).json()["items"]
    assert sorted(m["id"] for m in listed) == sorted(i for ids in per_client for i in ids)


def test_refused_batch_writes_nothing(client: TestClient, sid: str, settings: Settings) -> None:
    """The state check and the write are one statement on PostgreSQL: a refused batch leaves no row and
    no counter behind, and the reopened append then counts only itself."""
    calls = [{"id": "c1", "type": "function", "function": {"name": "t", "arguments": "{}"}}]
    batch = {"messages": [{"role": "user", "content": "a"}, {"role": "assistant", "tool_calls": calls}]}
    assert client.post(f"/sessions/{sid}/end", json={"end_reason": "user_exit"}).status_code == 200
    r = client.post(f"/sessions/{sid}/messages", json=batch)
    assert r.status_code == 409 and r.json()["code"] == "session_ended"
    assert count_rows(settings, "messages") == 0
    assert (_session(client, sid)["message_count"], _session(client, sid)["tool_call_count"]) == (0, 0)
    assert client.post(f"/sessions/{sid}/messages", params={"reopen": "true"}, json=batch).status_code == 201
    assert count_rows(settings, "messages") == 2
    assert (_session(client, sid)["message_count"], _session(client, sid)["tool_call_count"]) == (2, 1)
    missing = client.post("/sessions/nope/messages", json=batch)
    assert missing.status_code == 404 and count_rows(settings, "messages") == 2


def test_missing_session_is_reported_before_an_unknown_attachment(client: TestClient) -> None:
    body = {"role": "user", "content": "x", "attachments": ["att_missing"]}
    r = client.post("/sessions/nope/messages", json=body)
    assert r.status_code == 404 and r.json()["code"] == "session_not_found"
