"""A state.db as the agent at schema 30 creates it, for tests: no runnable schema-30 build exists in the
package registries, so the file is built from the agent's own DDL.

The statements below restate, in our own module, the schema-30 DDL of the upstream agent (NousResearch
hermes-agent, ``hermes_state_common.py`` at ``SCHEMA_VERSION = 30`` with ``FTS_STORAGE_VERSION = 3``: its
``SCHEMA_SQL``, ``DEFERRED_INDEX_SQL``, ``FTS_SQL`` and ``FTS_TRIGRAM_SQL``, and the two indexes its schema
module adds), with the same text for every trigger and view, so a shape check that compares the SQL
``sqlite_master`` holds sees what it would see in the agent's own file. What schema 30 adds over the 0.19.0
file (schema 22):
- the external-content word index reading the view ``messages_fts_src`` (layout 3: tool rows cut to 8192
  characters), kept by three triggers that issue FTS5 ``'delete'`` commands and are gated on the
  ``fts_rebuild_high_water``/``fts_rebuild_progress`` keys of ``state_meta``;
- the trigram index reading ``messages_fts_trigram_src``, which leaves out tool rows and every message of a
  session whose ``source`` is ``cron`` or ``subagent`` or whose ``model_config`` has ``_delegate_from``: its
  triggers look the session up when they fire;
- the four display triggers on ``messages`` (``messages_display_order_insert``, ``_visibility_update``,
  ``_identity_update``, ``_identity_delete``) keeping ``display_order``;
- the deduplicated ``system_prompts`` table, the ``pinned``/``archived``/``hidden`` flags, ``title_source``,
  ``last_activity_at`` and the other additive columns.
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.storage.sqlite.driver import sqlite3

SCHEMA_VERSION = 30
FTS_STORAGE_VERSION = 3

SCHEMA_SQL = """
CREATE TABLE IF NOT EXISTS schema_version (
    version INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS system_prompts (
    hash TEXT PRIMARY KEY,
    prompt TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    user_id TEXT,
    session_key TEXT,
    chat_id TEXT,
    chat_type TEXT,
    thread_id TEXT,
    display_name TEXT,
    origin_json TEXT,
    expiry_finalized INTEGER DEFAULT 0,
    model TEXT,
    model_config TEXT,
    system_prompt TEXT,
    system_prompt_hash TEXT,
    parent_session_id TEXT,
    started_at REAL NOT NULL,
    ended_at REAL,
    end_reason TEXT,
    message_count INTEGER DEFAULT 0,
    tool_call_count INTEGER DEFAULT 0,
    input_tokens INTEGER DEFAULT 0,
    output_tokens INTEGER DEFAULT 0,
    cache_read_tokens INTEGER DEFAULT 0,
    cache_write_tokens INTEGER DEFAULT 0,
    reasoning_tokens INTEGER DEFAULT 0,
    cwd TEXT,
    git_branch TEXT,
    git_repo_root TEXT,
    git_metadata_generation INTEGER NOT NULL DEFAULT 0,
    billing_provider TEXT,
    billing_base_url TEXT,
    billing_mode TEXT,
    estimated_cost_usd REAL,
    actual_cost_usd REAL,
    cost_status TEXT,
    cost_source TEXT,
    pricing_version TEXT,
    title TEXT,
    title_source TEXT,
    last_activity_at REAL,
    last_activity_description TEXT,
    last_activity_provenance TEXT,
    api_call_count INTEGER DEFAULT 0,
    handoff_state TEXT,
    handoff_platform TEXT,
    handoff_error TEXT,
    compression_failure_cooldown_until REAL,
    compression_failure_error TEXT,
    compression_fallback_streak INTEGER NOT NULL DEFAULT 0,
    compression_ineffective_count INTEGER NOT NULL DEFAULT 0,
    compression_recovery_deadline REAL,
    profile_name TEXT,
    transport_profile TEXT,
    rewind_count INTEGER NOT NULL DEFAULT 0,
    archived INTEGER NOT NULL DEFAULT 0,
    pinned INTEGER NOT NULL DEFAULT 0,
    hidden INTEGER NOT NULL DEFAULT 0,
    last_read_at REAL,
    tool_names TEXT,
    FOREIGN KEY (parent_session_id) REFERENCES sessions(id),
    FOREIGN KEY (system_prompt_hash) REFERENCES system_prompts(hash)
);

CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL,
    content TEXT,
    tool_call_id TEXT,
    tool_calls TEXT,
    tool_name TEXT,
    effect_disposition TEXT,
    timestamp REAL NOT NULL,
    token_count INTEGER,
    finish_reason TEXT,
    reasoning TEXT,
    reasoning_content TEXT,
    reasoning_details TEXT,
    codex_reasoning_items TEXT,
    codex_message_items TEXT,
    platform_message_id TEXT,
    observed INTEGER DEFAULT 0,
    _compressed_summary INTEGER NOT NULL DEFAULT 0,
    active INTEGER NOT NULL DEFAULT 1,
    compacted INTEGER NOT NULL DEFAULT 0,
    api_content TEXT,
    display_kind TEXT,
    display_metadata TEXT,
    display_identity BLOB,
    display_order INTEGER
);

CREATE TABLE IF NOT EXISTS session_model_usage (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    model TEXT NOT NULL,
    billing_provider TEXT NOT NULL DEFAULT '',
    billing_base_url TEXT NOT NULL DEFAULT '',
    billing_mode TEXT NOT NULL DEFAULT '',
    task TEXT NOT NULL DEFAULT '',
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
    PRIMARY KEY (session_id, model, billing_provider, billing_base_url, billing_mode, task)
);

CREATE TABLE IF NOT EXISTS state_meta (
    key TEXT PRIMARY KEY,
    value TEXT
);

CREATE TABLE IF NOT EXISTS gateway_routing (
    scope TEXT NOT NULL DEFAULT '',
    session_key TEXT NOT NULL,
    entry_json TEXT NOT NULL,
    updated_at REAL NOT NULL,
    PRIMARY KEY (scope, session_key)
);

CREATE TABLE IF NOT EXISTS gateway_hygiene_state (
    session_key TEXT PRIMARY KEY,
    failure_streak INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS conversation_generations (
    source TEXT NOT NULL,
    session_key TEXT NOT NULL,
    generation INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (source, session_key)
);

CREATE TABLE IF NOT EXISTS gateway_heartbeats (
    backend_id TEXT PRIMARY KEY,
    pid INTEGER NOT NULL,
    started_at REAL NOT NULL,
    last_heartbeat REAL NOT NULL,
    profile TEXT NOT NULL DEFAULT '',
    host TEXT NOT NULL DEFAULT ''
);

CREATE TABLE IF NOT EXISTS compression_locks (
    session_id TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    acquired_at REAL NOT NULL,
    expires_at REAL NOT NULL
);

CREATE TABLE IF NOT EXISTS session_turn_leases (
    conversation_id TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    acquired_at REAL NOT NULL,
    expires_at REAL NOT NULL
);

CREATE TABLE IF NOT EXISTS async_delegations (
    delegation_id TEXT PRIMARY KEY,
    origin_session TEXT NOT NULL,
    origin_ui_session_id TEXT NOT NULL DEFAULT '',
    parent_session_id TEXT,
    state TEXT NOT NULL,
    dispatched_at REAL NOT NULL,
    completed_at REAL,
    updated_at REAL NOT NULL,
    event_json TEXT,
    result_json TEXT,
    delivery_state TEXT NOT NULL DEFAULT 'pending',
    delivery_attempts INTEGER NOT NULL DEFAULT 0,
    delivered_at REAL,
    owner_pid INTEGER,
    owner_started_at INTEGER,
    task_json TEXT,
    delivery_claim TEXT,
    delivery_claimed_at REAL,
    origin_session_id TEXT NOT NULL DEFAULT ''
);

CREATE INDEX IF NOT EXISTS idx_sessions_source ON sessions(source);
CREATE INDEX IF NOT EXISTS idx_sessions_source_id ON sessions(source, id);
CREATE INDEX IF NOT EXISTS idx_sessions_parent ON sessions(parent_session_id);
CREATE INDEX IF NOT EXISTS idx_sessions_started ON sessions(started_at DESC);
CREATE INDEX IF NOT EXISTS idx_messages_session ON messages(session_id, timestamp);
CREATE INDEX IF NOT EXISTS idx_messages_session_id ON messages(session_id, id);
CREATE INDEX IF NOT EXISTS idx_messages_assistant_calls_by_session
    ON messages(session_id)
    WHERE role = 'assistant' AND tool_calls IS NOT NULL;
CREATE INDEX IF NOT EXISTS idx_compression_locks_expires ON compression_locks(expires_at);
CREATE INDEX IF NOT EXISTS idx_session_turn_leases_expires ON session_turn_leases(expires_at);
CREATE INDEX IF NOT EXISTS idx_session_model_usage_session ON session_model_usage(session_id);
CREATE INDEX IF NOT EXISTS idx_session_model_usage_model ON session_model_usage(model);
CREATE INDEX IF NOT EXISTS idx_async_delegations_delivery
    ON async_delegations(delivery_state, completed_at);
"""

# The two indexes the agent's schema module adds beside SCHEMA_SQL.
EXTRA_INDEX_SQL = """
CREATE INDEX IF NOT EXISTS idx_messages_platform_msg_id
    ON messages(session_id, platform_message_id) WHERE platform_message_id IS NOT NULL;
CREATE UNIQUE INDEX IF NOT EXISTS idx_sessions_title_unique ON sessions(title) WHERE title IS NOT NULL;
"""

DEFERRED_INDEX_SQL = """
CREATE INDEX IF NOT EXISTS idx_messages_session_active
    ON messages(session_id, active, timestamp);
CREATE INDEX IF NOT EXISTS idx_messages_display_page
    ON messages(session_id, display_order, active DESC, id DESC)
    WHERE active = 1 OR compacted = 1;
CREATE INDEX IF NOT EXISTS idx_messages_display_backfill
    ON messages(session_id) WHERE (display_order IS NULL OR display_identity IS NULL)
    AND (active = 1 OR compacted = 1);
CREATE INDEX IF NOT EXISTS idx_messages_display_identity
    ON messages(session_id, display_identity, display_order)
    WHERE display_identity IS NOT NULL AND (active = 1 OR compacted = 1);
CREATE TRIGGER IF NOT EXISTS messages_display_order_insert
AFTER INSERT ON messages WHEN new.display_order IS NULL
BEGIN
    UPDATE messages SET display_order = COALESCE((
        SELECT display_order FROM messages
        WHERE session_id = new.session_id AND id <> new.id
          AND (active = 1 OR compacted = 1)
          AND display_identity = new.display_identity AND display_order IS NOT NULL
        ORDER BY display_order LIMIT 1
    ), new.id) WHERE id = new.id;
END;
CREATE TRIGGER IF NOT EXISTS messages_display_visibility_update
AFTER UPDATE OF active, compacted ON messages
WHEN (new.active = 1 OR new.compacted = 1) <> (old.active = 1 OR old.compacted = 1)
BEGIN
    UPDATE messages SET display_order = MIN(new.id, COALESCE((
        SELECT display_order FROM messages
        WHERE session_id = new.session_id AND id <> new.id
          AND (active = 1 OR compacted = 1)
          AND display_identity = new.display_identity AND display_order IS NOT NULL
        ORDER BY display_order LIMIT 1
    ), new.id)) WHERE id = new.id
      AND (new.active = 1 OR new.compacted = 1);
    UPDATE messages SET display_order = (SELECT display_order FROM messages WHERE id = new.id)
    WHERE session_id = new.session_id AND id <> new.id AND (active = 1 OR compacted = 1)
      AND display_identity = new.display_identity
      AND (new.active = 1 OR new.compacted = 1);
    UPDATE messages SET display_order = (
        SELECT MIN(peer.id) FROM messages AS peer
        WHERE peer.session_id = old.session_id AND (peer.active = 1 OR peer.compacted = 1)
          AND peer.display_identity = old.display_identity
    ) WHERE session_id = old.session_id AND (active = 1 OR compacted = 1)
      AND display_identity = old.display_identity
      AND NOT (new.active = 1 OR new.compacted = 1);
END;
CREATE TRIGGER IF NOT EXISTS messages_display_identity_update
AFTER UPDATE OF role, content, timestamp, tool_call_id, tool_calls, tool_name,
                display_kind ON messages
WHEN new.role IS NOT old.role
  OR new.content IS NOT old.content
  OR new.timestamp IS NOT old.timestamp
  OR new.tool_call_id IS NOT old.tool_call_id
  OR new.tool_calls IS NOT old.tool_calls
  OR new.tool_name IS NOT old.tool_name
  OR new.display_kind IS NOT old.display_kind
BEGIN
    UPDATE messages SET display_identity = NULL, display_order = NULL
    WHERE id = new.id OR (
        session_id = old.session_id AND display_identity = old.display_identity
        AND (active = 1 OR compacted = 1)
    );
END;
CREATE TRIGGER IF NOT EXISTS messages_display_identity_delete
AFTER DELETE ON messages WHEN old.active = 1 OR old.compacted = 1
BEGIN
    UPDATE messages SET display_order = (
        SELECT MIN(peer.id) FROM messages AS peer
        WHERE peer.session_id = old.session_id AND (peer.active = 1 OR peer.compacted = 1)
          AND peer.display_identity = old.display_identity
    ) WHERE session_id = old.session_id AND (active = 1 OR compacted = 1)
      AND display_identity = old.display_identity;
END;
CREATE INDEX IF NOT EXISTS idx_messages_active_null
    ON messages(active) WHERE active IS NULL;
CREATE INDEX IF NOT EXISTS idx_sessions_session_key
    ON sessions(session_key, started_at DESC);
CREATE INDEX IF NOT EXISTS idx_sessions_gateway_peer
    ON sessions(source, user_id, chat_id, chat_type, thread_id, started_at DESC);
CREATE INDEX IF NOT EXISTS idx_sessions_handoff_state
    ON sessions(handoff_state, started_at);
CREATE INDEX IF NOT EXISTS idx_sessions_system_prompt_hash
    ON sessions(system_prompt_hash);
CREATE INDEX IF NOT EXISTS idx_sessions_tool_names
    ON sessions(tool_names);
CREATE INDEX IF NOT EXISTS idx_sessions_effective_activity
    ON sessions(COALESCE(last_activity_at, started_at) DESC, started_at DESC);
"""

# The rebuild gate every FTS trigger carries (rows (progress, high_water] are not indexed while a deferred
# rebuild runs); with neither key present it always holds.
_GATE_NEW = """(new.id > COALESCE((SELECT CAST(value AS INTEGER) FROM state_meta
                         WHERE key = 'fts_rebuild_high_water'), -1)
   OR new.id <= COALESCE((SELECT CAST(value AS INTEGER) FROM state_meta
                          WHERE key = 'fts_rebuild_progress'), -1))"""
_GATE_OLD = _GATE_NEW.replace("new.id", "old.id")
_GATE_NEW_TRIGRAM = """(new.id > COALESCE((SELECT CAST(value AS INTEGER) FROM state_meta
                           WHERE key = 'fts_rebuild_high_water'), -1)
     OR new.id <= COALESCE((SELECT CAST(value AS INTEGER) FROM state_meta
                            WHERE key = 'fts_rebuild_progress'), -1))"""
_GATE_OLD_TRIGRAM = _GATE_NEW_TRIGRAM.replace("new.id", "old.id")


def _indexed_content(alias: str) -> str:
    return f"""CASE WHEN {alias}.role = 'tool'
         THEN substr(COALESCE({alias}.content, ''), 1, 8192)
         ELSE {alias}.content END"""


FTS_SQL = f"""
CREATE VIEW IF NOT EXISTS messages_fts_src AS
    SELECT id,
           CASE WHEN role = 'tool'
                THEN substr(COALESCE(content, ''), 1, 8192)
                ELSE content END AS content,
           tool_name, tool_calls
    FROM messages;

CREATE VIRTUAL TABLE IF NOT EXISTS messages_fts USING fts5(
    content,
    tool_name,
    tool_calls,
    content='messages_fts_src',
    content_rowid='id'
);

CREATE TRIGGER IF NOT EXISTS messages_fts_insert AFTER INSERT ON messages
WHEN {_GATE_NEW}
BEGIN
    INSERT INTO messages_fts(rowid, content, tool_name, tool_calls)
    VALUES (
        new.id,
        {_indexed_content("new")},
        new.tool_name,
        new.tool_calls
    );
END;

CREATE TRIGGER IF NOT EXISTS messages_fts_delete AFTER DELETE ON messages
WHEN {_GATE_OLD}
BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, content, tool_name, tool_calls)
    VALUES (
        'delete',
        old.id,
        {_indexed_content("old")},
        old.tool_name,
        old.tool_calls
    );
END;

CREATE TRIGGER IF NOT EXISTS messages_fts_update
AFTER UPDATE OF content, tool_name, tool_calls, role ON messages
WHEN (old.content IS NOT new.content
    OR old.tool_name IS NOT new.tool_name
    OR old.tool_calls IS NOT new.tool_calls
    OR old.role IS NOT new.role)
   AND {_GATE_OLD_TRIGRAM}
BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, content, tool_name, tool_calls)
    VALUES (
        'delete',
        old.id,
        {_indexed_content("old")},
        old.tool_name,
        old.tool_calls
    );
    INSERT INTO messages_fts(rowid, content, tool_name, tool_calls)
    VALUES (
        new.id,
        {_indexed_content("new")},
        new.tool_name,
        new.tool_calls
    );
END;
"""


def _trigram_session_sql(alias: str = "") -> str:
    """Which sessions' rows belong in the trigram index (v30): not cron, not subagent, not delegated."""
    q = f"{alias}." if alias else ""
    config = f"{q}model_config"
    return (
        f"{q}source NOT IN ('cron', 'subagent') AND json_extract((CASE WHEN json_valid({config}) "
        f"THEN {config} ELSE json_object() END), '$._delegate_from') IS NULL"
    )


_TRIGRAM_SESSION = _trigram_session_sql()

FTS_TRIGRAM_SQL = f"""
CREATE VIEW IF NOT EXISTS messages_fts_trigram_src AS
    SELECT m.id, m.role, m.content, m.tool_name
    FROM messages AS m
    JOIN sessions AS s ON s.id = m.session_id
    WHERE m.role <> 'tool' AND {_trigram_session_sql("s")};

CREATE VIRTUAL TABLE IF NOT EXISTS messages_fts_trigram USING fts5(
    content,
    tool_name,
    content='messages_fts_trigram_src',
    content_rowid='id',
    tokenize='trigram'
);

CREATE TRIGGER IF NOT EXISTS messages_fts_trigram_insert AFTER INSERT ON messages
WHEN new.role <> 'tool'
   AND EXISTS (SELECT 1 FROM sessions
               WHERE id = new.session_id AND {_TRIGRAM_SESSION})
   AND {_GATE_NEW_TRIGRAM}
BEGIN
    INSERT INTO messages_fts_trigram(rowid, content, tool_name)
    VALUES (new.id, new.content, new.tool_name);
END;

CREATE TRIGGER IF NOT EXISTS messages_fts_trigram_delete AFTER DELETE ON messages
WHEN old.role <> 'tool'
   AND EXISTS (SELECT 1 FROM sessions
               WHERE id = old.session_id AND {_TRIGRAM_SESSION})
   AND {_GATE_OLD_TRIGRAM}
BEGIN
    INSERT INTO messages_fts_trigram(messages_fts_trigram, rowid, content, tool_name)
    VALUES ('delete', old.id, old.content, old.tool_name);
END;

CREATE TRIGGER IF NOT EXISTS messages_fts_trigram_update
AFTER UPDATE OF content, tool_name, role ON messages
WHEN (old.content IS NOT new.content
    OR old.tool_name IS NOT new.tool_name
    OR old.role IS NOT new.role)
   AND {_GATE_OLD_TRIGRAM}
BEGIN
    INSERT INTO messages_fts_trigram(messages_fts_trigram, rowid, content, tool_name)
    SELECT 'delete', old.id, old.content, old.tool_name
    WHERE old.role <> 'tool'
      AND EXISTS (SELECT 1 FROM sessions
                  WHERE id = old.session_id AND {_TRIGRAM_SESSION});
    INSERT INTO messages_fts_trigram(rowid, content, tool_name)
    SELECT new.id, new.content, new.tool_name
    WHERE new.role <> 'tool'
      AND EXISTS (SELECT 1 FROM sessions
                  WHERE id = new.session_id AND {_TRIGRAM_SESSION});
END;
"""

DISPLAY_TRIGGERS = (
    "messages_display_order_insert",
    "messages_display_visibility_update",
    "messages_display_identity_update",
    "messages_display_identity_delete",
)
FTS_TRIGGERS = (
    "messages_fts_insert",
    "messages_fts_delete",
    "messages_fts_update",
    "messages_fts_trigram_insert",
    "messages_fts_trigram_delete",
    "messages_fts_trigram_update",
)


def build_v30(path: Path, *, journal_mode: str = "wal") -> Path:
    """Create ``path`` as a fresh schema-30 agent file (empty). ``journal_mode``: ``wal`` as the agent does on
    a SQLite without the WAL-reset bug, ``delete`` as it does on an affected one."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute(f"PRAGMA journal_mode={journal_mode}")
        conn.executescript(SCHEMA_SQL + EXTRA_INDEX_SQL + DEFERRED_INDEX_SQL + FTS_SQL + FTS_TRIGRAM_SQL)
        conn.execute("BEGIN")
        conn.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION,))
        conn.executemany(
            "INSERT INTO state_meta (key, value) VALUES (?, ?)",
            [
                ("fts_storage_version", str(FTS_STORAGE_VERSION)),
                ("store_instance_id", uuid.uuid4().hex),
                ("store_created_at_utc", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())),
            ],
        )
        conn.execute("COMMIT")
    finally:
        conn.close()
    return path


@dataclass
class V30Sessions:
    """The ids :func:`fill_v30` wrote, by kind, and the word each session's messages hold."""

    ids: dict[str, str] = field(default_factory=dict)
    words: dict[str, str] = field(default_factory=dict)
    prompts: dict[str, str] = field(default_factory=dict)


def prompt_hash(prompt: str) -> str:
    """The agent's key of a system prompt: SHA-256 of its UTF-8, hex."""
    return hashlib.sha256(prompt.encode("utf-8")).hexdigest()


def _identity(role: str, content: str | None, tool_call_id: str | None, tool_name: str | None) -> bytes:
    # The agent computes display_identity in Python; any stable digest of the same fields stands in for it.
    return hashlib.sha256(json.dumps([role, content, tool_call_id, tool_name]).encode()).digest()[:16]


_INSERT_SESSION = (
    "INSERT INTO sessions (id, source, user_id, model, model_config, system_prompt_hash, parent_session_id,"
    " started_at, message_count, tool_call_count, title, title_source, last_activity_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_MESSAGE = (
    "INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp,"
    " display_kind, display_identity) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_TOOL_CALLS = json.dumps(
    [{"id": "call_v30", "type": "function", "function": {"name": "grep", "arguments": '{"q": "x"}'}}]
)


def fill_v30(path: Path, prefix: str = "v30") -> V30Sessions:
    """Sessions as a schema-30 agent writes them, of the sources the trigram index treats differently: a
    titled ``cli`` one with a deduplicated system prompt and a tool call, a ``telegram`` one, a ``cron`` one,
    a ``subagent`` child, and a delegated child (``model_config._delegate_from``, source ``cli``). Each
    session's messages hold a word of its own (``<prefix><kind>``)."""
    out = V30Sessions()
    now = time.time() - 3600
    kinds: list[tuple[str, str, dict[str, Any] | None, str | None]] = [
        ("cli", "cli", None, None),
        ("telegram", "telegram", None, None),
        ("cron", "cron", None, None),
        ("subagent", "subagent", None, "cli"),
        ("delegated", "cli", {"_delegate_from": "parent-call"}, "cli"),
    ]
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("BEGIN IMMEDIATE")
        for index, (kind, source, config, parent_kind) in enumerate(kinds):
            sid = f"{prefix}_{kind}"
            word = f"{prefix}{kind}"
            out.ids[kind], out.words[kind] = sid, word
            started = now + index
            prompt_key = None
            if kind == "cli":
                prompt = f"{prefix} system prompt"
                prompt_key = prompt_hash(prompt)
                out.prompts[sid] = prompt
                conn.execute(
                    "INSERT OR IGNORE INTO system_prompts (hash, prompt) VALUES (?, ?)", (prompt_key, prompt)
                )
            parent = out.ids[parent_kind] if parent_kind else None
            rows: list[tuple[str, str | None, str | None, str | None, str | None]] = [
                ("user", f"please look at {word} 東京タワー", None, None, None),
                ("assistant", None, None, _TOOL_CALLS, None),
                ("tool", f"{word} tool output", "call_v30", None, "grep"),
                ("assistant", f"done with {word}", None, None, None),
            ]
            conn.execute(
                _INSERT_SESSION,
                (
                    sid,
                    source,
                    "u42" if kind == "telegram" else None,
                    "m-30",
                    json.dumps(config) if config else None,
                    prompt_key,
                    parent,
                    started,
                    len(rows),
                    1,
                    f"{prefix} {kind} title" if kind in ("cli", "telegram") else None,
                    "user" if kind == "cli" else None,
                    started + len(rows),
                ),
            )
            for i, (role, content, call_id, calls, tool) in enumerate(rows):
                conn.execute(
                    _INSERT_MESSAGE,
                    (
                        sid,
                        role,
                        content,
                        call_id,
                        calls,
                        tool,
                        started + i,
                        "text",
                        _identity(role, content, call_id, tool),
                    ),
                )
        conn.execute("COMMIT")
    finally:
        conn.close()
    return out


TRIGRAM_EXCLUDED = ("cron", "subagent", "delegated")
"""The kinds of :func:`fill_v30` whose messages the v30 trigram index leaves out."""
