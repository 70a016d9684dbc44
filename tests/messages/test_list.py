"""GET /sessions/{id}/messages and /messages/{message_id}: pages, cursors, windows, filters
(reference checks 37-38)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.settings import Settings
from app.storage.sqlite.driver import sqlite3


def _fill(client: TestClient, sid: str, n: int) -> list[int]:
    batch = [{"role": "user" if i % 2 == 0 else "assistant", "content": f"m{i}"} for i in range(n)]
    items: list[dict[str, Any]] = client.post(f"/sessions/{sid}/messages", json={"messages": batch}).json()[
        "items"
    ]
    return [m["id"] for m in items]


def test_pages_follow_cursor_with_exact_has_more(client: TestClient, sid: str) -> None:
    ids = _fill(client, sid, 5)
    first = client.get(f"/sessions/{sid}/messages", params={"limit": 2})
    body = first.json()
    assert [m["id"] for m in body["items"]] == ids[:2] and body["has_more"] is True
    assert 'rel="next"' in first.headers["Link"]
    second = client.get(
        f"/sessions/{sid}/messages", params={"limit": 2, "cursor": body["next_cursor"]}
    ).json()
    assert [m["id"] for m in second["items"]] == ids[2:4] and second["has_more"] is True
    third = client.get(
        f"/sessions/{sid}/messages", params={"limit": 2, "cursor": second["next_cursor"]}
    ).json()
    assert [m["id"] for m in third["items"]] == ids[4:] and third["has_more"] is False
    assert third["next_cursor"] is None
    exact = client.get(f"/sessions/{sid}/messages", params={"limit": 5}).json()
    assert exact["has_more"] is False and "Link" not in client.get(f"/sessions/{sid}/messages").headers


def test_after_and_before(client: TestClient, sid: str) -> None:
    ids = _fill(client, sid, 6)
    after = client.get(f"/sessions/{sid}/messages", params={"after": ids[1], "limit": 2}).json()
    assert [m["id"] for m in after["items"]] == ids[2:4]
    before = client.get(f"/sessions/{sid}/messages", params={"before": ids[4], "limit": 2}).json()
    assert [m["id"] for m in before["items"]] == ids[2:4] and before["has_more"] is True
    older = client.get(
        f"/sessions/{sid}/messages", params={"cursor": before["next_cursor"], "limit": 2}
    ).json()
    assert [m["id"] for m in older["items"]] == ids[:2] and older["has_more"] is False


def test_other_sessions_never_leak(client: TestClient, sid: str) -> None:
    other = client.post("/sessions", json={"source": "cli"}).json()["id"]
    mine = _fill(client, sid, 2)
    _fill(client, other, 2)
    mine += _fill(client, sid, 2)
    got = client.get(f"/sessions/{sid}/messages").json()["items"]
    assert [m["id"] for m in got] == mine and {m["session_id"] for m in got} == {sid}


def test_window_around_anchor(client: TestClient, sid: str) -> None:
    """Check 37: ids 1..10, anchor 5, window 2 -> 3..7."""
    ids = _fill(client, sid, 10)
    body = client.get(f"/sessions/{sid}/messages", params={"around": ids[4], "window": 2}).json()
    assert [m["id"] for m in body["items"]] == ids[2:7]
    assert (body["messages_before"], body["messages_after"], body["anchor_id"]) == (2, 2, ids[4])
    assert body["has_more"] is False and body["next_cursor"] is None
    edge = client.get(f"/sessions/{sid}/messages", params={"around": ids[0], "window": 3}).json()
    assert [m["id"] for m in edge["items"]] == ids[:4] and edge["messages_before"] == 0


def test_anchor_not_in_session(client: TestClient, sid: str) -> None:
    """Check 38."""
    other = client.post("/sessions", json={"source": "cli"}).json()["id"]
    foreign = _fill(client, other, 1)[0]
    _fill(client, sid, 2)
    r = client.get(f"/sessions/{sid}/messages", params={"around": foreign})
    assert r.status_code == 404 and r.json()["code"] == "message_not_in_session"
    bad = client.get(f"/sessions/{sid}/messages", params={"around": 1, "after": 1})
    assert bad.status_code == 422 and bad.json()["code"] == "conflicting_parameters"
    assert client.get(f"/sessions/{sid}/messages", params={"around": 1, "window": 101}).status_code == 422


def test_role_filter_and_inactive(client: TestClient, sid: str) -> None:
    ids = _fill(client, sid, 4)
    users = client.get(f"/sessions/{sid}/messages", params={"role": "user"}).json()["items"]
    assert [m["id"] for m in users] == [ids[0], ids[2]]
    both = client.get(f"/sessions/{sid}/messages", params=[("role", "user"), ("role", "assistant")]).json()
    assert len(both["items"]) == 4
    assert client.get(f"/sessions/{sid}/messages", params={"role": "robot"}).status_code == 422
    assert client.post(f"/sessions/{sid}/rewind", json={"message_id": ids[2]}).status_code == 200
    active = client.get(f"/sessions/{sid}/messages").json()["items"]
    assert [m["id"] for m in active] == ids[:2]
    everything = client.get(f"/sessions/{sid}/messages", params={"include_inactive": "true"}).json()["items"]
    assert [(m["id"], m["active"]) for m in everything] == [(i, n < 2) for n, i in enumerate(ids)]


def test_parameter_bounds(client: TestClient, sid: str) -> None:
    for params in ({"limit": 0}, {"limit": 1001}, {"after": 0}, {"before": 2**63}, {"around": -1}):
        r = client.get(f"/sessions/{sid}/messages", params=params)
        assert r.status_code == 422, params
    assert client.get(f"/sessions/{sid}/messages", params={"limit": 1000}).status_code == 200
    assert client.get(f"/sessions/{sid}/messages", params={"after": 2**63 - 1}).status_code == 200
    bad = client.get(f"/sessions/{sid}/messages", params={"cursor": "garbage!"})
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_cursor"
    missing = client.get("/sessions/nope/messages")
    assert missing.status_code == 404 and missing.json()["code"] == "session_not_found"


def test_get_one_message(client: TestClient, sid: str) -> None:
    ids = _fill(client, sid, 1)
    got = client.get(f"/sessions/{sid}/messages/{ids[0]}")
    assert got.status_code == 200 and got.json()["content"] == "m0"
    other = client.post("/sessions", json={"source": "cli"}).json()["id"]
    wrong = client.get(f"/sessions/{other}/messages/{ids[0]}")
    assert wrong.status_code == 404 and wrong.json()["code"] == "message_not_found"
    gone = client.get(f"/sessions/nope/messages/{ids[0]}")
    assert gone.status_code == 404 and gone.json()["code"] == "session_not_found"
    assert client.get(f"/sessions/{sid}/messages/0").status_code == 422


@pytest.mark.usefixtures("sqlite_only")
def test_paging_uses_the_session_id_index(client: TestClient, sid: str, settings: Settings) -> None:
    """Pages seek by (session_id, id) instead of sorting the whole session."""
    _fill(client, sid, 3)
    conn = sqlite3.connect(settings.db_path)
    try:
        plan = conn.execute(
            "EXPLAIN QUERY PLAN SELECT id, content FROM messages WHERE session_id = ? AND id > ? "
            "AND active = 1 ORDER BY id LIMIT ?",
            (sid, 0, 10),
        ).fetchall()
    finally:
        conn.close()
    assert "idx_hs_messages_session_id" in " ".join(str(row[3]) for row in plan)
