"""Opening files: fresh, made by the real agent, and older agent layouts (schema <= 10, v15, v19, v21)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import hermes_state
import pytest

from app.storage.sqlite.driver import sqlite3
from tests.compat.legacy import adopt_file, build_v10, fts_ok, open_db, schema_objects, table_rows


def _agent(path: Path) -> hermes_state.SessionDB:
    return hermes_state.SessionDB(db_path=path)


def test_fresh_file_has_agent_schema_and_pragmas(home: Path) -> None:
    db = open_db(home)
    try:
        conn = sqlite3.connect(home / "state.db")
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        assert {"sessions", "messages", "messages_fts", "messages_fts_trigram", "state_meta"} <= names
        assert {"session_model_usage", "schema_version", "idx_sessions_title_unique"} <= names
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [(22,)]
        conn.close()
        assert db.read_sync(lambda tx: tx.conn.execute("PRAGMA foreign_keys").fetchone()[0]) == 1
        assert db.write_sync(lambda tx: tx.conn.execute("PRAGMA foreign_keys").fetchone()[0]) == 1
    finally:
        db.close()


def _agent_file(path: Path) -> None:
    agent = _agent(path)
    agent.create_session("s-root", "cli", model="m1")
    agent.append_message("s-root", "user", "hello zebra")
    agent.append_message(
        "s-root",
        "assistant",
        None,
        tool_calls=[{"id": "c1", "type": "function", "function": {"name": "grep", "arguments": "{}"}}],
    )
    agent.append_message("s-root", "tool", "ok", tool_call_id="c1", tool_name="grep")
    agent.set_session_title("s-root", "Root title")
    agent.update_token_counts("s-root", input_tokens=10, output_tokens=5, model="m1")
    agent.end_session("s-root", "compression")
    agent.create_session("s-cont", "cli", parent_session_id="s-root")
    agent.append_message("s-cont", "user", "继续 continue")
    agent.close()


def test_agent_file_adopted_untouched(home: Path) -> None:
    path = home / "state.db"
    _agent_file(path)
    before_schema = schema_objects(path)
    before = {t: table_rows(path, t) for t in ("sessions", "messages", "session_model_usage", "state_meta")}
    adopt_file(home)
    after_schema = schema_objects(path, ours=False)
    assert after_schema == before_schema
    assert schema_objects(path) - after_schema, "our hs_ tables exist"
    for table, rows in before.items():
        assert table_rows(path, table) == rows, table
    fts_ok(path)
    # And the agent still opens and writes it.
    agent = _agent(path)
    agent.append_message("s-cont", "assistant", "after adoption")
    assert [m["content"] for m in agent.get_messages("s-cont")] == ["继续 continue", "after adoption"]
    agent.close()


def test_v10_layout_adopted_without_loss(home: Path) -> None:
    path = home / "state.db"
    build_v10(path)
    old_messages = table_rows(path, "messages")
    adopt_file(home)
    conn = sqlite3.connect(path)
    cols = {r[1] for r in conn.execute("PRAGMA table_info(sessions)")}
    assert {"billing_provider", "cache_read_tokens", "api_call_count"} <= cols
    assert (
        conn.execute("SELECT COUNT(*) FROM messages WHERE active IS NULL OR active != 1").fetchone()[0] == 0
    )
    assert conn.execute("SELECT version FROM schema_version").fetchall() == [(22,)]
    sql = conn.execute("SELECT sql FROM sqlite_master WHERE name='messages_fts'").fetchone()[0]
    assert "content=" not in sql.replace(" ", "")
    # Tool names are indexed now (v11 re-index), CJK through the trigram table.
    assert conn.execute("SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'grep'").fetchall()
    assert conn.execute("SELECT rowid FROM messages_fts_trigram WHERE content LIKE '%日本語%'").fetchall()
    kept = conn.execute(
        "SELECT id, session_id, role, content, tool_calls, timestamp FROM messages"
    ).fetchall()
    conn.close()
    assert kept == [(m[0], m[1], m[2], m[3], m[5], m[7]) for m in old_messages]
    fts_ok(path)

    # Reopening is a no-op: schema and rows unchanged.
    schema, rows = schema_objects(path), table_rows(path, "messages")
    adopt_file(home)
    assert schema_objects(path) == schema
    assert table_rows(path, "messages") == rows

    # The real agent reads and searches the adopted file.
    agent = _agent(path)
    assert agent.get_session("old-1")["title"] == "Old one"
    assert len(agent.get_messages("old-1")) == 3
    assert agent.search_messages("zebra")
    agent.close()


def _downgrade(path: Path, version: int) -> None:
    """Turn an agent v22 file into what an agent of ``version`` left: usage table without ``task`` in the
    key (v21 and older), no usage rows before v20, untagged delegate children before v16."""
    conn = sqlite3.connect(path)
    conn.executescript(
        """
        DROP TABLE session_model_usage;
        CREATE TABLE session_model_usage (
            session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            model TEXT NOT NULL,
            billing_provider TEXT NOT NULL DEFAULT '',
            billing_base_url TEXT NOT NULL DEFAULT '',
            billing_mode TEXT NOT NULL DEFAULT '',
            api_call_count INTEGER NOT NULL DEFAULT 0,
            input_tokens INTEGER NOT NULL DEFAULT 0,
            output_tokens INTEGER NOT NULL DEFAULT 0,
            cache_read_tokens INTEGER NOT NULL DEFAULT 0,
            cache_write_tokens INTEGER NOT NULL DEFAULT 0,
            reasoning_tokens INTEGER NOT NULL DEFAULT 0,
            estimated_cost_usd REAL NOT NULL DEFAULT 0,
            actual_cost_usd REAL NOT NULL DEFAULT 0,
            cost_status TEXT,
            cost_source TEXT,
            first_seen REAL,
            last_seen REAL,
            PRIMARY KEY (session_id, model, billing_provider, billing_base_url, billing_mode)
        );
        CREATE INDEX idx_session_model_usage_session ON session_model_usage(session_id);
        CREATE INDEX idx_session_model_usage_model ON session_model_usage(model);
        """
    )
    if version >= 20:
        conn.execute(
            "INSERT INTO session_model_usage (session_id, model, api_call_count, input_tokens, output_tokens)"
            " VALUES ('parent', 'm1', 2, 100, 50)"
        )
    conn.execute("UPDATE sessions SET model_config = NULL")
    conn.execute("UPDATE schema_version SET version = ?", (version,))
    conn.commit()
    conn.close()


def _usage_file(path: Path) -> None:
    agent = _agent(path)
    agent.create_session("parent", "cli", model="m1")
    agent.append_message("parent", "user", "delegate please")
    agent.update_token_counts("parent", input_tokens=100, output_tokens=50, model="m1", api_call_count=2)
    agent.create_session("child", "cli", parent_session_id="parent", model="m2")
    agent.append_message("child", "user", "sub task")
    agent.close()


def test_v21_usage_table_rebuilt_and_agent_writes_it(home: Path) -> None:
    path = home / "state.db"
    _usage_file(path)
    _downgrade(path, 21)
    adopt_file(home)
    conn = sqlite3.connect(path)
    pk = [r[1] for r in conn.execute("PRAGMA table_info(session_model_usage)") if r[5]]
    assert "task" in pk
    rows = conn.execute("SELECT session_id, model, task, input_tokens FROM session_model_usage").fetchall()
    assert rows == [("parent", "m1", "", 100)]
    # v16 and v20 steps did not rerun on a v21 file.
    assert conn.execute("SELECT model_config FROM sessions WHERE id='child'").fetchone()[0] is None
    indexes = {r[1] for r in conn.execute("PRAGMA index_list(session_model_usage)")}
    assert {"idx_session_model_usage_session", "idx_session_model_usage_model"} <= indexes
    conn.close()

    agent = _agent(path)
    agent.update_token_counts("parent", input_tokens=7, output_tokens=3, model="m1", api_call_count=1)
    agent.record_auxiliary_usage("parent", task="vision", model="m-vis", input_tokens=4, output_tokens=1)
    agent.close()
    conn = sqlite3.connect(path)
    usage = conn.execute(
        "SELECT model, task, input_tokens, api_call_count FROM session_model_usage ORDER BY task"
    ).fetchall()
    conn.close()
    assert usage[0] == ("m1", "", 107, 3)
    assert usage[1][:3] == ("m-vis", "vision", 4)


def test_v19_usage_seeded_from_session_totals(home: Path) -> None:
    path = home / "state.db"
    _usage_file(path)
    _downgrade(path, 19)
    adopt_file(home)
    conn = sqlite3.connect(path)
    rows = conn.execute(
        "SELECT session_id, model, task, input_tokens, output_tokens FROM session_model_usage"
    ).fetchall()
    conn.close()
    assert rows == [("parent", "m1", "", 100, 50)]


def test_v15_delegate_children_tagged(home: Path) -> None:
    path = home / "state.db"
    _usage_file(path)
    _downgrade(path, 15)
    adopt_file(home)
    conn = sqlite3.connect(path)
    cfg = conn.execute("SELECT model_config FROM sessions WHERE id='child'").fetchone()[0]
    root_cfg = conn.execute("SELECT model_config FROM sessions WHERE id='parent'").fetchone()[0]
    conn.close()
    assert json.loads(cfg)["_delegate_from"] == "parent"
    assert root_cfg is None


def test_failing_data_migration_is_skipped_not_fatal(home: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = home / "state.db"
    _usage_file(path)
    _downgrade(path, 15)
    conn = sqlite3.connect(path)
    # Malformed JSON makes the agent's v16 json_set fail; the agent logs nothing and moves on, so do we.
    conn.execute("UPDATE sessions SET model_config = '{not json' WHERE id = 'child'")
    conn.commit()
    conn.close()
    with caplog.at_level(logging.WARNING):
        adopt_file(home)
    assert any("v16" in r.getMessage() for r in caplog.records)
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT version FROM schema_version").fetchall() == [(22,)]
    assert conn.execute("SELECT model_config FROM sessions WHERE id='child'").fetchone()[0] == "{not json"
    # Later steps still ran.
    assert conn.execute("SELECT COUNT(*) FROM session_model_usage").fetchone()[0] == 1
    conn.close()
