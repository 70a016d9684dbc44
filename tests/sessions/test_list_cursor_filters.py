"""``GET /sessions`` cursors belong to the filter set that made them, and a relative time filter is pinned at
the first page: the cursor carries the instant it resolved to, so paging is stable while time passes."""

from __future__ import annotations

import base64
import time
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient

from app.api.schemas import filters as filter_schema
from app.storage.sqlite.driver import sqlite3
from tests.api.problem_assert import assert_problem
from tests.sessions.conftest import create, set_started

HOUR = 3600.0


def _pages(client: TestClient, params: dict[str, Any]) -> list[list[str]]:
    pages: list[list[str]] = []
    params = dict(params)
    while True:
        r = client.get("/sessions", params=params)
        assert r.status_code == 200, r.text
        body = r.json()
        pages.append([item["id"] for item in body["items"]])
        if not body["has_more"]:
            return pages
        params["cursor"] = body["next_cursor"]


def _store(client: TestClient, raw: sqlite3.Connection) -> float:
    now = time.time()
    for index in range(6):
        create(client, id=f"deploy-{index}", title=f"Deploy {index}", model="openai/gpt-5")
        set_started(raw, f"deploy-{index}", now - (index + 1) * 600)
    create(client, id="notes", title="Notes")
    set_started(raw, "notes", now - 30)
    return now


FIRST: dict[str, str | int] = {"title": "deploy", "newer_than": "2h", "limit": 2}


@pytest.mark.parametrize(
    "changed",
    [
        {"title": "deplo"},
        {"title": None},
        {"newer_than": "3h"},
        {"newer_than": None},
        {"older_than": "1m"},
        {"q": "deploy"},
        {"model": "gpt"},
        {"min_messages": 0},
        {"source": "cli"},
        {"exclude_source": "cron"},
        {"status": "active"},
        {"include_archived": "true"},
        {"include_children": "true"},
        {"order": "last_active"},
    ],
    ids=lambda c: str(c),
)
def test_a_cursor_used_with_another_filter_set_is_refused(
    client: TestClient, raw: sqlite3.Connection, changed: dict[str, Any]
) -> None:
    _store(client, raw)
    cursor = client.get("/sessions", params=FIRST).json()["next_cursor"]
    params = {k: v for k, v in {**FIRST, **changed, "cursor": cursor}.items() if v is not None}
    body = assert_problem(client.get("/sessions", params=params), 400, "invalid_cursor")
    assert body["detail"].startswith("The cursor was made by another listing: a next_cursor pages only the")
    assert "Send the first page's parameters with it" in body["detail"]


def test_the_same_filters_page_on_and_the_limit_may_change(
    client: TestClient, raw: sqlite3.Connection
) -> None:
    _store(client, raw)
    pages = _pages(client, FIRST)
    assert pages == [["deploy-0", "deploy-1"], ["deploy-2", "deploy-3"], ["deploy-4", "deploy-5"]]
    cursor = client.get("/sessions", params=FIRST).json()["next_cursor"]
    wider = client.get("/sessions", params={**FIRST, "limit": 10, "cursor": cursor})
    assert [item["id"] for item in wider.json()["items"]] == [f"deploy-{i}" for i in range(2, 6)]
    # A plain listing's cursor (the fast path's) still pages the plain listing.
    plain = client.get("/sessions", params={"limit": 3}).json()["next_cursor"]
    assert client.get("/sessions", params={"limit": 3, "cursor": plain}).status_code == 200
    assert_problem(client.get("/sessions", params={**FIRST, "cursor": plain}), 400, "invalid_cursor")


def test_a_relative_time_is_pinned_at_the_first_page(
    client: TestClient, raw: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = _store(client, raw)
    first = client.get("/sessions", params=FIRST).json()
    assert [item["id"] for item in first["items"]] == ["deploy-0", "deploy-1"]
    # Eighty-four minutes later, "newer than 2h" would only reach back to deploy-2 (30 minutes before the
    # first page); the cursor keeps the first page's instant, so every match of the first page stays.
    monkeypatch.setattr(
        filter_schema, "time", type("Clock", (), {"time": staticmethod(lambda: now + 1.4 * HOUR)})
    )
    fresh = client.get("/sessions", params={k: v for k, v in FIRST.items() if k != "limit"}).json()
    assert [item["id"] for item in fresh["items"]] == ["deploy-0", "deploy-1", "deploy-2"]
    params = {**FIRST, "cursor": first["next_cursor"]}
    seen = []
    while True:
        body = client.get("/sessions", params=params).json()
        seen += [item["id"] for item in body["items"]]
        if not body["has_more"]:
            break
        params["cursor"] = body["next_cursor"]
    assert seen == [f"deploy-{i}" for i in range(2, 6)]


def test_a_tampered_window_is_refused(client: TestClient, raw: sqlite3.Connection) -> None:
    _store(client, raw)
    cursor = client.get("/sessions", params=FIRST).json()["next_cursor"]
    data = orjson.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    for window in ("soon", [1.0], [True, None], None):
        data["p"]["w"] = window
        forged = base64.urlsafe_b64encode(orjson.dumps(data)).rstrip(b"=").decode()
        assert_problem(client.get("/sessions", params={**FIRST, "cursor": forged}), 400, "invalid_cursor")
