"""The SQL-rendered export equals the Python encoding byte for byte, and the agent's ``export_all`` in value.

The store holds every column type, unicode, structured content, tool calls (plain, escaped, corrupt), NULLs,
floats of every shape, and rows SQLite must not render itself (they take the Python path).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient

from app.settings import Settings
from app.storage.commit_notice import Changes
from app.storage.repos.export_repo import Export
from app.storage.rows import LINE_CLOSED, ExportCursor, ExportFilter, join_chunk
from app.storage.sqlite.driver import sqlite3
from tests.lifecycle.helpers import agent_db, make_session

MARKER = "\x01hs-export-float\x02"


def _build_store(home: Path, *, dynamic_typing: bool = True) -> None:
    """The store; ``dynamic_typing=False`` leaves out the values of another type than their column's (a REAL
    in an INTEGER column, text in a REAL one), which only SQLite holds: the server's import and sync refuse
    them on both backends, and PostgreSQL's typed columns cannot take them at all."""
    db = agent_db(home)
    make_session(db, "a_plain", messages=7, title="Premier 東京 ✓", model_config={"temperature": 0.5})
    db.create_session("b_rich", "telegram", model="m/x", user_id="u1", chat_id="c 1", chat_type="dm")
    db.append_message("b_rich", "user", content=[{"type": "text", "text": "multi ✓ 東京"}, {"n": 1.5}])
    db.append_message(
        "b_rich",
        "assistant",
        content="calls",
        tool_calls=[{"id": "c1", "type": "function", "function": {"name": "w", "arguments": '{"q": "é"}'}}],
        finish_reason="tool_calls",
        reasoning="thinking…",
        reasoning_details=[{"type": "summary", "text": "r"}],
        token_count=42,
    )
    db.append_message("b_rich", "tool", content='line1\nline2\t\x01\x1f"\\/ \u2028 😀', tool_call_id="c1")
    db.append_message("b_rich", "assistant", content=None, tool_calls=[{"id": "c2", "n": 3, "x": None}])
    db.append_message("b_rich", "user", content="", platform_message_id="pm1", observed=True)
    db.update_token_counts(
        "b_rich", input_tokens=10, output_tokens=5, estimated_cost_usd=0.000012345, actual_cost_usd=1e-7
    )
    db.end_session("b_rich", "compression")
    make_session(db, "c_child", messages=2, parent="b_rich")
    db.create_session("d_empty", "cron")
    db.close()
    odd_tokens: Any = 1.5 if dynamic_typing else 15
    odd_timestamp: Any = "not a number" if dynamic_typing else 124.5
    edge = sqlite3.connect(home / "state.db")
    with edge:
        sid = "e_edge"
        edge.execute("INSERT INTO sessions (id, source, started_at) VALUES (?, 'cli', 1.0e-5)", (sid,))
        rows = [
            # (content, tool_calls, timestamp, token_count)
            ("\x00json:not json", None, 1785698600.9317923, None),
            ("\x00plain text after NUL", "", 1785709798.3934639, 3),
            # A value equal to the float marker; (on SQLite) a REAL in an INTEGER column.
            (MARKER, None, 1e20, odd_tokens),
            ("text", "not json at all", 5e-05, 9007199254740993),
            ("text", '[{"id": "c", "arguments": "{\\"a\\": \\"\\u00e9\\"}"}]', 0.0, -1),
            ("text", '["\\/slash", 2]', 123.0, 0),
            ("text", "[1, 2, 3]", odd_timestamp, None),  # (on SQLite) text in a REAL column
            ("end", "[]", 1.7e9, None),
        ]
        for content, tool_calls, ts, tokens in rows:
            edge.execute(
                "INSERT INTO messages (session_id, role, content, tool_calls, timestamp, token_count) "
                "VALUES (?, 'assistant', ?, ?, ?, ?)",
                (sid, content, tool_calls, ts, tokens),
            )
        edge.execute("UPDATE sessions SET message_count = 8, title = ? WHERE id = ?", (MARKER, sid))
        # (On SQLite) a REAL in an INTEGER column of a session: that head takes the Python path.
        edge.execute(
            "UPDATE sessions SET tool_call_count = ?, actual_cost_usd = 3 WHERE id = 'c_child'",
            (2.5 if dynamic_typing else 2,),
        )
    edge.close()


def _export(conn: sqlite3.Connection, *, sql_render: bool, sessions: int, messages: int) -> bytes:
    export = Export(conn, Changes())
    out = bytearray()
    cursor: ExportCursor | None = ExportCursor()
    flt = ExportFilter()
    line = LINE_CLOSED
    while cursor is not None:
        plan = export.plan_chunk(flt, cursor, max_sessions=sessions, max_messages=messages)
        data, line = join_chunk(line, export.render_chunk(flt, plan, sql_render=sql_render))
        out += data
        cursor = plan.next
    return bytes(out)


@pytest.mark.parametrize(("sessions", "messages"), [(64, 2000), (2, 3), (1, 1)])
def test_sql_rendering_is_byte_identical_to_the_python_encoding(
    home: Path, sessions: int, messages: int
) -> None:
    _build_store(home)
    conn = sqlite3.connect(home / "state.db")
    try:
        fast = _export(conn, sql_render=True, sessions=sessions, messages=messages)
        reference = _export(conn, sql_render=False, sessions=sessions, messages=messages)
    finally:
        conn.close()
    assert fast == reference
    assert fast.count(b"\n") == 5
    assert "東京".encode() in fast


def test_export_matches_the_agents_export_all_value_for_value(
    home: Path, client: TestClient, settings: Settings
) -> None:
    sqlite = settings.database_url is None
    _build_store(home, dynamic_typing=sqlite)
    db = agent_db(home)
    expected = {s["id"]: json.loads(json.dumps(s, ensure_ascii=False)) for s in db.export_all()}
    db.close()
    r = client.get("/export.jsonl")
    assert r.status_code == 200
    lines = [orjson.loads(line) for line in r.content.splitlines()]
    assert [line["id"] for line in lines] == sorted(expected)
    for line in lines:
        agent = expected[line["id"]]
        assert list(line) == list(agent)  # same keys in the same order
        assert line == agent, line["id"]
    edge = {m["content"]: m for m in next(x for x in lines if x["id"] == "e_edge")["messages"]}
    assert edge["\x00json:not json"]["content"] == "\x00json:not json"  # undecodable: kept raw, as the agent
    assert edge[MARKER]["timestamp"] == 1e20 and edge[MARKER]["token_count"] == (1.5 if sqlite else 15)
    rich = next(x for x in lines if x["id"] == "b_rich")
    assert rich["messages"][0]["content"][0]["text"] == "multi ✓ 東京"  # structured content decoded
    assert rich["actual_cost_usd"] == 1e-7 and rich["estimated_cost_usd"] == 0.000012345


def test_numbers_inside_tool_calls_keep_their_stored_form(home: Path, client: TestClient) -> None:
    """SQLite copies JSON numbers as stored (the agent's json.dumps form); the values are the agent's."""
    db = agent_db(home)
    db.create_session("n1", "cli")
    db.append_message("n1", "assistant", content="x", tool_calls=[{"id": "c", "score": 5e-05, "n": 10}])
    db.close()
    body = client.get("/export.jsonl").content
    assert b'"score":5e-05' in body  # json.dumps wrote 5e-05; orjson would have written 0.00005
    (line,) = [orjson.loads(x) for x in body.splitlines()]
    assert line["messages"][0]["tool_calls"] == [{"id": "c", "score": 5e-05, "n": 10}]


def test_a_session_deleted_between_its_chunks_leaves_valid_lines(home: Path) -> None:
    """Each chunk reads its own snapshot: the session a plan cuts may be in one chunk's snapshot only."""
    db = agent_db(home)
    for sid in ("s1", "s2", "s3"):
        make_session(db, sid, messages=6)
    db.close()
    conn = sqlite3.connect(home / "state.db")
    export = Export(conn, Changes())
    try:
        flt = ExportFilter()
        first = export.plan_chunk(flt, ExportCursor(), max_sessions=64, max_messages=8)
        assert first.upto_session_id == "s2" and first.cut_message_id is not None  # s2 is cut in two
        second = export.plan_chunk(flt, first.next, max_sessions=64, max_messages=8)  # type: ignore[arg-type]
        later = export.render_chunk(flt, second)  # s2's tail, rendered before the delete
        with conn:
            conn.execute("DELETE FROM messages WHERE session_id = 's2'")
            conn.execute("DELETE FROM sessions WHERE id = 's2'")
        earlier = export.render_chunk(flt, first)  # s2's head is gone from this snapshot
        out, line_open = join_chunk(False, earlier)
        data, line_open = join_chunk(line_open, later)
        out += data
        cursor = second.next
        while cursor is not None:
            plan = export.plan_chunk(flt, cursor, max_sessions=64, max_messages=8)
            data, line_open = join_chunk(line_open, export.render_chunk(flt, plan))
            out += data
            cursor = plan.next
    finally:
        conn.close()
    lines = [orjson.loads(x) for x in out.splitlines()]
    assert [x["id"] for x in lines] == ["s1", "s3"] and not line_open
