"""Our own tables, beside the agent's. All carry the ``hs_`` prefix so they never collide with the agent's.

The DDL here is what migration 0002 executes; the SQLModel classes describe the same tables for cold
paths and for readers of the code. ``tests/storage/test_migrations.py`` checks that both agree.
"""

from __future__ import annotations

from sqlmodel import Field, SQLModel

OWN_TABLES_SQL = """
CREATE TABLE IF NOT EXISTS hs_idempotency_keys (
    key TEXT NOT NULL,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    body_sha256 TEXT NOT NULL,
    status INTEGER NOT NULL,
    response BLOB NOT NULL,
    headers TEXT NOT NULL DEFAULT '{}',
    created_at REAL NOT NULL,
    PRIMARY KEY (key, method, path)
);
CREATE INDEX IF NOT EXISTS idx_hs_idempotency_created ON hs_idempotency_keys(created_at);

CREATE TABLE IF NOT EXISTS hs_attachments (
    id TEXT PRIMARY KEY,
    sha256 TEXT NOT NULL UNIQUE,
    size INTEGER NOT NULL,
    media_type TEXT NOT NULL,
    filename TEXT,
    path TEXT NOT NULL,
    extracted_text TEXT,
    created_at REAL NOT NULL
);

CREATE TABLE IF NOT EXISTS hs_message_attachments (
    message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    attachment_id TEXT NOT NULL REFERENCES hs_attachments(id),
    position INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (message_id, attachment_id)
);
CREATE INDEX IF NOT EXISTS idx_hs_message_attachments_attachment ON hs_message_attachments(attachment_id);

CREATE INDEX IF NOT EXISTS idx_hs_sessions_started_id ON sessions(started_at DESC, id DESC);
"""


class IdempotencyKey(SQLModel, table=True):
    """A replayable response, stored in the same transaction as the effect it describes."""

    __tablename__ = "hs_idempotency_keys"

    key: str = Field(primary_key=True)
    method: str = Field(primary_key=True)
    path: str = Field(primary_key=True)
    body_sha256: str
    status: int
    response: bytes
    headers: str = "{}"
    created_at: float


class Attachment(SQLModel, table=True):
    """An uploaded file, stored once by content hash under ``$HERMES_HOME/attachments``."""

    __tablename__ = "hs_attachments"

    id: str = Field(primary_key=True)
    sha256: str = Field(unique=True)
    size: int
    media_type: str
    filename: str | None = None
    path: str
    extracted_text: str | None = None
    created_at: float


class MessageAttachment(SQLModel, table=True):
    """Link from a message to the attachments it references (bytes never enter message content)."""

    __tablename__ = "hs_message_attachments"

    message_id: int = Field(primary_key=True, foreign_key="messages.id")
    attachment_id: str = Field(primary_key=True, foreign_key="hs_attachments.id")
    position: int = 0


MESSAGES_PAGING_INDEX_SQL = (
    "CREATE INDEX IF NOT EXISTS idx_hs_messages_session_id ON messages(session_id, id)"
)

# Lineage numbering and title resolution match ``title LIKE 'base #%'`` (case-insensitive, as the agent
# does); a NOCASE index on the title lets SQLite answer that from the index instead of scanning every session
# (37 ms per auto-title on 50k sessions, inside the writer).
TITLE_NOCASE_INDEX_SQL = (
    "CREATE INDEX IF NOT EXISTS idx_hs_sessions_title_nocase ON sessions(title COLLATE NOCASE) "
    "WHERE title IS NOT NULL"
)
"""Keyset paging of one session's messages (``WHERE session_id = ? AND id > ? ORDER BY id``) without
reading and sorting the whole session; migration 0003 creates it."""

TRIGRAM_VOCAB_SQL = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS hs_trigram_vocab USING fts5vocab(messages_fts_trigram, row)"
)
"""A read-only view of the agent's trigram index terms (no storage of its own). Search expands a one- or
two-character term into the indexed trigrams that start with it (a range scan of the term list), so short
CJK terms are answered from the index instead of a scan of every message; migration 0004 creates it."""

SESSION_TITLES_SQL = """
CREATE TABLE IF NOT EXISTS hs_session_titles (
    session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
    title_source TEXT NOT NULL CHECK (title_source IN ('user', 'auto')),
    generator TEXT,
    created_at REAL NOT NULL
)
"""
"""Who set a session's title (a person or the automatic titler) and which generator proposed it. A row
also means "never auto-title this session again"; migration 0005 creates it."""

HANDOFF_EVENTS_SQL = """
CREATE TABLE IF NOT EXISTS hs_platforms (
    platform TEXT PRIMARY KEY,
    enabled INTEGER NOT NULL DEFAULT 0,
    home_chat_id TEXT,
    home_name TEXT,
    threads INTEGER NOT NULL DEFAULT 0,
    updated_at REAL NOT NULL
);

CREATE TABLE IF NOT EXISTS hs_handoffs (
    session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
    worker TEXT,
    thread TEXT,
    requested_at REAL NOT NULL,
    updated_at REAL NOT NULL
);

CREATE TABLE IF NOT EXISTS hs_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    type TEXT NOT NULL,
    session_id TEXT,
    data TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_hs_events_session ON hs_events(session_id, id);
"""
"""Gateway platform settings, where a handed-off session now lives, and the durable event log.

The handoff *state* stays in the agent's ``sessions.handoff_*`` columns (the agent's gateway may drive it
through its own ``SessionDB``); ``hs_handoffs`` only adds what those columns have no room for. Events have
no foreign key: a session's events outlive it until retention removes them. Migration 0006 creates these."""


class Platform(SQLModel, table=True):
    """A messaging platform's gateway settings (``/sethome`` writes the home channel)."""

    __tablename__ = "hs_platforms"

    platform: str = Field(primary_key=True)
    enabled: bool = False
    home_chat_id: str | None = None
    home_name: str | None = None
    threads: bool = False
    updated_at: float


class Handoff(SQLModel, table=True):
    """What a handoff adds to the agent's columns: the claiming worker and where the session now lives."""

    __tablename__ = "hs_handoffs"

    session_id: str = Field(primary_key=True, foreign_key="sessions.id")
    worker: str | None = None
    thread: str | None = None
    requested_at: float
    updated_at: float


class Event(SQLModel, table=True):
    """One durable event, written in the same transaction as its effect; ``id`` is the SSE event id."""

    __tablename__ = "hs_events"

    id: int | None = Field(default=None, primary_key=True)
    type: str
    session_id: str | None = Field(default=None, index=True)
    data: str
    created_at: float


FTS_BACKLOG_SQL = """
CREATE TABLE IF NOT EXISTS hs_fts_backlog (
    first_id INTEGER PRIMARY KEY,
    last_id INTEGER NOT NULL CHECK (last_id >= first_id),
    queued_at REAL NOT NULL
)
"""
"""Runs of message ids a bulk import stored without indexing them in the agent's two FTS tables.

Written in the same transaction as the messages; the server's background indexer indexes each run (skipping
rows already indexed, e.g. by the agent's UPDATE trigger) and shrinks or deletes it in one transaction, so
the backlog survives a restart or a crash. Migration 0007 creates it."""


class FtsBacklogRun(SQLModel, table=True):
    """Message ids ``first_id..last_id`` await indexing in ``messages_fts`` and ``messages_fts_trigram``."""

    __tablename__ = "hs_fts_backlog"

    first_id: int = Field(primary_key=True)
    last_id: int
    queued_at: float


GATEWAY_PROCESSES_SQL = """
CREATE TABLE IF NOT EXISTS hs_gateway_processes (
    scope TEXT NOT NULL,
    session_key TEXT NOT NULL,
    started_at_json TEXT NOT NULL,
    updated_at REAL NOT NULL,
    PRIMARY KEY (scope, session_key)
) WITHOUT ROWID
"""
"""The live background processes a caller of ``POST /gateway/route`` last reported for a chat (the start
times, a JSON array of epoch seconds), keyed like the agent's ``gateway_routing``. They block that chat's
automatic reset and its expiry finalisation, and must still do so after a restart; migration 0009 creates
it."""


LIST_SEARCH_SQL = """
CREATE TABLE IF NOT EXISTS hs_list_search_docs (
    doc INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    preview TEXT NOT NULL,
    first_ts REAL
);
CREATE VIRTUAL TABLE IF NOT EXISTS hs_list_search USING fts5(
    session_id, title, preview, content='hs_list_search_docs', content_rowid='doc', tokenize='trigram'
);
CREATE TABLE IF NOT EXISTS hs_list_search_dirty (
    session_id TEXT PRIMARY KEY
) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS hs_list_search_session_insert AFTER INSERT ON sessions BEGIN
    INSERT OR IGNORE INTO hs_list_search_dirty (session_id) VALUES (NEW.id);
END;
CREATE TRIGGER IF NOT EXISTS hs_list_search_session_title AFTER UPDATE OF id, title ON sessions
WHEN NEW.title IS NOT OLD.title OR NEW.id IS NOT OLD.id BEGIN
    INSERT OR IGNORE INTO hs_list_search_dirty (session_id) VALUES (OLD.id), (NEW.id);
END;
CREATE TRIGGER IF NOT EXISTS hs_list_search_session_delete AFTER DELETE ON sessions BEGIN
    INSERT OR IGNORE INTO hs_list_search_dirty (session_id) VALUES (OLD.id);
END;
CREATE TRIGGER IF NOT EXISTS hs_list_search_message_insert AFTER INSERT ON messages
WHEN NEW.role = 'user' AND NOT EXISTS (
    SELECT 1 FROM hs_list_search_docs d WHERE d.session_id = NEW.session_id AND d.first_ts < NEW.timestamp
) BEGIN
    INSERT OR IGNORE INTO hs_list_search_dirty (session_id) VALUES (NEW.session_id);
END;
CREATE TRIGGER IF NOT EXISTS hs_list_search_message_update
AFTER UPDATE OF session_id, role, content, active, timestamp ON messages
WHEN OLD.role = 'user' OR NEW.role = 'user' BEGIN
    INSERT OR IGNORE INTO hs_list_search_dirty (session_id) VALUES (OLD.session_id), (NEW.session_id);
END;
CREATE TRIGGER IF NOT EXISTS hs_list_search_message_delete AFTER DELETE ON messages
WHEN OLD.role = 'user' BEGIN
    INSERT OR IGNORE INTO hs_list_search_dirty (session_id) VALUES (OLD.session_id);
END;
"""
"""The listing's search index (``GET /sessions?q=``): one trigram-indexed document per session holding its
id, title and the SQL-cut first user message its preview is drawn from.

The triggers live in the file, so every writer (this server, the agent's own ``SessionDB``, an import)
marks the sessions whose id, title or preview may have changed in ``hs_list_search_dirty``, in the same
transaction and at the cost of one key insert; the background indexer re-derives their documents later, and
a listing treats every dirty session as a candidate meanwhile. A user message later than the one a session's
document was cut from cannot change its preview, so ordinary appends mark nothing. Migration 0011 creates it
and queues every session already in the file."""

LIST_SEARCH_TRIGGERS = (
    "hs_list_search_session_insert",
    "hs_list_search_session_title",
    "hs_list_search_session_delete",
    "hs_list_search_message_insert",
    "hs_list_search_message_update",
    "hs_list_search_message_delete",
)


class ListSearchDoc(SQLModel, table=True):
    """What the listing's search index holds for a session (the text ``hs_list_search`` indexes)."""

    __tablename__ = "hs_list_search_docs"

    doc: int | None = Field(default=None, primary_key=True)
    session_id: str = Field(unique=True)
    title: str
    preview: str
    first_ts: float | None = None


class ListSearchDirty(SQLModel, table=True):
    """A session whose search document may be out of date; a listing reads it directly until re-indexed."""

    __tablename__ = "hs_list_search_dirty"

    session_id: str = Field(primary_key=True)


SESSION_PINS_SQL = """
CREATE TABLE IF NOT EXISTS hs_session_pins (
    session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
    pinned_at REAL NOT NULL
) WITHOUT ROWID
"""
"""Sessions the user pinned: prune, auto-prune and archive never touch them. A flag of ours, so it lives
here and never in the agent's columns; the row goes with its session, whichever process deletes it (the
agent's connections enforce foreign keys too). Migration 0010 creates it."""


class SessionPin(SQLModel, table=True):
    """A pinned session (kept from prune, auto-prune and archive)."""

    __tablename__ = "hs_session_pins"

    session_id: str = Field(primary_key=True, foreign_key="sessions.id")
    pinned_at: float
