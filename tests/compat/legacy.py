"""Hand-built state.db layouts from older agent versions, and helpers to inspect any state.db."""

from __future__ import annotations

from pathlib import Path

from app.settings import Settings
from app.storage.sqlite.driver import sqlite3
from app.storage.sqlite.store import Database

# sqlite_stat*: the planner statistics our PRAGMA optimize leaves (STAT4 where the library has it).
OURS_PREFIXES = ("hs_", "idx_hs_", "alembic_version", "sqlite_stat")

# Agent schema <= 10: fewer columns, an external-content FTS index, no trigram table.
V10_SQL = """
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    user_id TEXT,
    model TEXT,
    model_config TEXT,
    system_prompt TEXT,
    parent_session_id TEXT,
    started_at REAL NOT NULL,
    ended_at REAL,
    end_reason TEXT,
    message_count INTEGER DEFAULT 0,
    tool_call_count INTEGER DEFAULT 0,
    input_tokens INTEGER DEFAULT 0,
    output_tokens INTEGER DEFAULT 0,
    title TEXT,
    FOREIGN KEY (parent_session_id) REFERENCES sessions(id)
);
CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL,
    content TEXT,
    tool_call_id TEXT,
    tool_calls TEXT,
    tool_name TEXT,
    timestamp REAL NOT NULL,
    token_count INTEGER,
    finish_reason TEXT,
    active INTEGER
);
CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO schema_version (version) VALUES (10);
CREATE VIRTUAL TABLE messages_fts USING fts5(content, content=messages, content_rowid=id);
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
END;
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, content) VALUES('delete', old.id, old.content);
END;
"""


def build_v10(path: Path) -> None:
    """Write an agent-v10-era file: two sessions, messages (some with NULL ``active``), a tool call."""
    conn = sqlite3.connect(path)
    conn.executescript(V10_SQL)
    conn.executemany(
        "INSERT INTO sessions (id, source, started_at, title, message_count, tool_call_count, ended_at,"
        " end_reason, model, input_tokens, output_tokens) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        [
            ("old-1", "cli", 1000.5, "Old one", 3, 1, 1100.0, "user_exit", "gpt-x", 120, 40),
            ("old-2", "telegram", 2000.25, None, 1, 0, None, None, None, 0, 0),
        ],
    )
    conn.executemany(
        "INSERT INTO messages (session_id, role, content, tool_calls, tool_name, timestamp, active)"
        " VALUES (?,?,?,?,?,?,?)",
        [
            ("old-1", "user", "hello ancient zebra", None, None, 1000.6, None),
            ("old-1", "assistant", None, '[{"id":"c1","function":{"name":"grep"}}]', None, 1000.7, 1),
            ("old-1", "tool", "found 3 matches", None, "grep", 1000.8, None),
            ("old-2", "user", "日本語のメッセージ", None, None, 2000.3, None),
        ],
    )
    conn.commit()
    conn.close()


def open_db(home: Path) -> Database:
    """Open (migrate/adopt) the state.db under ``home`` the way the server does."""
    return Database(Settings(home=home, api_token="t")).open()


def adopt_file(home: Path) -> None:
    """Open and close the server's storage once on ``home``."""
    open_db(home).close()


def schema_objects(path: Path, *, ours: bool = True) -> set[tuple[str, str, str, str]]:
    """``sqlite_master`` as a set; ``ours=False`` drops this project's own objects."""
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT type, name, tbl_name, COALESCE(sql, '') FROM sqlite_master").fetchall()
    finally:
        conn.close()
    return {
        (t, n, tb, sql)
        for t, n, tb, sql in rows
        if ours or not (n.startswith(OURS_PREFIXES) or tb.startswith(OURS_PREFIXES))
    }


def table_rows(path: Path, table: str, order: str = "rowid") -> list[tuple[object, ...]]:
    """Every row of ``table``."""
    conn = sqlite3.connect(path)
    try:
        return [tuple(r) for r in conn.execute(f"SELECT * FROM {table} ORDER BY {order}")]
    finally:
        conn.close()


def fts_ok(path: Path) -> None:
    """Raise unless both FTS tables pass SQLite's integrity-check and the file's integrity_check is ok."""
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        for table in ("messages_fts", "messages_fts_trigram"):
            conn.execute(f"INSERT INTO {table}({table}) VALUES('integrity-check')")
            n_fts = conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
            n_msg = conn.execute("SELECT COUNT(*) FROM messages").fetchone()[0]
            assert n_fts == n_msg, (table, n_fts, n_msg)
    finally:
        conn.close()
