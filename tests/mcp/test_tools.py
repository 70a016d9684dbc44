"""The MCP server over HTTP with the SDK's own client, against the real server on loopback: the tools answer
what ``GET /search``, ``GET /sessions`` and the session routes answer on the same store, refusals are tool
errors, and the endpoint wants the same bearer token as the API."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, TextResourceContents

from tests.conftest import TOKEN, LiveServer, start_live_server
from tests.mcp.client import body, call, calls, connected, http_get, refusal, refusal_code, with_session
from tests.mcp.store import Filled, append, create, fill

READ_TOOLS = {"session_search", "sessions_list", "session_get", "session_messages"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One real server for the module (the write tools off, as by default)."""
    home = tmp_path_factory.mktemp("mcp") / "home"
    home.mkdir()
    live = start_live_server(home)
    try:
        yield live
    finally:
        live.stop()


@pytest.fixture(scope="module")
def filled(server: LiveServer) -> Filled:
    return fill(server.base_url)


def _without_success(found: dict[str, Any]) -> dict[str, Any]:
    assert found.pop("success") is True
    return found


def test_lists_the_read_tools_and_the_transcript_template(server: LiveServer) -> None:
    async def listing(session: Any) -> tuple[Any, Any]:
        return await session.list_tools(), await session.list_resource_templates()

    tools, templates = with_session(server.base_url, listing)
    assert {tool.name for tool in tools.tools} == READ_TOOLS
    for tool in tools.tools:
        assert tool.annotations.read_only_hint is True
        assert len(tool.description) > 200, tool.name
    search = next(tool for tool in tools.tools if tool.name == "session_search")
    # The agent's own arguments, and GET /search's beside them.
    assert {"query", "limit", "sort", "session_id", "around_message_id", "window", "role_filter"} <= set(
        search.input_schema["properties"]
    )
    assert [t.uri_template for t in templates.resource_templates] == [
        "hermes://sessions/{session_id}/transcript.md"
    ]


@pytest.mark.parametrize(
    ("arguments", "params"),
    [
        ({"query": "nginx"}, {"q": "nginx"}),
        ({"query": "nginx", "limit": 1, "sort": "newest"}, {"q": "nginx", "limit": 1, "sort": "newest"}),
        ({"query": "logrotate", "role_filter": "tool"}, {"q": "logrotate", "role": "tool"}),
        ({"query": "nginx OR milk", "source": ["telegram"]}, {"q": "nginx OR milk", "source": "telegram"}),
        ({"query": "nginx", "exclude_source": ["cli"]}, {"q": "nginx", "exclude_source": "cli"}),
        ({"query": "kernel", "detail": "full", "window": 2}, {"q": "kernel", "detail": "full", "window": 2}),
        ({"query": "no such words anywhere"}, {"q": "no such words anywhere"}),
        ({}, {}),
        ({"limit": 2}, {"limit": 2}),
    ],
)
def test_session_search_discover_and_browse_answer_as_get_search(
    server: LiveServer, filled: Filled, arguments: dict[str, Any], params: dict[str, Any]
) -> None:
    found = body(call(server.base_url, "session_search", arguments))
    assert _without_success(found) == http_get(server.base_url, "/search", **params)


def test_session_search_read_and_scroll_answer_as_get_search(server: LiveServer, filled: Filled) -> None:
    read, scroll, linked = calls(
        server.base_url,
        "session_search",
        [
            {"session_id": filled.long},
            {"session_id": filled.long, "around_message_id": filled.anchor, "window": 3},
            # An `@session:<profile>/<id>` link's value, as the agent's tool takes it.
            {"session_id": f"work/{filled.nginx}"},
        ],
    )
    assert body(read)["mode"] == "read" and body(read)["truncated"] is True
    assert _without_success(body(read)) == http_get(server.base_url, "/search", session_id=filled.long)
    expected = http_get(
        server.base_url, "/search", session_id=filled.long, around_message_id=filled.anchor, window=3
    )
    assert _without_success(body(scroll)) == expected
    assert _without_success(body(linked)) == http_get(server.base_url, "/search", session_id=filled.nginx)


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"limit": 2},
        {"source": ["telegram"]},
        {"exclude_source": ["telegram"]},
        {"q": "nginx"},
        {"title": "postgres"},
        {"order": "last_active", "min_messages": 3},
        {"status": "ended"},
    ],
)
def test_sessions_list_answers_as_get_sessions(
    server: LiveServer, filled: Filled, params: dict[str, Any]
) -> None:
    page = body(call(server.base_url, "sessions_list", params))
    assert page == http_get(server.base_url, "/sessions", **params)


def test_sessions_list_pages_with_the_listings_cursor(server: LiveServer, filled: Filled) -> None:
    first = body(call(server.base_url, "sessions_list", {"limit": 2, "newer_than": "1d"}))
    assert first["has_more"] is True
    # A cursor pages the listing that made it: the same filters go with it.
    page_two = {"limit": 2, "newer_than": "1d", "cursor": first["next_cursor"]}
    second = body(call(server.base_url, "sessions_list", page_two))
    listed = http_get(server.base_url, "/sessions", limit=4, newer_than="1d")["items"]
    assert first["items"] + second["items"] == listed


def test_session_get_is_the_session_and_its_recap(server: LiveServer, filled: Filled) -> None:
    got = body(call(server.base_url, "session_get", {"session_id": filled.nginx, "exchanges": 1}))
    assert got["session"] == http_get(server.base_url, f"/sessions/{filled.nginx}")
    assert got["recap"] == http_get(server.base_url, f"/sessions/{filled.nginx}/recap", exchanges=1)


def test_session_messages_pages_as_the_messages_route(server: LiveServer, filled: Filled) -> None:
    route = f"/sessions/{filled.long}/messages"
    first, around = calls(
        server.base_url,
        "session_messages",
        [
            {"session_id": filled.long, "limit": 15},
            {"session_id": filled.long, "around": filled.anchor, "window": 2, "role": ["user"]},
        ],
    )
    assert body(first) == http_get(server.base_url, route, limit=15)
    assert body(around) == http_get(server.base_url, route, around=filled.anchor, window=2, role="user")
    cursor = body(first)["next_cursor"]
    second = call(server.base_url, "session_messages", {"session_id": filled.long, "cursor": cursor})
    assert body(second) == http_get(server.base_url, route, cursor=cursor)


def test_the_transcript_resource_is_the_markdown_export(server: LiveServer, filled: Filled) -> None:
    uri = f"hermes://sessions/{filled.nginx}/transcript.md"
    read = with_session(server.base_url, lambda s: s.read_resource(uri))
    (content,) = read.contents
    assert isinstance(content, TextResourceContents) and content.mime_type == "text/markdown"
    with httpx.Client(base_url=server.base_url, headers={"Authorization": f"Bearer {TOKEN}"}) as c:
        export = c.get("/export", params={"format": "md", "session_id": filled.nginx})
    assert content.text == export.text
    assert "rotate the nginx logs" in content.text


def test_a_missing_transcript_is_a_protocol_error_not_a_crash(server: LiveServer) -> None:
    uri = "hermes://sessions/no-such-session/transcript.md"

    async def read(session: Any) -> MCPError | None:
        try:
            await session.read_resource(uri)
        except MCPError as exc:
            return exc
        return None

    error = with_session(server.base_url, read)
    assert error is not None and error.code == INVALID_PARAMS
    assert "Session not found" in error.message


@pytest.mark.parametrize(
    ("tool", "arguments", "code"),
    [
        ("session_search", {"session_id": "no-such-session"}, "session_not_found"),
        ("session_search", {"session_id": "no-such-session", "around_message_id": 1}, "session_not_found"),
        ("session_search", {"query": "nginx", "role_filter": "robot"}, "invalid_role"),
        ("session_get", {"session_id": "no-such-session"}, "session_not_found"),
        ("session_messages", {"session_id": "no-such-session"}, "session_not_found"),
        ("session_messages", {"session_id": "x", "cursor": "not-a-cursor"}, "invalid_cursor"),
        ("session_messages", {"session_id": "x", "after": 1, "before": 5}, "conflicting_parameters"),
        ("sessions_list", {"older_than": "soon"}, "invalid_duration"),
        ("sessions_list", {"cursor": "not-a-cursor"}, "invalid_cursor"),
    ],
)
def test_refusals_are_tool_errors_with_the_apis_code(
    server: LiveServer, tool: str, arguments: dict[str, Any], code: str
) -> None:
    assert refusal_code(call(server.base_url, tool, arguments)) == code


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("session_search", {"query": "nul\x00byte"}),
        ("session_search", {"window": "wide"}),
        ("session_search", {"around_message_id": 2**64}),
        ("session_search", {"sort": "random"}),
        ("sessions_list", {"limit": 10**6}),
        ("sessions_list", {"limit": -1}),
        ("sessions_list", {"status": "sleeping"}),
        ("session_get", {}),
        ("session_get", {"session_id": "x", "exchanges": 0}),
        ("session_messages", {"session_id": "x", "limit": 1001}),
        ("session_messages", {"session_id": "x", "role": ["robot"]}),
    ],
)
def test_bad_arguments_are_tool_errors_not_crashes(
    server: LiveServer, tool: str, arguments: dict[str, Any]
) -> None:
    assert "validation error" in refusal(call(server.base_url, tool, arguments))
    assert httpx.get(f"{server.base_url}/healthz").status_code == 200


def test_an_unknown_tool_is_a_tool_error(server: LiveServer) -> None:
    assert "session_title" in refusal(
        call(server.base_url, "session_title", {"session_id": "x", "title": "t"})
    )


@pytest.mark.parametrize("token", [None, "wrong-token"])
def test_without_the_token_the_endpoint_answers_401(server: LiveServer, token: str | None) -> None:
    headers = {"Accept": "application/json, text/event-stream"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    message = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    response = httpx.post(f"{server.base_url}/mcp", json=message, headers=headers)
    assert response.status_code == 401
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["code"] == "unauthorized"

    async def connect() -> None:
        async with connected(server.base_url, token):
            pass

    # The SDK's client cannot even initialize.
    with pytest.raises(BaseException, match="error"):
        asyncio.run(connect())


def test_other_methods_are_405_problems(server: LiveServer) -> None:
    response = httpx.get(f"{server.base_url}/mcp", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 405
    assert response.headers["allow"] == "POST"
    assert response.json()["code"] == "method_not_allowed"


def test_searches_while_appends_run(server: LiveServer, filled: Filled) -> None:
    """Searches over MCP keep answering while another client appends, and find the new messages."""
    stop = threading.Event()
    appended: list[int] = []

    def writer() -> None:
        with httpx.Client(base_url=server.base_url, headers={"Authorization": f"Bearer {TOKEN}"}) as c:
            session = create(c, "appending")
            while not stop.is_set():
                n = len(appended)
                appended.extend(append(c, session, ("user", f"zebrafish batch {n}"), ("assistant", "ok")))

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        results = calls(server.base_url, "session_search", [{"query": "zebrafish", "limit": 1}] * 30)
    finally:
        stop.set()
        thread.join()
    found = [body(r) for r in results]
    assert all(f["mode"] == "discover" for f in found)
    assert appended and found[-1]["count"] == 1
    final = body(call(server.base_url, "session_search", {"query": "zebrafish", "limit": 1}))
    assert final["results"][0]["match_message_id"] in appended
    assert _without_success(final) == http_get(server.base_url, "/search", q="zebrafish", limit=1)


def test_write_tools_title_and_pin_with_hermes_mcp_write(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    live = start_live_server(home, {"HERMES_MCP_WRITE": "1"})
    try:
        base = live.base_url
        tools = with_session(base, lambda s: s.list_tools())
        assert {t.name for t in tools.tools} == {*READ_TOOLS, "session_title", "session_pin"}
        with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {TOKEN}"}) as c:
            first, second = create(c, "first"), create(c, "second")
        titled = body(call(base, "session_title", {"session_id": first, "title": "renamed"}))
        assert titled == http_get(base, f"/sessions/{first}")
        assert titled["title"] == "renamed"
        taken = call(base, "session_title", {"session_id": second, "title": "renamed"})
        assert refusal_code(taken) == "title_in_use"
        assert refusal_code(call(base, "session_title", {"session_id": second, "title": "x" * 500})) == (
            "title_too_long"
        )
        assert "validation error" in refusal(call(base, "session_title", {"session_id": second, "title": 5}))
        cleared = body(call(base, "session_title", {"session_id": first, "title": None}))
        assert cleared["title"] is None
        assert body(call(base, "session_pin", {"session_id": second}))["pinned"] is True
        assert http_get(base, f"/sessions/{second}")["pinned"] is True
        assert body(call(base, "session_pin", {"session_id": second, "pinned": False}))["pinned"] is False
        assert refusal_code(call(base, "session_pin", {"session_id": "nope"})) == "session_not_found"
    finally:
        live.stop()
    # The MCP transport's task group ends with the app: the server still shuts down cleanly.
    assert live.process.returncode == 0


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"not json",
        b"[]",
        b"{}",
        b'{"jsonrpc": "1.0", "id": 1, "method": "tools/list"}',
        b'{"jsonrpc": "2.0", "id": 1, "method": "no/such/method"}',
        b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": 5}}',
        b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "session_search", '
        b'"arguments": {"query": "\\u0000"}}}',
        b'{"jsonrpc": "2.0", "id": 99999999999999999999999, "method": "tools/list"}',
        b'{"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": "hermes://x/%00"}}',
        b"[" * 10_000,
    ],
)
def test_malformed_messages_are_refused_not_crashes(server: LiveServer, content: bytes) -> None:
    headers = {
        "Authorization": f"Bearer {TOKEN}",
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
    }
    response = httpx.post(f"{server.base_url}/mcp", content=content, headers=headers)
    assert response.status_code < 500, response.text
    assert httpx.get(f"{server.base_url}/healthz").status_code == 200


@pytest.mark.parametrize(
    ("headers", "status"),
    [({"Accept": "text/html"}, 406), ({"Content-Type": "text/plain"}, 400)],
)
def test_the_transport_wants_json(server: LiveServer, headers: dict[str, str], status: int) -> None:
    sent = {
        "Authorization": f"Bearer {TOKEN}",
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
        **headers,
    }
    message = b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}'
    response = httpx.post(f"{server.base_url}/mcp", content=message, headers=sent)
    assert response.status_code == status
    assert response.text
