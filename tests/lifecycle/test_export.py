"""GET /export.jsonl — reference checks 11.11 (118–121, 123) and the agent's line format."""

from __future__ import annotations

import json
import time
from pathlib import Path

import orjson
import pytest
from fastapi.testclient import TestClient

from app.services import export
from tests.lifecycle.helpers import agent_db, make_session


def _lines(client: TestClient, **params: str) -> list[dict]:
    r = client.get("/export.jsonl", params=params)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/jsonl")
    return [orjson.loads(line) for line in r.content.splitlines()]


def test_export_one_session_has_every_column_and_active_messages(home: Path, client: TestClient) -> None:
    db = agent_db(home)
    make_session(db, "s1", messages=4, title="Premier 東京", model="m1", model_config={"temperature": 0.5})
    db.rewind_to_message("s1", db.get_messages("s1")[-1]["id"])  # soft-deletes the last message
    expected = db.export_session("s1")
    db.close()

    r = client.get("/export.jsonl", params={"session_id": "s1"})
    assert r.content.count(b"\n") == 1
    assert "東京".encode() in r.content and b"\\u" not in r.content  # UTF-8, non-ASCII unescaped
    (line,) = [orjson.loads(x) for x in r.content.splitlines()]
    assert expected is not None
    for key, value in expected.items():
        assert line[key] == value, key
    assert isinstance(line["model_config"], str)  # kept as the agent's JSON string
    assert isinstance(line["messages"][1]["tool_calls"], list)  # decoded
    assert all(m["active"] == 1 for m in line["messages"])  # rewound rows never exported
    assert len(line["messages"]) == 3


def test_export_all_matches_the_agents_export_all(home: Path, client: TestClient) -> None:
    db = agent_db(home)
    for i in range(5):
        make_session(db, f"s{i}", source="telegram" if i % 2 else "cli", messages=i)
    expected = {s["id"]: s for s in db.export_all()}
    db.close()
    lines = _lines(client)
    assert [x["id"] for x in lines] == sorted(expected)  # id order
    for line in lines:
        assert json.loads(json.dumps(expected[line["id"]])) == line


def test_export_filters_source_and_since(home: Path, client: TestClient) -> None:
    db = agent_db(home)
    make_session(db, "old", source="telegram", age_days=10)
    make_session(db, "new", source="telegram")
    make_session(db, "cli1", source="cli")
    db.close()
    assert [x["id"] for x in _lines(client, source="telegram")] == ["new", "old"]
    assert [x["id"] for x in _lines(client, source="telegram", since=str(time.time() - 86400))] == ["new"]


def test_export_unknown_session_is_404(client: TestClient) -> None:
    r = client.get("/export.jsonl", params={"session_id": "nope"})
    assert r.status_code == 404
    assert r.json()["code"] == "session_not_found"


def test_large_sessions_stream_in_pieces(
    home: Path, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(export, "EXPORT_CHUNK_MESSAGES", 7)
    monkeypatch.setattr(export, "EXPORT_CHUNK_SESSIONS", 2)
    db = agent_db(home)
    for i in range(5):
        make_session(db, f"s{i}", messages=[0, 30, 7, 8, 1][i])
    expected = {s["id"]: s for s in db.export_all()}
    db.close()
    lines = _lines(client)
    assert [len(x["messages"]) for x in lines] == [0, 30, 7, 8, 1]
    for line in lines:
        assert [m["id"] for m in line["messages"]] == [m["id"] for m in expected[line["id"]]["messages"]]


def test_empty_store_exports_nothing(client: TestClient) -> None:
    assert client.get("/export.jsonl").content == b""
