"""The search and listing tools on the PostgreSQL backend: the real server on a throwaway cluster, the SDK's
client, and the answers compared with ``GET /search`` and ``GET /sessions`` of the same server."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from mcp_types import INVALID_PARAMS, PARSE_ERROR

from tests.conftest import TOKEN, LiveServer, start_live_server
from tests.mcp.client import body, calls, http_get, refusal_code
from tests.mcp.store import fill


def _without_success(found: dict[str, Any]) -> dict[str, Any]:
    assert found.pop("success") is True
    return found


@pytest.fixture(scope="module")
def live(pg_cluster: Any, pg_template: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server on PostgreSQL for the module: one test fills it, the other sends ids no store is asked
    for."""
    url = pg_cluster.create_database(template=pg_template)
    try:
        server = start_live_server(tmp_path_factory.mktemp("home"), {"HERMES_DATABASE_URL": url})
        try:
            yield server
        finally:
            server.stop()
    finally:
        pg_cluster.drop_database(url)


def test_search_and_list_tools_on_postgresql(live: LiveServer) -> None:
    base = live.base_url
    filled = fill(base)
    searches: list[tuple[dict[str, Any], dict[str, Any]]] = [
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

    listings: list[dict[str, Any]] = [
        {},
        {"limit": 2},
        {"source": ["telegram"]},
        {"q": "vacuum"},
        {"min_messages": 5},
    ]
    for result, params in zip(calls(base, "sessions_list", listings), listings, strict=True):
        assert body(result) == http_get(base, "/sessions", **params)

    (missing,) = calls(base, "session_get", [{"session_id": "no-such-session"}])
    assert refusal_code(missing) == "session_not_found"


def test_ids_postgresql_cannot_hold_are_refused_not_crashes(live: LiveServer) -> None:
    """A NUL in a transcript's id is refused as an unknown resource, a lone surrogate as JSON that does not
    parse: neither reaches the database, where binding them would fail."""
    headers = {
        "Authorization": f"Bearer {TOKEN}",
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
    }
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
