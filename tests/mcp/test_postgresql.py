"""The search and listing tools on the PostgreSQL backend: the real server on a throwaway cluster, the SDK's
client, and the answers compared with ``GET /search`` and ``GET /sessions`` of the same server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from mcp_types import INVALID_PARAMS, PARSE_ERROR

from tests.conftest import TOKEN, start_live_server
from tests.mcp.client import body, calls, http_get, refusal_code
from tests.mcp.store import fill


def _without_success(found: dict[str, Any]) -> dict[str, Any]:
    assert found.pop("success") is True
    return found


def test_search_and_list_tools_on_postgresql(tmp_path: Path, pg_migrated_url: str) -> None:
    home = tmp_path / "home"
    home.mkdir()
    live = start_live_server(home, {"HERMES_DATABASE_URL": pg_migrated_url})
    try:
        base = live.base_url
        filled = fill(base)
        searches = [
            ({"query": "nginx"}, {"q": "nginx"}),
            ({"query": "nginx", "sort": "oldest", "limit": 1}, {"q": "nginx", "sort": "oldest", "limit": 1}),
            ({"query": "logrotate", "role_filter": "tool"}, {"q": "logrotate", "role": "tool"}),
            ({"session_id": filled.long}, {"session_id": filled.long}),
            (
                {"session_id": filled.long, "around_message_id": filled.anchor, "window": 2},
                {"session_id": filled.long, "around_message_id": filled.anchor, "window": 2},
            ),
            ({}, {}),
        ]
        found = calls(base, "session_search", [arguments for arguments, _ in searches])
        assert body(found[0])["count"] == 2
        for result, (_, params) in zip(found, searches, strict=True):
            assert _without_success(body(result)) == http_get(base, "/search", **params)

        listings = [{}, {"limit": 2}, {"source": ["telegram"]}, {"q": "vacuum"}, {"min_messages": 5}]
        for result, params in zip(calls(base, "sessions_list", listings), listings, strict=True):
            assert body(result) == http_get(base, "/sessions", **params)

        (missing,) = calls(base, "session_get", [{"session_id": "no-such-session"}])
        assert refusal_code(missing) == "session_not_found"
    finally:
        live.stop()


def test_ids_postgresql_cannot_hold_are_refused_not_crashes(tmp_path: Path, pg_migrated_url: str) -> None:
    """A NUL in a transcript's id is refused as an unknown resource, a lone surrogate as JSON that does not
    parse: neither reaches the database, where binding them would fail."""
    home = tmp_path / "home"
    home.mkdir()
    live = start_live_server(home, {"HERMES_DATABASE_URL": pg_migrated_url})
    headers = {
        "Authorization": f"Bearer {TOKEN}",
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
    }
    try:
        for session_id, status in (("\\u0000", 200), ("a\\ud800b", 400)):
            message = (
                '{"jsonrpc": "2.0", "id": 7, "method": "resources/read", '
                f'"params": {{"uri": "hermes://sessions/{session_id}/transcript.md"}}}}'
            )
            response = httpx.post(f"{live.base_url}/mcp", content=message.encode(), headers=headers)
            assert response.status_code == status, response.text
            error = response.json()["error"]
            assert error["code"] == (INVALID_PARAMS if status == 200 else PARSE_ERROR)
        assert httpx.get(f"{live.base_url}/readyz").status_code == 200
    finally:
        live.stop()
