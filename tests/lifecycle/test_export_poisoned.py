"""Export with rows another writer stored that JSON cannot carry as they are: every other session is
written byte for byte as without them, values the encoder cannot take are written as their stored text,
values no JSON text can hold are left out, and the stream ends with one error record that ``POST /import``
reports. The export imports back into a fresh home (ours and the agent's) without loss."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import hermes_state
import orjson
import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.services import export
from app.settings import Settings
from app.storage.sqlite.driver import sqlite3
from tests.conftest import TOKEN
from tests.lifecycle.helpers import agent_db, make_session

HUGE = 123456789012345678901234567890
CLEAN = ["a1", "a2", "c1", "c2", "z1"]


def nested(depth: int) -> Any:
    value: Any = "leaf"
    for _ in range(depth):
        value = [value]
    return value


DEEP_TEXT = json.dumps(nested(300))
DEEPER_THAN_PYTHON = "[" * 1500 + "]" * 1500
# Each poisoned message's content or tool_calls as stored, and what the export writes for it.
AS_STORED = {
    "deep content": "\x00json:" + DEEP_TEXT,
    "huge int content": "\x00json:" + json.dumps([{"n": HUGE}]),
    "surrogate content": "\x00json:" + json.dumps([{"text": "\ud83d"}]),
}
CALLS_AS_STORED = {
    "deep calls": json.dumps([{"id": "t", "args": nested(260)}]),
    "deeper than python": DEEPER_THAN_PYTHON,
    "huge int calls": json.dumps([{"id": "t", "n": HUGE}]),
    "surrogate calls": json.dumps([{"id": "t", "text": "\udc00"}]),
    "negative huge": json.dumps([{"id": "t", "n": -HUGE}]),
}


def _client(home: Path, workers: int) -> TestClient:
    settings = Settings(home=home, api_token=TOKEN, titles_auto=False, export_workers=workers)
    return TestClient(create_app(settings), headers={"Authorization": f"Bearer {TOKEN}"})


def _insert(conn: sqlite3.Connection, sid: str, content: Any, tool_calls: Any = None, **cols: Any) -> None:
    names = ["session_id", "role", "content", "tool_calls", "timestamp", *cols]
    values = [sid, "assistant", content, tool_calls, 1_700_000_000.5, *cols.values()]
    conn.execute(f"INSERT INTO messages ({', '.join(names)}) VALUES ({', '.join('?' * len(values))})", values)
    conn.execute("UPDATE sessions SET message_count = message_count + 1 WHERE id = ?", (sid,))


def _build(home: Path) -> None:
    db = agent_db(home)
    for sid in CLEAN:
        make_session(db, sid, messages=5, title=f"clean {sid}", model_config={"t": 1})
    # The agent writes these itself: it stores content deeper than orjson encodes, and lone surrogates.
    make_session(db, "b_agent", messages=2)
    db.append_message("b_agent", "user", content=nested(300))
    db.append_message("b_agent", "user", content=[{"type": "text", "text": "\ud83d"}])
    db.append_message("b_agent", "assistant", content="x", tool_calls=[{"id": "t", "args": nested(260)}])
    db.create_session("b_config", "cli")
    db.close()
    conn = sqlite3.connect(home / "state.db")
    with conn:
        conn.execute("INSERT INTO sessions (id, source, started_at) VALUES ('b_raw', 'cli', 1700000000.0)")
        _insert(conn, "b_raw", "before")
        for content in AS_STORED.values():
            _insert(conn, "b_raw", content)
        for calls in CALLS_AS_STORED.values():
            _insert(conn, "b_raw", "calls", calls)
        _insert(conn, "b_raw", "after")
        conn.execute("INSERT INTO sessions (id, source, started_at) VALUES ('b_bytes', 'cli', 1700000000.0)")
        _insert(conn, "b_bytes", "kept 1")
        _insert(conn, "b_bytes", b"\x00\x01 a BLOB")
        conn.execute(  # TEXT bytes that are not UTF-8 (a lone surrogate, CESU-8 style, and a stray byte)
            "INSERT INTO messages (session_id, role, content, timestamp) "
            "VALUES ('b_bytes', 'user', CAST(X'EDA0BD20FF' AS TEXT), 1700000000.5)"
        )
        conn.execute("UPDATE sessions SET message_count = message_count + 1 WHERE id = 'b_bytes'")
        conn.execute("UPDATE messages SET reasoning = X'0102' WHERE content = 'kept 1'")  # BLOB, plain column
        _insert(conn, "b_bytes", "kept 2")
        # A session whose own row holds a BLOB cannot be written at all.
        conn.execute(
            "INSERT INTO sessions (id, source, started_at, title) VALUES ('b_head', 'cli', 1.0, X'00')"
        )
        _insert(conn, "b_head", "lost with its session")
        conn.execute("UPDATE sessions SET model_config = '{not json' WHERE id = 'b_config'")
        conn.execute(
            "UPDATE sessions SET model_config = ? WHERE id = 'b_agent'",
            (f'{{"n": {HUGE}, "d": {DEEP_TEXT}}}',),
        )
    conn.close()


@pytest.fixture(params=[(64, 2000, 0), (1, 2, 0), (2, 3, 2)], ids=["big-chunks", "tiny-chunks", "workers"])
def exported(
    request: pytest.FixtureRequest, home: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[dict[str, Any]]:
    sessions, messages, workers = request.param
    monkeypatch.setattr(export, "EXPORT_CHUNK_SESSIONS", sessions)
    monkeypatch.setattr(export, "EXPORT_CHUNK_MESSAGES", messages)
    _build(home)
    with _client(home, workers) as client:
        poisoned = client.get("/export.jsonl")
        assert poisoned.status_code == 200
        conn = sqlite3.connect(home / "state.db")
        with conn:
            for sid in ("b_agent", "b_config", "b_raw", "b_bytes", "b_head"):
                conn.execute("DELETE FROM messages WHERE session_id = ?", (sid,))
                conn.execute("DELETE FROM sessions WHERE id = ?", (sid,))
        conn.close()
        clean = client.get("/export.jsonl")
        assert clean.status_code == 200
    yield {"poisoned": poisoned.content, "clean": clean.content}


def _lines(body: bytes) -> dict[str, bytes]:
    return {orjson.loads(line).get("id", "_export_error"): line for line in body.splitlines()}


def test_every_other_session_is_written_as_without_the_poisoned_rows(exported: dict[str, Any]) -> None:
    poisoned, clean = _lines(exported["poisoned"]), _lines(exported["clean"])
    assert sorted(clean) == CLEAN
    for sid in CLEAN:
        assert poisoned[sid] == clean[sid], sid
    assert list(poisoned) == [*sorted([*CLEAN, "b_agent", "b_config", "b_raw", "b_bytes"]), "_export_error"]
    assert exported["poisoned"].endswith(b"\n")


def test_values_the_encoder_cannot_take_are_written_as_stored(exported: dict[str, Any]) -> None:
    lines = {sid: orjson.loads(line) for sid, line in _lines(exported["poisoned"]).items()}
    raw = lines["b_raw"]["messages"]
    assert [m["content"] for m in raw[:4]] == ["before", *AS_STORED.values()]
    assert [m["tool_calls"] for m in raw[4:-1]] == list(CALLS_AS_STORED.values())
    assert raw[-1]["content"] == "after" and len(raw) == 2 + len(AS_STORED) + len(CALLS_AS_STORED)
    agent = lines["b_agent"]["messages"]
    assert agent[2]["content"] == "\x00json:" + DEEP_TEXT
    assert agent[3]["content"] == "\x00json:" + json.dumps([{"type": "text", "text": "\ud83d"}])
    assert agent[4]["tool_calls"] == json.dumps([{"id": "t", "args": nested(260)}])
    assert lines["b_agent"]["model_config"] == f'{{"n": {HUGE}, "d": {DEEP_TEXT}}}'
    assert lines["b_config"]["model_config"] == "{not json"
    assert "unrenderable" not in exported["poisoned"].decode()


def test_values_no_json_can_hold_are_left_out_and_reported_last(exported: dict[str, Any]) -> None:
    lines = {sid: orjson.loads(line) for sid, line in _lines(exported["poisoned"]).items()}
    assert [m["content"] for m in lines["b_bytes"]["messages"]] == ["kept 2"]
    record = lines["_export_error"]["_export_error"]
    assert record["stopped_early"] is False
    assert record["sessions_skipped"] == [
        {"session_id": "b_head", "column": "title", "reason": "binary_value"}
    ]
    skipped = [(m["session_id"], m["column"], m["reason"]) for m in record["messages_skipped"]]
    assert skipped == [
        ("b_bytes", "reasoning", "binary_value"),
        ("b_bytes", "content", "binary_value"),
        ("b_bytes", "content", "invalid_utf8"),
    ]
    assert all(isinstance(m["message_id"], int) for m in record["messages_skipped"])
    assert "1 session(s)" in record["detail"] and "3 message(s)" in record["detail"]


def test_the_export_imports_back_without_loss(exported: dict[str, Any], tmp_path: Path) -> None:
    home = tmp_path / "restored"
    home.mkdir()
    with _client(home, 0) as client:
        r = client.post(
            "/import", content=exported["poisoned"], headers={"content-type": "application/jsonl"}
        )
        assert r.status_code == 200, r.text
        report = r.json()
        again = _lines(client.get("/export.jsonl").content)
    codes = {(e.get("session_id"), e["code"]) for e in report["errors"]}
    # The agent's import refuses a model_config that is not JSON, and so does ours.
    assert codes == {(None, "export_incomplete"), ("b_config", "invalid_session")}
    assert report["imported"] == len(CLEAN) + 3
    original = _lines(exported["poisoned"])
    for sid in [*CLEAN, "b_agent", "b_raw", "b_bytes"]:
        assert again[sid] == original[sid], sid
    assert "_export_error" not in again


def test_the_agent_imports_the_session_lines(exported: dict[str, Any], tmp_path: Path) -> None:
    lines = [json.loads(line) for line in exported["poisoned"].splitlines()]
    sessions = [s for s in lines if "id" in s and s["id"] != "b_config"]
    db = hermes_state.SessionDB(db_path=tmp_path / "agent.db")
    try:
        result = db.import_sessions(sessions)
        assert result["ok"], result
        deep = db.get_messages("b_agent")[2]["content"]
        assert deep == nested(300)  # stored as the agent stores it, so the agent decodes it again
    finally:
        db.close()
    conn = sqlite3.connect(tmp_path / "agent.db")
    try:
        stored = conn.execute("SELECT content FROM messages WHERE session_id = 'b_raw' ORDER BY id LIMIT 4")
        assert [c for (c,) in stored] == ["before", *AS_STORED.values()]
    finally:
        conn.close()
