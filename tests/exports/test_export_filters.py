"""``GET /export`` takes the listing's filter set: the same sessions as ``GET /sessions`` for the same
filters, on a real SQLite file the agent wrote; with ``status=ended``, the agent's own selection."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.problem_assert import assert_problem
from tests.lifecycle.helpers import agent_db
from tests.lifecycle.test_filter_set import CASES, STORE, _agent_ids, _build, _copy, _listed

FORMATS = ("jsonl", "md", "html", "trace")


def _exported_ids(client: TestClient, params: dict[str, Any]) -> list[str]:
    r = client.get("/export", params={**params, "format": "jsonl"})
    assert r.status_code == 200, r.text
    return [json.loads(line)["id"] for line in r.content.splitlines()]


@pytest.mark.parametrize("flags", CASES, ids=[str(c) for c in CASES])
def test_export_selects_what_the_listing_selects(
    home: Path, tmp_path: Path, client: TestClient, flags: dict[str, Any]
) -> None:
    _build(home)
    exported = _exported_ids(client, flags)
    assert exported == sorted(exported)  # the export's order: by id
    assert set(exported) == _listed(client, flags)
    # With status=ended (what `hermes sessions export` sends with a filter): the agent's candidates.
    db = agent_db(_copy(home, tmp_path))
    try:
        agent = _agent_ids(db, flags)
    finally:
        db.close()
    ended = _exported_ids(client, {**flags, "status": "ended"})
    assert set(ended) == set(agent) == _listed(client, {**flags, "status": "ended"})
    active = _exported_ids(client, {**flags, "status": "active"})
    assert set(active) == {sid for sid in exported if not STORE[sid][2]}


def test_every_format_takes_the_filters(home: Path, client: TestClient) -> None:
    _build(home)
    flags = {"source": "telegram", "min_tokens": "1"}
    for fmt in FORMATS:
        r = client.get("/export", params={**flags, "format": fmt})
        assert r.status_code == 200, (fmt, r.text)
        assert "s04_tg_dm" in r.text and "s05_tg_group" not in r.text and "s01_deploy" not in r.text, fmt
    nothing = client.get("/export", params={"format": "jsonl", "title": "no such title"})
    assert nothing.status_code == 200 and nothing.content == b""


def test_filters_and_since_and_session_id_combine(home: Path, client: TestClient) -> None:
    _build(home)
    assert _exported_ids(client, {"session_id": "s04_tg_dm", "source": "telegram"}) == ["s04_tg_dm"]
    assert _exported_ids(client, {"session_id": "s04_tg_dm", "source": "cli"}) == []
    assert _exported_ids(client, {"session_id": "s04_tg_dm", "title": "groc"}) == ["s04_tg_dm"]
    assert _exported_ids(client, {"session_id": "s04_tg_dm", "title": "deploy"}) == []
    # Archived sessions are exported (the agent: "unlike prune/archive, export includes archived").
    assert "s06_archived" in _exported_ids(client, {"title": "deploy"})


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({"older_than": "soon"}, "invalid_duration"),
        ({"newer_than": "1d", "older_than": "1w"}, "empty_time_window"),
        ({"after": "2d", "before": "5d", "format": "md"}, "empty_time_window"),
        ({"min_cost": "-1"}, None),
        ({"min_messages": "many"}, None),
        ({"status": "closed"}, None),
        ({"title": "x" * 5000}, None),
    ],
)
def test_bad_filter_values_are_problems(
    home: Path, client: TestClient, params: dict[str, str], code: str | None
) -> None:
    _build(home)
    assert_problem(client.get("/export", params=params), 422, code)


def test_an_incremental_export_from_the_future_is_empty(client: TestClient) -> None:
    sid = client.post("/sessions", json={"source": "cli", "title": "t"}).json()["id"]
    client.post(f"/sessions/{sid}/messages", json={"role": "user", "content": "hi"})
    future = "32503680000"  # the year 3000
    for path, params in (("/export.jsonl", {}), ("/export", {"format": "jsonl"})):
        r = client.get(path, params={**params, "since": future})
        assert r.status_code == 200 and r.content == b"", (path, r.text)
