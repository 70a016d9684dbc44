"""Bad input and who may call: the same refusals as the agent's 0.19.0 dashboard, in its bodies, and never a
500; our own API keeps its problem+json."""

from __future__ import annotations

from typing import Any

import pytest

from app.web.signin import COOKIE, CSRF_HEADER
from tests.dashboard_api.conftest import AGENT_TOKEN, TOKEN, Pair
from tests.dashboard_api.test_reads import trimmed

HUGE = 10**20


@pytest.mark.parametrize(
    ("url", "params"),
    [
        ("/api/sessions", {"limit": "abc"}),
        ("/api/sessions", {"limit": "1.5"}),
        ("/api/sessions", {"archived": "maybe"}),
        ("/api/sessions", {"order": "oldest"}),
        ("/api/sessions", {"full": "perhaps"}),
        ("/api/sessions", {"source": "\x00"}),
        ("/api/sessions", {"cwd_prefix": "/work\x00"}),
        ("/api/sessions", {"exclude_sources": "\x00,,cli"}),
        ("/api/sessions", {"profile": "Other"}),
        ("/api/sessions", {"unknown": "1"}),
        ("/api/sessions/search", {"q": "zebra", "limit": HUGE}),
        ("/api/sessions/search", {"q": "zebra", "limit": "x"}),
        ("/api/sessions/search", {"q": "(((", "limit": 5}),
        ("/api/sessions/search", {"q": "NOT", "limit": 5}),
        ("/api/sessions/plain01/messages", {"limit": HUGE}),
        ("/api/sessions/plain01/messages", {"limit": "x"}),
        ("/api/sessions/a%00b", {}),
        ("/api/sessions/a%00b/messages", {}),
        ("/api/sessions/plain0%", {}),
        ("/api/sessions/abcd/latest-descendant", {}),
        ("/api/sessions/abcd/export", {}),
        ("/api/sessions/" + "x" * 5000, {}),
    ],
)
def test_bad_reads_are_refused_alike(reads: Pair, url: str, params: dict[str, Any]) -> None:
    theirs, ours = reads.both("GET", url, params=params)
    assert (ours[0], trimmed(ours[1])) == (theirs[0], trimmed(theirs[1]))
    assert ours[0] < 500


@pytest.mark.parametrize(
    ("method", "url", "body"),
    [
        ("POST", "/api/sessions/bulk-delete", {"ids": ["nope"], "extra": {"deep": [1, 2]}}),
        ("POST", "/api/sessions/bulk-delete", {"ids": [1, None]}),
        ("POST", "/api/sessions/bulk-delete", {"ids": ["x"] * 501}),
        ("POST", "/api/sessions/bulk-delete", [1, 2]),
        ("POST", "/api/sessions/prune", {"dry_run": "sometimes"}),
        ("POST", "/api/sessions/prune", {"older_than_days": -5}),
        ("POST", "/api/sessions/prune", {"min_messages": "many", "dry_run": True}),
        ("POST", "/api/sessions/import", {"sessions": "all"}),
        ("POST", "/api/sessions/import", {}),
        ("PATCH", "/api/sessions/plain01", {"title": 5}),
        ("PATCH", "/api/sessions/plain01", {"archived": "yes please"}),
        ("PATCH", "/api/sessions/abcd", {"title": "ambiguous"}),
    ],
)
def test_bad_bodies_are_refused_alike(pair: Pair, method: str, url: str, body: Any) -> None:
    theirs, ours = pair.both(method, url, json=body)
    assert ours == theirs
    assert ours[0] < 500


def test_a_body_beyond_the_json_policy_gets_the_dashboards_shape(reads: Pair) -> None:
    """A body nested deeper than our JSON policy allows is refused before FastAPI parses it, as a 422 whose
    ``detail`` lists the problem like FastAPI's own."""
    deep: Any = "x"
    for _ in range(200):
        deep = [deep]
    response = reads.ours.post("/api/sessions/bulk-delete", json={"ids": ["nope"], "extra": deep})
    assert response.status_code == 422
    assert response.headers["content-type"] == "application/json"
    assert response.json()["detail"][0]["type"] == "json_too_deep"


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({}, 401),
        ({"X-Hermes-Session-Token": "wrong"}, 401),
        ({"Authorization": "Bearer wrong"}, 401),
        ({"Authorization": "Basic {token}"}, 401),
        ({"X-Hermes-Session-Token": "{token}"}, 200),
        ({"Authorization": "Bearer {token}"}, 200),
    ],
)
def test_tokens_are_checked_alike(reads: Pair, headers: dict[str, str], status: int) -> None:
    """The dashboard's two token headers, each carrying that server's token; no token at all is refused
    before anything else, unknown paths included."""
    for ask, token in ((reads.ours.request, TOKEN), (reads.agent, AGENT_TOKEN)):
        # The clients' own token header is blanked: only the headers under test carry a token.
        sent = {"X-Hermes-Session-Token": "", **{k: v.format(token=token) for k, v in headers.items()}}
        response = ask("GET", "/api/sessions", headers=sent)
        assert response.status_code == status
        if status == 401:
            assert response.json() == {"detail": "Unauthorized"}
            assert ask("GET", "/api/unknown", headers=sent).status_code == 401


def test_the_web_pages_cookie_reads_and_changes_with_the_pages_header(pair: Pair) -> None:
    """A browser signed in to our web page may read; a change from it also needs the header the page's own
    changes carry (a cross-site form cannot set it)."""
    client = pair.ours
    key = client.app.state.web_signins.open_session()  # type: ignore[attr-defined]
    client.cookies.set(COOKIE, key)
    anonymous = {"X-Hermes-Session-Token": ""}
    assert client.get("/api/sessions", headers=anonymous).status_code == 200
    refused = client.delete("/api/sessions/plain01", headers=anonymous)
    assert refused.status_code == 401 and refused.json() == {"detail": "Unauthorized"}
    allowed = client.delete("/api/sessions/plain01", headers={**anonymous, CSRF_HEADER: "true"})
    assert allowed.json() == {"ok": True}
    client.cookies.set(COOKIE, "forged")
    assert client.get("/api/sessions", headers=anonymous).status_code == 401


def test_our_own_api_keeps_problem_json(reads: Pair) -> None:
    """The dashboard's bodies are for /api/ only: the rest of the API still answers problem+json."""
    response = reads.ours.get("/sessions/nope", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["code"] == "session_not_found"


@pytest.mark.parametrize(
    "params",
    [{}, {"limit": 5, "offset": 2, "order": "recent"}, {"archived": "only"}, {"full": "1", "source": "cli"}],
)
def test_the_listings_fast_path_answers_as_its_route(pair: Pair, params: dict[str, Any]) -> None:
    """A token takes the listing's fast path (app/api/fast_paths.py); a signed-in browser's cookie the
    route itself: the same answer."""
    client = pair.ours
    fast = client.get("/api/sessions", params=params)
    client.cookies.set(COOKIE, client.app.state.web_signins.open_session())  # type: ignore[attr-defined]
    routed = client.get("/api/sessions", params=params, headers={"X-Hermes-Session-Token": ""})
    assert fast.status_code == routed.status_code == 200
    assert fast.json() == routed.json()
