"""Scroll, read and browse (checks 11.10: 103, 107-111, 116), shape selection, clamps and errors."""

from __future__ import annotations

from fastapi.testclient import TestClient
from hermes_state import SessionDB

from tests.search.conftest import add_session, found, search


def _chat(n: int, word: str = "turn") -> list[tuple[str, str]]:
    return [("user" if i % 2 == 0 else "assistant", f"{word} {i}") for i in range(n)]


def test_browse_recent_roots_without_current_lineage(client: TestClient, agent: SessionDB) -> None:
    add_session(agent, "a", _chat(2))
    add_session(agent, "b", _chat(3))
    add_session(agent, "child", _chat(1), parent="b")
    add_session(agent, "c", _chat(1))
    add_session(agent, "t", _chat(1), source="tool")
    body = search(client)
    assert body["mode"] == "browse"
    assert found(body) == ["c", "b", "a"]
    assert body["message"].startswith("Showing 3 most recent sessions.")
    item = body["results"][1]
    assert set(item) == {
        "session_id",
        "title",
        "source",
        "started_at",
        "last_active",
        "message_count",
        "preview",
    }
    assert item["preview"] == "turn 0"
    assert found(search(client, current_session_id="child", limit=10)) == ["c", "a"]
    assert found(search(client, q="   ", limit=1)) == ["c"]  # a blank query browses, like the tool


def test_scroll_window_no_bookends_anchor_flagged(client: TestClient, agent: SessionDB) -> None:
    ids = add_session(agent, "s1", _chat(40))
    body = search(client, session_id="s1", around_message_id=ids[20], window=3)
    assert body["mode"] == "scroll"
    assert [m["id"] for m in body["messages"]] == ids[17:24]
    assert [m["id"] for m in body["messages"] if m.get("anchor")] == [ids[20]]
    assert "bookend_start" not in body
    assert (body["messages_before"], body["messages_after"]) == (3, 3)
    assert body["session_meta"]["model"] == "test-model"
    # Scrolling forward: the last id of one window is in the next.
    last = body["messages"][-1]["id"]
    following = search(client, session_id="s1", around_message_id=last, window=3)
    assert last in [m["id"] for m in following["messages"]]


def test_scroll_beats_query_and_window_clamps(client: TestClient, agent: SessionDB) -> None:
    ids = add_session(agent, "s1", _chat(50))
    body = search(client, session_id="s1", around_message_id=ids[25], q="turn", window=999)
    assert body["mode"] == "scroll"
    assert body["window"] == 20
    assert len(body["messages"]) == 41
    assert search(client, session_id="s1", around_message_id=ids[25], window=0)["window"] == 1
    assert search(client, session_id="s1", around_message_id=str(ids[25]))["mode"] == "scroll"


def test_scroll_errors(client: TestClient, agent: SessionDB) -> None:
    add_session(agent, "s1", _chat(3))
    other = add_session(agent, "s2", _chat(3))
    missing = client.get("/search", params={"session_id": "nope", "around_message_id": 1})
    assert (missing.status_code, missing.json()["code"]) == (404, "session_not_found")
    foreign = client.get("/search", params={"session_id": "s1", "around_message_id": other[0]})
    assert (foreign.status_code, foreign.json()["code"]) == (404, "message_not_in_session")
    assert foreign.json()["detail"] == f"around_message_id {other[0]} not in session_id s1"
    bad = client.get("/search", params={"session_id": "s1", "around_message_id": "twelve"})
    assert bad.status_code == 422
    own = client.get(
        "/search", params={"session_id": "s2", "around_message_id": other[0], "current_session_id": "s2"}
    )
    assert (own.status_code, own.json()["code"]) == (409, "anchor_in_current_lineage")


def test_scroll_rebinds_within_lineage(client: TestClient, agent: SessionDB) -> None:
    add_session(agent, "root", _chat(2))
    agent.end_session("root", "compression")
    child_ids = add_session(agent, "child", _chat(4), parent="root")
    body = search(client, session_id="root", around_message_id=child_ids[1])
    assert body["session_id"] == "child"
    assert "warning" in body


def test_read_small_and_large(client: TestClient, agent: SessionDB) -> None:
    add_session(agent, "small", _chat(5))
    body = search(client, session_id="small")
    assert body["mode"] == "read"
    assert (len(body["messages"]), body["truncated"], body["message_count"]) == (5, False, 5)
    ids = add_session(agent, "large", _chat(50))
    body = search(client, session_id="large")
    assert body["truncated"] is True
    assert body["message_count"] == 50
    assert [m["id"] for m in body["messages"]] == ids[:20] + ids[-10:]
    assert body["message"] == (
        "Session has 50 messages; showing first 20 + last 10. "
        "Pass around_message_id (any id above) to scroll the middle."
    )
    missing = client.get("/search", params={"session_id": "nope"})
    assert (missing.status_code, missing.json()["code"]) == (404, "session_not_found")


def test_read_includes_tool_rows(client: TestClient, agent: SessionDB) -> None:
    call = [{"id": "c1", "type": "function", "function": {"name": "terminal", "arguments": "{}"}}]
    add_session(
        agent,
        "s1",
        [
            ("user", "go"),
            {"role": "assistant", "content": "", "tool_calls": call},
            {"role": "tool", "content": "out", "tool_name": "terminal", "tool_call_id": "c1"},
        ],
    )
    messages = search(client, session_id="s1")["messages"]
    assert messages[1]["tool_calls"] == call
    assert messages[1]["content"] == ""
    assert (messages[2]["tool_name"], messages[2]["tool_call_id"]) == ("terminal", "c1")


def test_limit_clamps(client: TestClient, agent: SessionDB) -> None:
    for n in range(4):
        add_session(agent, f"s{n}", [("user", "shared word")])
    assert search(client, q="shared", limit=0)["count"] == 1
    assert search(client, q="shared", limit=500)["count"] == 4
    assert client.get("/search", params={"q": "shared", "limit": "abc"}).status_code == 422


def test_post_matches_get(client: TestClient, agent: SessionDB) -> None:
    add_session(agent, "s1", [("user", "same answer both ways")])
    get = search(client, q="answer", role="user,assistant")
    post = client.post("/search", json={"q": "answer", "role": "user,assistant"})
    assert post.status_code == 200
    assert post.json() == get
    assert client.post("/search", json={"q": "x", "bogus": 1}).status_code == 422
    surrogate = client.post(
        "/search", content=b'{"q": "bad\\ud800"}', headers={"Content-Type": "application/json"}
    )
    assert (surrogate.status_code, surrogate.json()["code"]) == (422, "invalid_text")


def test_non_ascii_not_escaped(client: TestClient, agent: SessionDB) -> None:
    add_session(agent, "s1", [("user", "你好世界")])
    raw = client.get("/search", params={"q": "你好世界"}).content
    assert "你好世界".encode() in raw


def test_requires_auth(anon_client: TestClient) -> None:
    assert anon_client.get("/search").status_code == 401


def test_scroll_anchor_beyond_64_bits(client: TestClient, agent: SessionDB) -> None:
    add_session(agent, "s1", _chat(2))
    # Bounded to int64 like every integer (the JSON policy refuses it in POST /search alike).
    response = client.get("/search", params={"session_id": "s1", "around_message_id": 10**30})
    assert (response.status_code, response.json()["code"]) == (422, "validation_error")
