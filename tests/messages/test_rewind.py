"""POST /sessions/{id}/rewind: rows kept on disk with active = 0, counters as the agent keeps them
(reference checks 34-35)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient
from hermes_state import SessionDB

from app.settings import Settings
from app.storage.sqlite.driver import sqlite3

Raw = Callable[..., list[sqlite3.Row]]


def _conversation(client: TestClient, sid: str) -> list[int]:
    batch = [
        {"role": "user", "content": "one"},
        {"role": "assistant", "content": "two"},
        {"role": "user", "content": "three"},
        {"role": "assistant", "content": "four"},
    ]
    return [
        m["id"] for m in client.post(f"/sessions/{sid}/messages", json={"messages": batch}).json()["items"]
    ]


@pytest.mark.usefixtures("sqlite_only")
def test_rewind_hides_rows_but_keeps_them(client: TestClient, sid: str, raw: Raw, settings: Settings) -> None:
    """Check 34."""
    ids = _conversation(client, sid)
    r = client.post(f"/sessions/{sid}/rewind", json={"message_id": ids[2]})
    assert r.status_code == 200
    body = r.json()
    assert (body["rewound_count"], body["new_head_id"], body["rewind_count"]) == (2, ids[1], 1)
    assert body["message_count"] == 4  # the agent leaves message_count alone on rewind
    assert body["target_message"]["content"] == "three" and body["target_message"]["active"] is False
    rows = raw("SELECT id, active, compacted FROM messages ORDER BY id")
    assert [tuple(row) for row in rows] == [(ids[0], 1, 0), (ids[1], 1, 0), (ids[2], 0, 0), (ids[3], 0, 0)]
    agent = SessionDB(db_path=settings.db_path)
    try:
        assert [m["id"] for m in agent.get_messages(sid)] == ids[:2]
        assert agent.get_session(sid)["rewind_count"] == 1
    finally:
        agent.close()
    again = client.post(f"/sessions/{sid}/rewind", json={"message_id": ids[2]}).json()
    assert (again["rewound_count"], again["rewind_count"]) == (0, 2)


def test_rewind_target_must_be_a_user_message(client: TestClient, sid: str, raw: Raw) -> None:
    """Check 35."""
    ids = _conversation(client, sid)
    r = client.post(f"/sessions/{sid}/rewind", json={"message_id": ids[1]})
    assert r.status_code == 422 and r.json()["code"] == "not_a_user_message"
    assert raw("SELECT COUNT(*) FROM messages WHERE active = 0")[0][0] == 0
    assert raw("SELECT rewind_count FROM sessions")[0][0] == 0


def test_rewind_unknown_targets(client: TestClient, sid: str) -> None:
    other = client.post("/sessions", json={"source": "cli"}).json()["id"]
    foreign = _conversation(client, other)[0]
    r = client.post(f"/sessions/{sid}/rewind", json={"message_id": foreign})
    assert r.status_code == 404 and r.json()["code"] == "message_not_found"
    missing = client.post("/sessions/nope/rewind", json={"message_id": foreign})
    assert missing.status_code == 404 and missing.json()["code"] == "session_not_found"
    assert client.post(f"/sessions/{sid}/rewind", json={"message_id": 0}).status_code == 422
