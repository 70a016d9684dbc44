"""Rows another writer stored that cannot be rendered as they are (nested too deep for orjson, integers
beyond 64 bits, escapes that decode to lone surrogates) are reported in place by the unrenderable marker;
the page, the session list, search and fork around them keep answering."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.domain.stored_json import MAX_COUNTER
from app.settings import Settings
from app.storage.sqlite.driver import sqlite3

HUGE = 123456789012345678901234567890


def nested(depth: int) -> Any:
    value: Any = "leaf"
    for _ in range(depth):
        value = [value]
    return value


def _plant(settings: Settings, sql: str, *params: Any) -> int:
    conn = sqlite3.connect(settings.db_path)
    try:
        cursor = conn.execute(sql, params)
        conn.commit()
        return int(cursor.lastrowid or 0)
    finally:
        conn.close()


def _message(settings: Settings, sid: str, role: str, **columns: Any) -> int:
    names = ["session_id", "role", "timestamp", *columns]
    values = [sid, role, 1_700_000_000.0, *columns.values()]
    sql = f"INSERT INTO messages ({', '.join(names)}) VALUES ({', '.join('?' * len(values))})"
    message_id = _plant(settings, sql, *values)
    _plant(settings, "UPDATE sessions SET message_count = message_count + 1 WHERE id = ?", sid)
    return message_id


def _marker(value: Any, reason: str) -> str:
    assert isinstance(value, dict) and set(value) == {"unrenderable"}, value
    assert value["unrenderable"]["reason"] == reason
    raw: str = value["unrenderable"]["raw"]
    return raw


DEEP_CONTENT = "\x00json:" + json.dumps(nested(300))
DEEPER_THAN_PYTHON = "[" * 1500 + "]" * 1500  # json.loads raises RecursionError on this


@pytest.fixture
def poisoned(client: TestClient, settings: Settings, sid: str, agent: Any) -> dict[str, int]:
    """A session holding one good message and one poisoned row of each kind, written by the real agent
    where it can write them and by raw SQL where it cannot (deeper than its own json.dumps reaches)."""
    good = client.post(f"/sessions/{sid}/messages", json={"role": "user", "content": "hello poison"})
    assert good.status_code == 201, good.text
    ids = {"good": good.json()["items"][0]["id"]}
    ids["deep_content"] = agent.append_message(sid, role="user", content=nested(300))
    ids["deep_calls"] = agent.append_message(
        sid, role="assistant", content="calls", tool_calls=[{"id": "t", "args": nested(260)}]
    )
    ids["huge_details"] = agent.append_message(
        sid, role="assistant", content="details", reasoning_details=[{"n": HUGE}]
    )
    ids["surrogate"] = agent.append_message(sid, role="user", content=[{"type": "text", "text": "\ud83d"}])
    ids["recursion"] = _message(settings, sid, "assistant", content="r", tool_calls=DEEPER_THAN_PYTHON)
    ids["after"] = client.post(f"/sessions/{sid}/messages", json={"role": "user", "content": "after"}).json()[
        "items"
    ][0]["id"]
    return ids


def test_message_list_and_get_report_unrenderable_values(
    client: TestClient, sid: str, poisoned: dict[str, int]
) -> None:
    page = client.get(f"/sessions/{sid}/messages")
    assert page.status_code == 200, page.text
    by_id = {m["id"]: m for m in page.json()["items"]}
    assert by_id[poisoned["good"]]["content"] == "hello poison"
    assert by_id[poisoned["after"]]["content"] == "after"
    raw = _marker(by_id[poisoned["deep_content"]]["content"], "nesting_too_deep")
    assert json.loads(raw) == nested(300)
    _marker(by_id[poisoned["deep_calls"]]["tool_calls"], "nesting_too_deep")
    assert json.loads(
        _marker(by_id[poisoned["huge_details"]]["reasoning_details"], "integer_out_of_range")
    ) == [{"n": HUGE}]
    _marker(by_id[poisoned["surrogate"]]["content"], "invalid_unicode")
    assert _marker(by_id[poisoned["recursion"]]["tool_calls"], "nesting_too_deep") == DEEPER_THAN_PYTHON
    for message_id in poisoned.values():
        one = client.get(f"/sessions/{sid}/messages/{message_id}")
        assert one.status_code == 200, one.text
        assert one.json() == by_id[message_id]


def test_search_read_and_scroll_survive_unrenderable_rows(
    client: TestClient, sid: str, poisoned: dict[str, int]
) -> None:
    read = client.get("/search", params={"session_id": sid})
    assert read.status_code == 200, read.text
    contents = [m["content"] for m in read.json()["messages"]]
    assert "hello poison" in contents and "after" in contents
    scroll = client.get("/search", params={"session_id": sid, "around_message_id": poisoned["deep_content"]})
    assert scroll.status_code == 200, scroll.text
    found = client.get("/search", params={"q": "poison"})
    assert found.status_code == 200, found.text


def test_fork_copies_poisoned_rows_verbatim(
    client: TestClient, settings: Settings, sid: str, poisoned: dict[str, int]
) -> None:
    fork = client.post(f"/sessions/{sid}/fork", json={})
    assert fork.status_code == 201, fork.text
    child = fork.json()["id"]
    conn = sqlite3.connect(settings.db_path)
    try:
        columns = "role, content, tool_calls, reasoning_details"
        source = conn.execute(f"SELECT {columns} FROM messages WHERE session_id = ? ORDER BY id", (sid,))
        copied = conn.execute(f"SELECT {columns} FROM messages WHERE session_id = ? ORDER BY id", (child,))
        assert copied.fetchall() == source.fetchall()
    finally:
        conn.close()
    assert client.get(f"/sessions/{child}/messages").status_code == 200


@pytest.mark.usefixtures("sqlite_only")
def test_session_list_survives_unrenderable_model_config(client: TestClient, settings: Settings) -> None:
    created = client.post("/sessions", json={"source": "cli"}).json()["id"]
    other = client.post("/sessions", json={"source": "cli"}).json()["id"]
    stored = f'{{"max_tokens": {HUGE}, "deep": {json.dumps(nested(250))}}}'
    _plant(settings, "UPDATE sessions SET model_config = ? WHERE id = ?", stored, created)
    _plant(settings, "UPDATE sessions SET model_config = ? WHERE id = ?", "{not json", other)
    listing = client.get("/sessions")
    assert listing.status_code == 200, listing.text
    by_id = {s["id"]: s for s in listing.json()["items"]}
    assert _marker(by_id[created]["model_config"], "nesting_too_deep") == stored
    assert by_id[other]["model_config"] is None
    one = client.get(f"/sessions/{created}")
    assert one.status_code == 200, one.text
    fork = client.post(f"/sessions/{created}/fork", json={})
    assert fork.status_code == 201, fork.text
    conn = sqlite3.connect(settings.db_path)
    try:
        (copied,) = conn.execute(
            "SELECT model_config FROM sessions WHERE id = ?", (fork.json()["id"],)
        ).fetchone()
    finally:
        conn.close()
    assert f'"max_tokens":{HUGE}' in copied and f'"_branched_from":"{created}"' in copied
    assert client.get("/sessions", params={"include_children": True}).status_code == 200


@pytest.mark.usefixtures("sqlite_only")
def test_real_counters_read_as_saturated_integers(client: TestClient, settings: Settings, home: Path) -> None:
    sid = client.post("/sessions", json={"source": "cli"}).json()["id"]
    _plant(settings, "UPDATE sessions SET input_tokens = 1e30, output_tokens = 9e999 WHERE id = ?", sid)
    one = client.get(f"/sessions/{sid}")
    assert one.status_code == 200, one.text
    assert one.json()["input_tokens"] == MAX_COUNTER
    assert one.json()["output_tokens"] == MAX_COUNTER
    assert client.get("/sessions").status_code == 200
