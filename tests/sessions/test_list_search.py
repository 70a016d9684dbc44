"""GET /sessions?q=: substring search over id, title and preview, combined with the listing's filters,
order, projection and keyset pagination."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient

from app.storage.sqlite.driver import sqlite3
from tests.api.problem_assert import assert_problem
from tests.api.test_fast_paths import AUTH, _call
from tests.sessions.conftest import create, set_started


def _ids(client: TestClient, **params: Any) -> list[str]:
    response = client.get("/sessions", params=params)
    assert response.status_code == 200, response.text
    return [item["id"] for item in response.json()["items"]]


@pytest.fixture
def corpus(client: TestClient, agent: Any, raw: sqlite3.Connection) -> None:
    """Sessions whose ids, titles and first user messages each carry a different word."""
    rows = [
        ("alpha-001", "cli", "Water the plants", "remind me at 7pm"),
        ("beta-002", "telegram", "Budget review", "what did we spend on Plants?"),
        ("gamma-003", "cli", None, "a second message shows nothing"),
        ("delta-004", "discord", "100% done", "under_score here"),
        ("eps-005", "cli", "1000 items", "underXscore there"),
    ]
    for index, (sid, source, title, first) in enumerate(rows):
        create(client, id=sid, source=source, **({"title": title} if title else {}))
        set_started(raw, sid, 100.0 + index)
        agent.append_message(sid, "assistant", "an assistant turn is never the preview: zebra")
        agent.append_message(sid, "user", first)
        agent.append_message(sid, "user", "later user turns are not the preview: yak")


@pytest.mark.usefixtures("corpus")
def test_title_id_and_preview_match_case_insensitively(client: TestClient) -> None:
    assert _ids(client, q="water") == ["alpha-001"]  # title
    assert _ids(client, q="BUDGET") == ["beta-002"]  # title, other case
    assert _ids(client, q="gamma") == ["gamma-003"]  # id prefix
    assert _ids(client, q="a-00") == ["delta-004", "gamma-003", "beta-002", "alpha-001"]  # id substring
    assert _ids(client, q="7PM") == ["alpha-001"]  # preview
    assert _ids(client, q="plants") == ["beta-002", "alpha-001"]  # title of one, preview of the other


@pytest.mark.usefixtures("corpus")
def test_only_the_first_user_message_is_searched(client: TestClient) -> None:
    assert _ids(client, q="zebra") == []
    assert _ids(client, q="yak") == []


@pytest.mark.usefixtures("corpus")
def test_like_wildcards_are_literal(client: TestClient) -> None:
    assert _ids(client, q="100%") == ["delta-004"]  # a wildcard % would also match "1000 items"
    assert _ids(client, q="under_score") == ["delta-004"]  # a wildcard _ would also match "underXscore"
    assert _ids(client, q="%") == ["delta-004"]
    assert _ids(client, q="\\") == []


@pytest.mark.usefixtures("corpus")
def test_no_match_is_an_empty_last_page(client: TestClient) -> None:
    response = client.get("/sessions", params={"q": "nothing like this"})
    assert response.json() == {"items": [], "next_cursor": None, "has_more": False}
    assert "link" not in response.headers


@pytest.mark.usefixtures("corpus")
def test_combined_with_source_filters(client: TestClient) -> None:
    assert _ids(client, q="plants", source="cli") == ["alpha-001"]
    assert _ids(client, q="plants", exclude_source="cli") == ["beta-002"]
    assert _ids(client, q="plants", source="cli", order="last_active") == ["alpha-001"]


def test_preview_is_matched_as_shown(client: TestClient, agent: Any) -> None:
    create(client, id="long")
    agent.append_message("long", "user", "x" * 50 + "\nyz" + "w" * 40)
    create(client, id="cut")
    # SQL reads 63 characters of the message before the preview is cut to 60: "vtai" is in those 63 only.
    agent.append_message("cut", "user", "v" * 60 + "tail")
    assert _ids(client, q="x yz") == ["long"]  # newlines fold to spaces, as in the preview
    assert _ids(client, q="vtai") == []
    assert _ids(client, q="vvv") == ["cut"]
    assert _ids(client, q="...") == []  # the ellipsis marks the cut, it is no text


def test_pagination_across_pages(client: TestClient, raw: sqlite3.Connection) -> None:
    for index in range(7):
        create(client, id=f"hit-{index}", title=f"Needle {index}")
        set_started(raw, f"hit-{index}", 1000.0 + 2 * index)
        create(client, id=f"miss-{index}", title=f"Haystack {index}")
        set_started(raw, f"miss-{index}", 1001.0 + 2 * index)
    seen: list[str] = []
    params: dict[str, Any] = {"q": "needle", "limit": 3}
    pages = 0
    while True:
        body = client.get("/sessions", params=params).json()
        seen += [item["id"] for item in body["items"]]
        pages += 1
        assert body["has_more"] == (body["next_cursor"] is not None)
        if not body["has_more"]:
            break
        params["cursor"] = body["next_cursor"]
    assert seen == [f"hit-{index}" for index in reversed(range(7))]
    assert pages == 3  # 3 + 3 + 1: has_more is exact, no empty trailing page
    exact = client.get("/sessions", params={"q": "needle", "limit": 7}).json()
    assert exact["has_more"] is False and len(exact["items"]) == 7


def test_a_cursor_belongs_to_its_search(client: TestClient) -> None:
    for index in range(3):
        create(client, id=f"n-{index}", title=f"Needle {index}")
    cursor = client.get("/sessions", params={"q": "needle", "limit": 1}).json()["next_cursor"]
    plain = client.get("/sessions", params={"limit": 1}).json()["next_cursor"]
    assert client.get("/sessions", params={"q": "needle", "cursor": cursor}).status_code == 200
    assert_problem(client.get("/sessions", params={"q": "other", "cursor": cursor}), 400, "invalid_cursor")
    assert_problem(client.get("/sessions", params={"cursor": cursor}), 400, "invalid_cursor")
    assert_problem(client.get("/sessions", params={"q": "needle", "cursor": plain}), 400, "invalid_cursor")


def test_compression_lineage_is_folded_and_matched_by_its_tip(
    client: TestClient, agent: Any, raw: sqlite3.Connection
) -> None:
    create(client, id="s1", source="cli", title="Old name")
    set_started(raw, "s1", 100.0)
    agent.end_session("s1", "compression")
    create(client, id="s2", source="cli", parent_session_id="s1", title="Fresh name")
    set_started(raw, "s2", 200.0)
    agent.append_message("s2", "user", "continued here")
    create(client, id="other", source="cli", title="Fresh but unrelated")
    set_started(raw, "other", 50.0)
    assert _ids(client, q="fresh name") == ["s2"]  # one row for the lineage, shown as its tip
    assert _ids(client, q="continued") == ["s2"]
    assert _ids(client, q="old name") == []  # the row shows the tip's title, not the root's
    assert _ids(client, q="fresh") == ["s2", "other"]
    assert _ids(client, q="name", include_children=True) == ["s2", "s1"]
    assert _ids(client, q="name", status="active") == ["s2"]


@pytest.mark.parametrize("q", ["", "x" * 201, "nul\x00"])
def test_invalid_q_is_refused(client: TestClient, q: str) -> None:
    assert client.get("/sessions", params={"q": q}).status_code == 422


def test_q_at_its_limit_is_accepted(client: TestClient) -> None:
    create(client, id="y" * 201)
    assert _ids(client, q="y" * 200) == ["y" * 201]


@pytest.mark.usefixtures("corpus")
def test_a_search_listing_skips_the_fast_path(client: TestClient) -> None:
    inner, sent = _call(client, "/sessions", b"", [AUTH], query=b"limit=3&q=plants", method="GET")
    assert len(inner.bodies) == 1 and sent[0]["status"] == 299
    routed = client.get("/sessions?limit=3&q=plants")
    assert [item["id"] for item in orjson.loads(routed.content)["items"]] == ["beta-002", "alpha-001"]
