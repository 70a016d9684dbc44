"""Context compression (POST /sessions/{id}/continuations) and the lineage chain (reference §6.3, §1.11;
checks 66–71, 74), verified against the real agent's SessionDB on the same file."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from app.storage.sqlite.driver import sqlite3
from tests.lineage.conftest import compress, create, resolve

CLI_ID = re.compile(r"^\d{8}_\d{6}_[0-9a-f]{6}$")
MESSAGING_ID = re.compile(r"^\d{8}_\d{6}_[0-9a-f]{8}$")


def test_compress_titled_session(client: TestClient, agent: Any) -> None:
    s1 = create(client, source="cli", title="T", model="gpt-x")
    response = client.post(f"/sessions/{s1['id']}/continuations", json={})
    assert response.status_code == 201
    s2 = response.json()
    assert response.headers["Location"] == f"/sessions/{s2['id']}"
    assert response.headers["ETag"]
    assert CLI_ID.match(s2["id"])
    assert (s2["parent_session_id"], s2["title"], s2["source"], s2["model"]) == (
        s1["id"],
        "T #2",
        "cli",
        "gpt-x",
    )
    assert s2["lineage_root_id"] == s1["id"]
    assert s2["ended_at"] is None
    parent = client.get(f"/sessions/{s1['id']}").json()
    assert parent["end_reason"] == "compression"
    assert parent["ended_at"] is not None
    # The agent sees the same thing.
    assert agent.get_session(s1["id"])["end_reason"] == "compression"
    assert agent.get_session_title(s2["id"]) == "T #2"
    assert agent.get_compression_tip(s1["id"]) == s2["id"]


def test_messaging_source_keeps_its_id_format(client: TestClient) -> None:
    root = create(client, source="telegram")
    assert MESSAGING_ID.match(compress(client, root["id"])["id"])
    api = create(client)
    assert compress(client, api["id"])["id"].startswith("api_")


def test_chain_numbering_tip_lineage_and_resume(client: TestClient, agent: Any) -> None:
    s1 = create(client, source="cli", title="T")
    s2 = compress(client, s1["id"])
    s3 = compress(client, s2["id"])
    assert s3["title"] == "T #3"
    assert s3["lineage_root_id"] == s1["id"]
    assert agent.get_compression_tip(s1["id"]) == s3["id"]
    assert agent.resolve_resume_session_id(s1["id"]) == s3["id"]
    assert resolve(client, ref=s1["id"])["id"] == s3["id"]
    for member in (s1, s2, s3):
        items = client.get(f"/sessions/{member['id']}/lineage").json()["items"]
        assert [i["id"] for i in items] == [s1["id"], s2["id"], s3["id"]]
        assert [i["end_reason"] for i in items] == ["compression", "compression", None]
    # Listed once, as the tip.
    listed = [row["id"] for row in client.get("/sessions").json()["items"]]
    assert listed == [s3["id"]]


def test_broken_chain(client: TestClient) -> None:
    s1 = create(client, source="cli", title="T")
    s2 = compress(client, s1["id"])
    s3 = compress(client, s2["id"])
    assert client.delete(f"/sessions/{s2['id']}").status_code == 204
    assert [i["id"] for i in client.get(f"/sessions/{s1['id']}/lineage").json()["items"]] == [s1["id"]]
    assert [i["id"] for i in client.get(f"/sessions/{s3['id']}/lineage").json()["items"]] == [s3["id"]]
    assert resolve(client, ref=s1["id"])["id"] == s1["id"]


def test_untitled_compression_stays_untitled(client: TestClient) -> None:
    root = create(client, source="cli")
    assert compress(client, root["id"])["title"] is None


def test_title_failure_never_fails_compression(client: TestClient) -> None:
    # 100 characters is the maximum: "<title> #2" cannot be stored, so the child stays untitled.
    root = create(client, source="cli", title="x" * 100)
    child = compress(client, root["id"])
    assert child["title"] is None
    assert client.get(f"/sessions/{root['id']}").json()["end_reason"] == "compression"


def test_numbering_skips_taken_titles(client: TestClient) -> None:
    root = create(client, source="cli", title="proj")
    create(client, source="cli", title="proj #2")
    create(client, source="cli", title="proj #7")
    assert compress(client, root["id"])["title"] == "proj #8"


def test_initial_messages_and_system_prompt_in_one_transaction(client: TestClient, agent: Any) -> None:
    root = create(client, source="cli", title="T")
    calls = [
        {"id": "c1", "type": "function", "function": {"name": "read", "arguments": "{}"}},
        {"id": "c2", "type": "function", "function": {"name": "grep", "arguments": "{}"}},
    ]
    messages = [
        {"role": "system", "content": "summary of the earlier turns"},
        {"role": "user", "content": "continue, please — ünïcödé"},
        {"role": "assistant", "content": None, "tool_calls": calls},
        {"role": "tool", "content": "file body", "tool_call_id": "c1", "tool_name": "read"},
        {
            "role": "user",
            "content": [{"type": "text", "text": "look"}, {"type": "image_url", "image_url": {}}],
        },
    ]
    child = compress(client, root["id"], system_prompt="You are Hermes.", messages=messages)
    assert (child["message_count"], child["tool_call_count"]) == (5, 2)
    assert child["has_system_prompt"] is True
    assert child["preview"] == "continue, please — ünïcödé"
    full = client.get(f"/sessions/{child['id']}", params={"include": "system_prompt"}).json()
    assert full["system_prompt"] == "You are Hermes."
    conversation = agent.get_messages_as_conversation(child["id"])
    assert [m["role"] for m in conversation] == ["system", "user", "assistant", "tool", "user"]
    assert conversation[2]["tool_calls"][1]["function"]["name"] == "grep"
    assert conversation[4]["content"][0] == {"type": "text", "text": "look"}
    stored = agent.get_session(child["id"])
    assert (stored["message_count"], stored["tool_call_count"]) == (5, 2)


def test_rejected_messages_write_nothing(client: TestClient, raw: sqlite3.Connection) -> None:
    root = create(client, source="cli", title="T")
    bad = {"messages": [{"role": "user", "content": "ok"}, {"role": "narrator", "content": "no"}]}
    assert client.post(f"/sessions/{root['id']}/continuations", json=bad).status_code == 422
    nul = {"messages": [{"role": "user", "content": "a\u0000b"}]}
    assert client.post(f"/sessions/{root['id']}/continuations", json=nul).status_code == 422
    assert raw.execute("SELECT COUNT(*) FROM sessions").fetchone()[0] == 1
    assert raw.execute("SELECT end_reason FROM sessions").fetchone()[0] is None


def test_ended_parent(client: TestClient) -> None:
    root = create(client, source="cli")
    assert client.post(f"/sessions/{root['id']}/end", json={"end_reason": "user_exit"}).status_code == 200
    response = client.post(f"/sessions/{root['id']}/continuations", json={})
    assert response.status_code == 409
    assert response.json()["code"] == "session_ended"
    missing = client.post("/sessions/nope/continuations", json={})
    assert (missing.status_code, missing.json()["code"]) == (404, "session_not_found")


def test_idempotency_key_replays(client: TestClient, raw: sqlite3.Connection) -> None:
    root = create(client, source="cli", title="T")
    headers = {"Idempotency-Key": "compress-1"}
    first = client.post(f"/sessions/{root['id']}/continuations", json={}, headers=headers)
    again = client.post(f"/sessions/{root['id']}/continuations", json={}, headers=headers)
    assert first.status_code == again.status_code == 201
    assert first.json()["id"] == again.json()["id"]
    assert raw.execute("SELECT COUNT(*) FROM sessions").fetchone()[0] == 2


def test_agent_compression_child_is_followed(client: TestClient, agent: Any) -> None:
    # The other direction: the agent compresses, the server follows its chain.
    agent.create_session("20260101_000000_aaaaaa", "cli")
    agent.set_session_title("20260101_000000_aaaaaa", "A")
    agent.end_session("20260101_000000_aaaaaa", "compression")
    agent.create_session("20260101_000100_bbbbbb", "cli", parent_session_id="20260101_000000_aaaaaa")
    assert resolve(client, ref="20260101_000000")["id"] == "20260101_000100_bbbbbb"
    items = client.get("/sessions/20260101_000100_bbbbbb/lineage").json()["items"]
    assert [i["id"] for i in items] == ["20260101_000000_aaaaaa", "20260101_000100_bbbbbb"]


def test_cycles_and_very_long_chains_stop(client: TestClient, raw: sqlite3.Connection) -> None:
    raw.execute("BEGIN")
    for i in range(150):
        parent = f"chain_{i - 1:03d}" if i else None
        raw.execute(
            "INSERT INTO sessions (id, source, started_at, parent_session_id, ended_at, end_reason)"
            " VALUES (?, 'cli', ?, ?, ?, 'compression')",
            (f"chain_{i:03d}", 1000.0 + i, parent, 1000.5 + i),
        )
    raw.execute(
        "INSERT INTO sessions (id, source, started_at, ended_at, end_reason) VALUES"
        " ('loop_a', 'cli', 1, 2, 'compression'), ('loop_b', 'cli', 1, 2, 'compression')"
    )
    raw.execute("UPDATE sessions SET parent_session_id = 'loop_b' WHERE id = 'loop_a'")
    raw.execute("UPDATE sessions SET parent_session_id = 'loop_a' WHERE id = 'loop_b'")
    raw.execute("COMMIT")
    assert resolve(client, ref="chain_000")["id"] == "chain_100"
    assert resolve(client, ref="loop_a")["id"] == "loop_b"
    assert len(client.get("/sessions/chain_000/lineage").json()["items"]) == 101
    assert {i["id"] for i in client.get("/sessions/loop_a/lineage").json()["items"]} == {"loop_a", "loop_b"}
    assert client.get("/sessions/loop_b/recap").status_code == 200


def test_failure_after_partial_writes_rolls_everything_back(
    client: TestClient, raw: sqlite3.Connection
) -> None:
    # The unknown attachment is only found after the parent was ended and the child inserted.
    root = create(client, source="cli", title="T")
    body = {"messages": [{"role": "user", "content": "hi", "attachments": ["att_missing"]}]}
    response = client.post(f"/sessions/{root['id']}/continuations", json=body)
    assert response.status_code == 422, response.text
    assert raw.execute("SELECT COUNT(*) FROM sessions").fetchone()[0] == 1
    assert raw.execute("SELECT COUNT(*) FROM messages").fetchone()[0] == 0
    assert raw.execute("SELECT end_reason, title FROM sessions").fetchone()[:] == (None, "T")
    assert compress(client, root["id"])["title"] == "T #2"
