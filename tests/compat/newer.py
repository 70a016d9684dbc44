"""A state.db as a newer agent (schema 30) leaves it, built from a file the real agent 0.19.0 wrote.

What a newer agent changes, from the reference's description of the latest agent and from reading the newest
upstream ``hermes_state_common.py`` (``SCHEMA_VERSION = 30``; not copied, re-stated in our own DDL):
- additive columns on ``sessions`` and ``messages`` (a system-prompt hash, archive/pin flags, display
  metadata, ...), and a content-addressed ``system_prompts`` table the prompts move into;
- the compact FTS layout (v23+): both FTS tables become external-content indexes that read through views
  instead of storing their own copy of every message (the trigram index skips tool rows), with triggers that
  issue FTS5 'delete' commands;
- ``schema_version`` stamped 30.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import hermes_state

from app.storage.sqlite.connection import split_statements
from app.storage.sqlite.driver import sqlite3

NEWER_VERSION = 30

_SESSION_COLUMNS = (
    "created_source TEXT",
    "system_prompt_hash TEXT",
    "pinned INTEGER NOT NULL DEFAULT 0",
    "hidden INTEGER NOT NULL DEFAULT 0",
    "last_read_at REAL",
)
_MESSAGE_COLUMNS = ("display_kind TEXT", "display_metadata TEXT", "display_order INTEGER")

_COMPACT_FTS = """
CREATE VIEW messages_fts_src AS
    SELECT id, content, tool_name, tool_calls FROM messages;
CREATE VIRTUAL TABLE messages_fts USING fts5(
    content, tool_name, tool_calls, content='messages_fts_src', content_rowid='id');
CREATE VIEW messages_fts_trigram_src AS
    SELECT id, content, tool_name FROM messages WHERE role <> 'tool';
CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(
    content, tool_name, content='messages_fts_trigram_src', content_rowid='id', tokenize='trigram');
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts(rowid, content, tool_name, tool_calls)
    VALUES (new.id, new.content, new.tool_name, new.tool_calls);
END;
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, content, tool_name, tool_calls)
    VALUES ('delete', old.id, old.content, old.tool_name, old.tool_calls);
END;
CREATE TRIGGER messages_fts_trigram_insert AFTER INSERT ON messages WHEN new.role <> 'tool' BEGIN
    INSERT INTO messages_fts_trigram(rowid, content, tool_name) VALUES (new.id, new.content, new.tool_name);
END;
CREATE TRIGGER messages_fts_trigram_delete AFTER DELETE ON messages WHEN old.role <> 'tool' BEGIN
    INSERT INTO messages_fts_trigram(messages_fts_trigram, rowid, content, tool_name)
    VALUES ('delete', old.id, old.content, old.tool_name);
END;
INSERT INTO messages_fts(messages_fts) VALUES ('rebuild');
INSERT INTO messages_fts_trigram(messages_fts_trigram) VALUES ('rebuild');
"""


def write_with_agent(path: Path) -> str:
    """A schema-22 file written by the real agent: one session with a system prompt and three messages."""
    db = hermes_state.SessionDB(db_path=path)
    try:
        sid = "20260101_000000_newer1"
        db.create_session(sid, source="cli", model="m", system_prompt="be brief")
        db.set_session_title(sid, "from the agent")
        db.append_message(sid, role="user", content="where is the marmalade")
        db.append_message(sid, role="assistant", content="in the pantry")
        db.append_message(sid, role="tool", content="tool output", tool_name="search")
    finally:
        db.close()
    return sid


def migrate_to_newer(path: Path) -> None:
    """Do to ``path`` what a schema-30 agent does when it opens (and optimizes) a schema-22 file."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        for column in _SESSION_COLUMNS:
            conn.execute(f"ALTER TABLE sessions ADD COLUMN {column}")
        for column in _MESSAGE_COLUMNS:
            conn.execute(f"ALTER TABLE messages ADD COLUMN {column}")
        conn.execute("CREATE TABLE system_prompts (hash TEXT PRIMARY KEY, prompt TEXT NOT NULL)")
        for sid, prompt in conn.execute(
            "SELECT id, system_prompt FROM sessions WHERE system_prompt IS NOT NULL"
        ):
            digest = hashlib.sha256(prompt.encode()).hexdigest()
            conn.execute("INSERT OR IGNORE INTO system_prompts VALUES (?, ?)", (digest, prompt))
            conn.execute(
                "UPDATE sessions SET system_prompt_hash = ?, system_prompt = NULL WHERE id = ?", (digest, sid)
            )
        triggers = conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'messages_fts%'"
        ).fetchall()
        for (name,) in triggers:
            conn.execute(f"DROP TRIGGER {name}")
        conn.execute("DROP TABLE messages_fts")
        conn.execute("DROP TABLE messages_fts_trigram")
        for stmt in split_statements(_COMPACT_FTS):
            conn.execute(stmt)
        conn.execute("UPDATE messages SET display_kind = 'text'")
        conn.execute("UPDATE schema_version SET version = ?", (NEWER_VERSION,))
        if conn.in_transaction:
            conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


def file_digest(path: Path) -> str:
    """SHA-256 of the database file itself."""
    return hashlib.sha256(path.read_bytes()).hexdigest()
