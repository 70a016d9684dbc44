"""Server-sent events over a real server on loopback: live delivery, replay, filtering, durability."""

from __future__ import annotations

import time
from pathlib import Path

import httpx

from tests.conftest import LiveServer, start_live_server
from tests.events.sse import open_stream
from tests.handoff.conftest import configure, new_session, request


def _append(http: httpx.Client, session_id: str, *roles: str) -> list[int]:
    messages = [{"role": role, "content": f"{role} says hi"} for role in roles]
    response = http.post(f"/sessions/{session_id}/messages", json={"messages": messages})
    assert response.status_code == 201, response.text
    return [m["id"] for m in response.json()["items"]]


def test_message_created_arrives_after_append(live_server: LiveServer) -> None:
    with live_server.client() as http:
        sid = new_session(http)
        stream = open_stream(live_server.base_url, "/events")
        try:
            assert stream.headers["content-type"].startswith("text/event-stream")
            sent = time.monotonic()
            ids = _append(http, sid, "user", "assistant")
            events = stream.events(2)
            latency = time.monotonic() - sent
        finally:
            stream.close()
    assert [e.event for e in events] == ["message.created", "message.created"]
    assert [e.data for e in events] == [
        {"session_id": sid, "message_id": ids[0], "role": "user"},
        {"session_id": sid, "message_id": ids[1], "role": "assistant"},
    ]
    assert events[0].id is not None and events[1].id == events[0].id + 1
    # Woken by the commit, not by the 1 s cross-process poll.
    assert latency < 0.9, latency


def test_last_event_id_replays_what_was_missed(live_server: LiveServer) -> None:
    with live_server.client() as http:
        sid = new_session(http, title="replay")
        _append(http, sid, "user", "assistant", "user")
        http.patch(f"/sessions/{sid}", json={"title": "renamed"})
        http.post(f"/sessions/{sid}/end", json={"end_reason": "cli_close"})
        everything = open_stream(live_server.base_url, "/events", {"Last-Event-ID": "0"})
        all_events = everything.events(5)
        everything.close()
        assert [e.event for e in all_events] == [
            "message.created",
            "message.created",
            "message.created",
            "session.updated",
            "session.ended",
        ]
        assert all_events[3].data == {"session_id": sid, "fields": ["title"]}
        assert all_events[4].data == {"session_id": sid, "end_reason": "cli_close"}
        # Resume after the second event, by header and (for EventSource-less clients) by query.
        after = all_events[1].id
        by_header = open_stream(live_server.base_url, "/events", {"Last-Event-ID": str(after)})
        by_query = open_stream(live_server.base_url, f"/events?last_event_id={after}")
        try:
            assert [e.id for e in by_header.events(3)] == [e.id for e in all_events[2:]]
            assert [e.id for e in by_query.events(3)] == [e.id for e in all_events[2:]]
            assert by_header.quiet(0.3) == []
        finally:
            by_header.close()
            by_query.close()


def test_per_session_stream_is_filtered(live_server: LiveServer) -> None:
    with live_server.client() as http:
        mine, other = new_session(http), new_session(http)
        stream = open_stream(live_server.base_url, f"/sessions/{mine}/events")
        try:
            _append(http, other, "user")
            _append(http, mine, "user")
            http.post(f"/sessions/{other}/end", json={"end_reason": "x"})
            http.post(f"/sessions/{mine}/end", json={"end_reason": "y"})
            events = stream.events(2)
            assert stream.quiet(0.5) == []
        finally:
            stream.close()
    assert [(e.event, e.data["session_id"]) for e in events] == [
        ("message.created", mine),
        ("session.ended", mine),
    ]


def test_handoff_changes_are_events(live_server: LiveServer) -> None:
    with live_server.client() as http:
        configure(http)
        sid = new_session(http, title="h")
        stream = open_stream(live_server.base_url, f"/sessions/{sid}/events")
        try:
            request(http, sid)
            http.post("/handoff/claim", json={"worker": "gw"})
            http.post(f"/handoff/{sid}/complete", json={"thread": {"chat_id": "1"}})
            events = stream.events(3)
        finally:
            stream.close()
    assert [(e.event, e.data["state"]) for e in events] == [
        ("handoff.updated", "pending"),
        ("handoff.updated", "running"),
        ("handoff.updated", "completed"),
    ]
    assert events[2].data == {
        "session_id": sid,
        "state": "completed",
        "platform": "telegram",
        "error": None,
        "thread": {"chat_id": "1"},
    }


def test_events_survive_a_restart(home: Path) -> None:
    server = start_live_server(home)
    try:
        with server.client() as http:
            sid = new_session(http)
            ids = _append(http, sid, "user", "assistant")
    finally:
        server.stop()
    again = start_live_server(home)
    try:
        stream = open_stream(again.base_url, "/events", {"Last-Event-ID": "0"})
        try:
            events = stream.events(2)
            assert [e.data["message_id"] for e in events] == ids
            with again.client() as http:
                _append(http, sid, "user")
            (newer,) = stream.events(1)
            assert newer.id is not None and events[1].id is not None and newer.id > events[1].id
        finally:
            stream.close()
    finally:
        again.stop()


def test_events_written_by_another_server_process_are_seen(live_server: LiveServer) -> None:
    other = start_live_server(live_server.home, {"HERMES_ALLOW_SECOND_SERVER": "1"})
    try:
        with other.client() as http:
            sid = new_session(http)
        stream = open_stream(live_server.base_url, "/events")
        try:
            with other.client() as http:
                _append(http, sid, "user")
            (event,) = stream.events(1, timeout=20)  # found by the periodic poll (1 s)
            assert event.data["session_id"] == sid
        finally:
            stream.close()
    finally:
        other.stop()


def test_keepalive_comments(home: Path) -> None:
    server = start_live_server(home, {"HERMES_EVENTS_KEEPALIVE_S": "0.3"})
    try:
        stream = open_stream(server.base_url, "/events")
        try:
            frame = stream.frames.get(timeout=20)
            assert frame.comment == "keepalive" and frame.event is None
        finally:
            stream.close()
    finally:
        server.stop()


def test_a_closed_stream_is_released_at_once(home: Path) -> None:
    """A client that hangs up ends its stream on the server: shutdown does not wait out the 10 s grace."""
    server = start_live_server(home)
    try:
        stream = open_stream(server.base_url, "/events")
        stream.close()
        time.sleep(0.3)
    finally:
        started = time.monotonic()
        server.stop()
    assert time.monotonic() - started < 5
