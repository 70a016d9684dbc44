"""GET /sessions: preview, last_active, order, visibility, projection, cursors (reference 11.7, 11.8)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.domain.session_filter import SessionFilter
from app.storage.commit_notice import Changes
from app.storage.repos.sessions_repo import Sessions
from app.storage.rows import ListQuery
from app.storage.sqlite.driver import sqlite3
from tests.sessions.conftest import create, set_started


def _ids(client: TestClient, **params: Any) -> list[str]:
    response = client.get("/sessions", params=params)
    assert response.status_code == 200, response.text
    return [item["id"] for item in response.json()["items"]]


def _item(client: TestClient, sid: str, **params: Any) -> dict[str, Any]:
    items = client.get("/sessions", params=params).json()["items"]
    return next(item for item in items if item["id"] == sid)


def test_preview_rules(client: TestClient, agent: Any) -> None:
    for sid, text in (("nl", "line1\nline2"), ("long", "x" * 100), ("sixty", "y" * 60)):
        create(client, id=sid)
        agent.append_message(sid, "assistant", "first, but not a user message")
        agent.append_message(sid, "user", text)
        agent.append_message(sid, "user", "second")
    create(client, id="none")
    assert _item(client, "nl")["preview"] == "line1 line2"
    assert _item(client, "long")["preview"] == "x" * 60 + "..."
    assert _item(client, "sixty")["preview"] == "y" * 60
    assert _item(client, "none")["preview"] == ""
    assert client.get("/sessions/nl").json()["preview"] == "line1 line2"


def test_last_active(client: TestClient, agent: Any) -> None:
    empty = create(client, id="empty")
    assert _item(client, "empty")["last_active"] == empty["started_at"]
    create(client, id="busy")
    agent.append_message("busy", "user", "a", timestamp=5_000_000_000.0)
    agent.append_message("busy", "assistant", "b", timestamp=5_000_000_001.5)
    assert _item(client, "busy")["last_active"] == 5_000_000_001.5


def test_default_order_started_and_last_active(
    client: TestClient, agent: Any, raw: sqlite3.Connection
) -> None:
    for sid, started in (("old", 100.0), ("mid", 200.0), ("new", 300.0)):
        create(client, id=sid)
        set_started(raw, sid, started)
    agent.append_message("old", "user", "recent", timestamp=1000.0)
    assert _ids(client) == ["new", "mid", "old"]
    assert _ids(client, order="last_active") == ["old", "new", "mid"]


def test_visibility_of_children(client: TestClient, agent: Any, raw: sqlite3.Connection) -> None:
    create(client, id="root", source="cli")
    set_started(raw, "root", 100.0)
    agent.end_session("root", "branched")
    create(
        client, id="branch", source="cli", parent_session_id="root", model_config={"_branched_from": "root"}
    )
    create(
        client,
        id="delegate",
        source="subagent",
        parent_session_id="root",
        model_config={"_delegate_from": "root"},
    )
    create(
        client,
        id="deleg_cli",
        source="cli",
        parent_session_id="root",
        model_config={"_delegate_from": "root"},
    )
    create(client, id="tool", source="tool")
    assert set(_ids(client)) == {"root", "branch"}
    everything = set(_ids(client, include_children=True, exclude_source=["none"]))
    assert everything == {"root", "branch", "delegate", "deleg_cli", "tool"}
    assert set(_ids(client, source="tool")) == {"tool"}
    assert "tool" not in _ids(client, include_children=True, exclude_source="tool")


def test_compression_projection(client: TestClient, agent: Any, raw: sqlite3.Connection) -> None:
    create(client, id="s1", source="cli", title="T")
    set_started(raw, "s1", 100.0)
    agent.end_session("s1", "compression")
    create(client, id="s2", source="cli", parent_session_id="s1", title="T #2")
    set_started(raw, "s2", 200.0)
    agent.end_session("s2", "compression")
    create(client, id="s3", source="cli", parent_session_id="s2", title="T #3")
    set_started(raw, "s3", 300.0)
    agent.append_message("s3", "user", "live", timestamp=400.0)
    items = client.get("/sessions").json()["items"]
    assert len(items) == 1
    row = items[0]
    assert (row["id"], row["title"], row["lineage_root_id"]) == ("s3", "T #3", "s1")
    assert row["started_at"] == 100.0 and row["last_active"] == 400.0
    assert row["ended_at"] is None and row["message_count"] == 1 and row["preview"] == "live"
    agent_row = agent.list_sessions_rich()[0]
    assert (agent_row["id"], agent_row["_lineage_root_id"]) == (row["id"], row["lineage_root_id"])
    assert set(_ids(client, include_children=True)) == {"s1", "s2", "s3"}
    assert client.get("/sessions/s3").json()["lineage_root_id"] == "s1"
    assert _ids(client, status="active") == ["s3"]
    assert _ids(client, status="ended") == []
    assert set(_ids(client, status="ended", include_children=True)) == {"s1", "s2"}


def test_broken_chain_shows_root_raw(client: TestClient, agent: Any) -> None:
    create(client, id="r", source="cli")
    agent.end_session("r", "compression")
    assert _ids(client) == ["r"]
    assert _item(client, "r")["end_reason"] == "compression"


def test_archived_hidden_by_default(client: TestClient) -> None:
    create(client, id="a")
    create(client, id="b")
    client.patch("/sessions/a", json={"archived": True})
    assert _ids(client) == ["b"]
    assert set(_ids(client, include_archived=True)) == {"a", "b"}


def test_status_filter(client: TestClient) -> None:
    create(client, id="open")
    create(client, id="closed")
    client.post("/sessions/closed/end", json={"end_reason": "user_exit"})
    assert _ids(client, status="active") == ["open"]
    assert _ids(client, status="ended") == ["closed"]


def _walk(client: TestClient, **params: Any) -> list[str]:
    seen: list[str] = []
    response = client.get("/sessions", params=params)
    while True:
        body = response.json()
        seen.extend(item["id"] for item in body["items"])
        if not body["has_more"]:
            assert body["next_cursor"] is None and "link" not in response.headers
            return seen
        assert len(body["items"]) == params["limit"]
        link = response.headers["link"]
        assert link.endswith('>; rel="next"') and "cursor=" in link
        response = client.get("/sessions", params={**params, "cursor": body["next_cursor"]})


def test_cursor_pages_never_overlap_or_gap(client: TestClient, agent: Any, raw: sqlite3.Connection) -> None:
    ids = [f"s{i:02d}" for i in range(23)]
    for i, sid in enumerate(ids):
        create(client, id=sid)
        # Ties on started_at exercise the id tie-breaker.
        set_started(raw, sid, 1000.0 + i // 3)
        agent.append_message(sid, "user", "m", timestamp=2000.0 + (i * 7) % 23)
    expected = sorted(ids, key=lambda s: (1000.0 + ids.index(s) // 3, s), reverse=True)
    assert _walk(client, limit=5) == expected
    by_activity = sorted(ids, key=lambda s: (ids.index(s) * 7) % 23, reverse=True)
    assert _walk(client, limit=5, order="last_active") == by_activity
    assert _walk(client, limit=4, order="last_active") == by_activity
    assert _walk(client, limit=200) == expected


def test_has_more_exact_and_limits(client: TestClient) -> None:
    for i in range(3):
        create(client, id=f"x{i}")
    exact = client.get("/sessions", params={"limit": 3}).json()
    assert exact["has_more"] is False and len(exact["items"]) == 3
    assert client.get("/sessions", params={"limit": 2}).json()["has_more"] is True
    # Out-of-range limits are refused, not silently clamped (bad input gets a clear error).
    assert client.get("/sessions", params={"limit": 201}).status_code == 422
    assert client.get("/sessions", params={"limit": 200}).status_code == 200
    assert client.get("/sessions", params={"limit": 0}).status_code == 422
    assert len(client.get("/sessions").json()["items"]) == 3


def test_bad_cursors(client: TestClient) -> None:
    create(client, id="a")
    create(client, id="b")
    for cursor in ("garbage", "e30", "!!!"):
        response = client.get("/sessions", params={"cursor": cursor})
        assert response.status_code == 400 and response.json()["code"] == "invalid_cursor"
    started_cursor = client.get("/sessions", params={"limit": 1}).json()["next_cursor"]
    foreign = client.get("/sessions", params={"cursor": started_cursor, "order": "last_active"})
    assert foreign.status_code == 400 and foreign.json()["code"] == "invalid_cursor"


def test_list_never_carries_system_prompt(client: TestClient) -> None:
    create(client, id="sp", system_prompt="secret")
    item = client.get("/sessions").json()["items"][0]
    assert "system_prompt" not in item and item["has_system_prompt"] is True


def test_listing_follows_every_change(client: TestClient, agent: Any) -> None:
    create(client, id="c1")
    assert _item(client, "c1")["preview"] == ""
    agent.append_message("c1", "user", "from the agent")
    assert _item(client, "c1")["preview"] == "from the agent"
    client.patch("/sessions/c1", json={"title": "Renamed"})
    assert _item(client, "c1")["title"] == "Renamed"
    agent.end_session("c1", "user_exit")
    assert _item(client, "c1")["end_reason"] == "user_exit"


def test_status_filter_pages_over_projected_chains(
    client: TestClient, agent: Any, raw: sqlite3.Connection
) -> None:
    expected_active = []
    for i in range(9):
        root = f"r{i}"
        create(client, id=root, source="cli")
        set_started(raw, root, 100.0 + i)
        agent.end_session(root, "compression")
        tip = f"t{i}"
        create(client, id=tip, source="cli", parent_session_id=root)
        if i % 3 == 0:
            agent.end_session(tip, "user_exit")
        else:
            expected_active.append(tip)
    expected_active.reverse()
    assert _walk(client, limit=2, status="active") == expected_active
    assert _walk(client, limit=1, status="ended") == ["t6", "t3", "t0"]
    assert _ids(client, status="active", limit=200) == expected_active


@pytest.mark.usefixtures("sqlite_only")  # the page memo is the SQLite listing's (keyed by data_version)
def test_the_page_memo_tells_queries_apart_by_every_field(
    client: TestClient, raw: sqlite3.Connection
) -> None:
    create(client, id="on-cli", source="cli")
    create(client, id="on-telegram", source="telegram")
    set_started(raw, "on-cli", 100.0)
    set_started(raw, "on-telegram", 200.0)
    sessions = Sessions(raw, Changes())
    raw.execute("BEGIN")  # one snapshot: every call below may be answered from the memo
    try:
        first = sessions.list_sessions_cached(ListQuery(limit=1))
        assert [item["id"] for item in first.items] == ["on-telegram"]
        assert sessions.list_sessions_cached(ListQuery(limit=1)) is first
        filtered = sessions.list_sessions_cached(ListQuery(limit=1, filter=SessionFilter(source="cli")))
        assert [item["id"] for item in filtered.items] == ["on-cli"]
        second = sessions.list_sessions_cached(ListQuery(limit=1, after=first.next_position))
        assert [item["id"] for item in second.items] == ["on-cli"]
        assert sessions.list_sessions_cached(ListQuery(limit=2)).items == [*first.items, *second.items]
    finally:
        raw.execute("COMMIT")
