"""Our own tables, beside the agent's, described once: the SQLModel classes below are the source.

Every table carries the ``hs_`` prefix so it never collides with the agent's. :data:`metadata` is Alembic's
``target_metadata`` (``migrations/env.py``); the agent's tables appear in it only as stubs holding the
columns our foreign keys and indexes name, and :func:`include_object` keeps them (and everything else the
agent owns) out of every comparison. ``tests/compat/test_own_schema.py`` migrates a fresh file and checks
with Alembic's ``compare_metadata`` that it matches this module exactly.

Hot paths use explicit SQL, not the ORM (docs/storage.md); these classes describe tables, they are not
loaded through. Migrations are history: each one keeps the DDL it ran, so a later change to a class here
needs a new migration rather than an edit of an old one.

To add a table:

1. Declare ``class Thing(SQLModel, table=True)`` here with ``__tablename__ = "hs_things"``. Spell each
   column as SQLite stores it: ``sa_type=Text`` for text, ``Integer`` for flags (the agent's files hold 0/1
   integers, not BOOLEAN), ``server_default`` for DEFAULT clauses, indexes and CHECKs in
   ``__table_args__``. A single-column primary key of a rowid table is ``nullable=True``, as SQLite
   reports it (only WITHOUT ROWID implies NOT NULL). A foreign key to an agent table names a column of a
   stub below (add it there).
2. Write ``migrations/versions/NNNN_things.py`` that creates it (``CREATE TABLE IF NOT EXISTS``, so a file
   the table already exists in is left alone); :func:`create_table_sql` prints the DDL to paste.
3. Run ``tests/compat/test_own_schema.py``: it fails until the migration and the class agree. Nothing else
   is needed: read-only serving shadows every table of :data:`metadata` on its own.

A table keyed by ``session_id`` with ``__table_args__ = {"info": SESSION_MEMBERS, ...}`` holds members of
the session itself: each of its other columns is shown in the session's JSON, set by ``PATCH``, and its row
goes with its session (docs/storage.md, "Adding a stored field on sessions").
"""

from __future__ import annotations

from typing import Any, Literal

from sqlalchemy import (
    REAL,
    CheckConstraint,
    Column,
    Float,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    Table,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.dialects import sqlite
from sqlalchemy.schema import CreateTable, SchemaItem
from sqlmodel import Field, SQLModel

metadata: MetaData = SQLModel.metadata

SESSION_MEMBERS = {"session_members": True}
"""The ``info`` of a table of ours whose columns (but ``session_id``) are members of the session it keys."""

# The agent's tables: only the columns our keys and indexes name. They belong to the agent's schema
# (app.storage.hermes_ddl); ``info`` marks them so comparisons and read-only shadowing skip them.
_AGENT = {"agent": True}
_sessions = Table(
    "sessions",
    metadata,
    Column("id", Text, primary_key=True),
    Column("started_at", Float),
    Column("title", Text),
    info=_AGENT,
)
_messages = Table(
    "messages",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("session_id", Text),
    info=_AGENT,
)

# Our indexes on the agent's tables (its columns untouched).
Index("idx_hs_sessions_started_id", _sessions.c.started_at.desc(), _sessions.c.id.desc())
Index("idx_hs_messages_session_id", _messages.c.session_id, _messages.c.id)
# Lineage numbering and title resolution match ``title LIKE 'base #%'`` case-insensitively, as the agent
# does; a NOCASE index lets SQLite answer that from the index instead of scanning every session.
Index(
    "idx_hs_sessions_title_nocase",
    _sessions.c.title.collate("NOCASE"),
    sqlite_where=_sessions.c.title.is_not(None),
)

TRIGRAM_VOCAB_SQL = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS hs_trigram_vocab USING fts5vocab(messages_fts_trigram, row)"
)
"""A read-only view of the agent's trigram index terms (no storage of its own, so no class: SQLAlchemy has
no notion of a virtual table). Search expands a one- or two-character term into the indexed trigrams that
start with it (a range scan of the term list), so short CJK terms are answered from the index instead of a
scan of every message."""


def _text(**kwargs: Any) -> Any:
    """A TEXT column (SQLModel's default for ``str`` is VARCHAR, which is not what the file holds)."""
    return Field(sa_type=Text, **kwargs)


def _real(**kwargs: Any) -> Any:
    """A REAL column (epoch seconds), as the file spells it."""
    return Field(sa_type=REAL, **kwargs)


def _default(sql: str) -> dict[str, Any]:
    return {"server_default": text(sql)}


class IdempotencyKey(SQLModel, table=True):
    """A replayable response, stored in the same transaction as the effect it describes."""

    __tablename__ = "hs_idempotency_keys"
    __table_args__ = (Index("idx_hs_idempotency_created", "created_at"),)

    key: str = _text(primary_key=True)
    method: str = _text(primary_key=True)
    path: str = _text(primary_key=True)
    body_sha256: str = _text()
    status: int
    response: bytes = Field(sa_type=LargeBinary)
    headers: str = _text(default="{}", sa_column_kwargs=_default("'{}'"))
    created_at: float = _real()


class Attachment(SQLModel, table=True):
    """An uploaded file, stored once by content hash under ``$HERMES_HOME/attachments``."""

    __tablename__ = "hs_attachments"

    id: str = _text(primary_key=True, nullable=True)
    sha256: str = _text(unique=True)
    size: int
    media_type: str = _text()
    filename: str | None = _text(default=None)
    path: str = _text()
    extracted_text: str | None = _text(default=None)
    created_at: float = _real()


class MessageAttachment(SQLModel, table=True):
    """Link from a message to the attachments it references (bytes never enter message content)."""

    __tablename__ = "hs_message_attachments"
    __table_args__ = (Index("idx_hs_message_attachments_attachment", "attachment_id"),)

    message_id: int = Field(primary_key=True)
    attachment_id: str = _text(primary_key=True, foreign_key="hs_attachments.id")
    position: int = Field(default=0, sa_column_kwargs=_default("0"))


class SessionTitle(SQLModel, table=True):
    """Who set a session's title (a person or the automatic titler) and which generator proposed it. A row
    also means "never auto-title this session again"."""

    __tablename__ = "hs_session_titles"
    __table_args__ = (CheckConstraint("title_source IN ('user', 'auto')"),)

    session_id: str = _text(primary_key=True, nullable=True)
    title_source: Literal["user", "auto"] = _text()
    generator: str | None = _text(default=None)
    created_at: float = _real()


class Platform(SQLModel, table=True):
    """A messaging platform's gateway settings (``/sethome`` writes the home channel)."""

    __tablename__ = "hs_platforms"

    platform: str = _text(primary_key=True, nullable=True)
    enabled: int = Field(default=0, sa_column_kwargs=_default("0"), description="0 or 1")
    home_chat_id: str | None = _text(default=None)
    home_name: str | None = _text(default=None)
    threads: int = Field(default=0, sa_column_kwargs=_default("0"), description="0 or 1")
    updated_at: float = _real()


class Handoff(SQLModel, table=True):
    """What a handoff adds to the agent's ``sessions.handoff_*`` columns: the claiming worker and where the
    session now lives. The handoff *state* stays in the agent's columns (its gateway may drive it through
    its own ``SessionDB``)."""

    __tablename__ = "hs_handoffs"

    session_id: str = _text(primary_key=True, nullable=True)
    worker: str | None = _text(default=None)
    thread: str | None = _text(default=None)
    requested_at: float = _real()
    updated_at: float = _real()


class Event(SQLModel, table=True):
    """One durable event, written in the same transaction as its effect; ``id`` is the SSE event id.

    No foreign key: a session's events outlive it until retention removes them."""

    __tablename__ = "hs_events"
    __table_args__ = (Index("idx_hs_events_session", "session_id", "id"), {"sqlite_autoincrement": True})

    id: int | None = Field(default=None, primary_key=True, nullable=True)
    type: str = _text()
    session_id: str | None = _text(default=None)
    data: str = _text()
    created_at: float = _real()


class FtsBacklogRun(SQLModel, table=True):
    """Message ids ``first_id..last_id`` a bulk import stored without indexing them in the agent's two FTS
    tables.

    Written in the same transaction as the messages; the background indexer indexes each run (skipping rows
    already indexed, e.g. by the agent's UPDATE trigger) and shrinks or deletes it in one transaction, so
    the backlog survives a restart or a crash."""

    __tablename__ = "hs_fts_backlog"
    __table_args__ = (CheckConstraint("last_id >= first_id"),)

    first_id: int = Field(primary_key=True, nullable=True)
    last_id: int
    queued_at: float = _real()


class GatewayProcesses(SQLModel, table=True):
    """The live background processes a caller of ``POST /gateway/route`` last reported for a chat (the
    start times, a JSON array of epoch seconds), keyed like the agent's ``gateway_routing``. They block that
    chat's automatic reset and its expiry finalisation, and must still do so after a restart."""

    __tablename__ = "hs_gateway_processes"
    __table_args__ = {"sqlite_with_rowid": False}

    scope: str = _text(primary_key=True)
    session_key: str = _text(primary_key=True)
    started_at_json: str = _text()
    updated_at: float = _real()


class SessionPin(SQLModel, table=True):
    """A session the user pinned: prune, auto-prune and archive never touch it. A flag of ours, so it lives
    here and never in the agent's columns (on a file whose agent has its own ``pinned`` column, that column
    is the truth and this table is not used); the row goes with its session (:data:`CLEANUP_TRIGGERS_SQL`)."""

    __tablename__ = "hs_session_pins"
    __table_args__ = {"sqlite_with_rowid": False}

    session_id: str = _text(primary_key=True)
    pinned_at: float = _real()


class SyncHome(SQLModel, table=True):
    """A home whose agent file ``hermes sessions sync`` pushes here, by its label (host and file path, or the
    user's ``--home``); the number keeps the per-message origin rows small."""

    __tablename__ = "hs_sync_homes"

    id: int | None = Field(default=None, primary_key=True, nullable=True)
    label: str = _text(unique=True)
    created_at: float = _real()


class SyncSession(SQLModel, table=True):
    """A session that came by sync, and from which home: its identity lives here, never in the agent's
    columns. ``origin_parent_id`` is the parent its home names, kept until that parent arrives and can be
    linked. The row goes with its session."""

    __tablename__ = "hs_sync_sessions"
    __table_args__ = (
        Index("idx_hs_sync_sessions_home", "home_id", "session_id"),
        {"sqlite_with_rowid": False},
    )

    session_id: str = _text(primary_key=True)
    home_id: int = Field(foreign_key="hs_sync_homes.id")
    origin_parent_id: str | None = _text(default=None)
    synced_at: float = _real()


class SyncFile(SQLModel, table=True):
    """A generation of a home: one file it syncs from, by the token the CLI keeps beside its cursor. A file
    replaced, restored from a backup or copied to another machine under the same label starts its message
    ids over, as a generation of its own."""

    __tablename__ = "hs_sync_files"
    __table_args__ = (UniqueConstraint("home_id", "token", name="uq_hs_sync_files_home_token"),)

    id: int | None = Field(default=None, primary_key=True, nullable=True)
    home_id: int = Field(foreign_key="hs_sync_homes.id")
    token: str = _text()
    created_at: float = _real()


class SyncMessage(SQLModel, table=True):
    """The origin of a synced message: its home, the generation (:class:`SyncFile`, 0 before generations
    were known) and its id in that file. The primary key is what makes a repeated or resumed sync skip what
    it already delivered."""

    __tablename__ = "hs_sync_messages"
    __table_args__ = {"sqlite_with_rowid": False}

    home_id: int = Field(primary_key=True)
    # Origin before generation in the key: a batch looks its origins up by home and id range.
    origin_id: int = Field(primary_key=True)
    file_id: int = Field(default=0, primary_key=True, sa_column_kwargs=_default("0"))
    message_id: int


class Meta(SQLModel, table=True):
    """Our bookkeeping (the auto-prune schedule and lease) on a newer agent's file, whose ``state_meta``
    belongs to its FTS rebuilds; on a schema-22 file it stays in ``state_meta``, shared with the agent."""

    __tablename__ = "hs_meta"

    key: str = _text(primary_key=True, nullable=True)
    value: str | None = _text(default=None)


class ListSearchDoc(SQLModel, table=True):
    """What the listing's search index holds for a session (the text ``hs_list_search`` indexes): its id,
    title and the SQL-cut first user message its preview is drawn from."""

    __tablename__ = "hs_list_search_docs"

    doc: int | None = Field(default=None, primary_key=True, nullable=True)
    session_id: str = _text(unique=True)
    title: str = _text()
    preview: str = _text()
    first_ts: float | None = _real(default=None)


class ListSearchDirty(SQLModel, table=True):
    """A session whose search document may be out of date; a listing reads it directly until re-indexed."""

    __tablename__ = "hs_list_search_dirty"
    __table_args__ = {"sqlite_with_rowid": False}

    session_id: str = _text(primary_key=True)


LIST_SEARCH_INDEX_SQL = """
CREATE VIRTUAL TABLE IF NOT EXISTS hs_list_search USING fts5(
    session_id, title, preview, content='hs_list_search_docs', content_rowid='doc', tokenize='trigram'
);
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
"""The listing's search index (``GET /sessions?q=``) over :class:`ListSearchDoc`, and the triggers that keep
:class:`ListSearchDirty` current (an FTS5 table and triggers, which SQLAlchemy cannot describe).

The triggers live in the file, so every writer (this server, the agent's own ``SessionDB``, an import)
marks the sessions whose id, title or preview may have changed, in the same transaction and at the cost of
one key insert; the background indexer re-derives their documents later, and a listing treats every dirty
session as a candidate meanwhile. A user message later than the one a session's document was cut from
cannot change its preview, so ordinary appends mark nothing. The triggers are objects of ours attached to
the agent's tables, like our indexes on them: its columns and its own triggers are untouched."""

CLEANUP_TRIGGERS_SQL = """
CREATE TRIGGER IF NOT EXISTS hs_cleanup_session AFTER DELETE ON sessions BEGIN
    DELETE FROM hs_session_titles WHERE session_id = OLD.id;
    DELETE FROM hs_handoffs WHERE session_id = OLD.id;
    DELETE FROM hs_session_pins WHERE session_id = OLD.id;
    DELETE FROM hs_sync_sessions WHERE session_id = OLD.id;
END;
CREATE TRIGGER IF NOT EXISTS hs_cleanup_message AFTER DELETE ON messages BEGIN
    DELETE FROM hs_message_attachments WHERE message_id = OLD.id;
END;
"""
"""Our rows about a session or a message go with it, whichever process deletes it.

Our tables declare no foreign key into the agent's: the agent runs with ``foreign_keys=ON``, and a key of
ours on its tables can make its own deletes fail, while its recovery copies only its own tables. These
triggers (ours, on its tables, like the listing's) do what ``ON DELETE CASCADE`` did."""


def session_member_tables() -> list[Table]:
    """Our tables marked :data:`SESSION_MEMBERS`, in declaration order."""
    return [t for t in metadata.tables.values() if t.info.get("session_members")]


def session_member_columns() -> list[Column[Any]]:
    """The members of a session stored in our own tables, in declaration order."""
    return [c for t in session_member_tables() for c in t.columns if c.name != "session_id"]


def cleanup_triggers_sql() -> str:
    """The statements of :data:`CLEANUP_TRIGGERS_SQL`, and the trigger that takes each table of session
    members with its session (its own, so the frozen ``hs_cleanup_session`` never needs replacing; all
    idempotent)."""
    members = "".join(
        f"CREATE TRIGGER IF NOT EXISTS hs_cleanup_{t.name} AFTER DELETE ON sessions BEGIN\n"
        f"    DELETE FROM {t.name} WHERE session_id = OLD.id;\nEND;\n"
        for t in session_member_tables()
    )
    return CLEANUP_TRIGGERS_SQL + members


LIST_SEARCH_TRIGGERS = (
    "hs_list_search_session_insert",
    "hs_list_search_session_title",
    "hs_list_search_session_delete",
    "hs_list_search_message_insert",
    "hs_list_search_message_update",
    "hs_list_search_message_delete",
)


def list_search_sql() -> list[str]:
    """Every statement that creates the listing's search index (idempotent: IF NOT EXISTS throughout)."""
    tables = [
        str(CreateTable(t, if_not_exists=True).compile(dialect=sqlite.dialect())).strip()
        for t in (ListSearchDoc.__table__, ListSearchDirty.__table__)  # type: ignore[attr-defined]
    ]
    return [*tables, LIST_SEARCH_INDEX_SQL]


def own_tables() -> list[Table]:
    """Our tables (not the agent's stubs), parents before children."""
    return [t for t in metadata.sorted_tables if not t.info.get("agent")]


def create_table_sql(table: Table) -> str:
    """The SQLite ``CREATE TABLE`` statement of ``table`` as the metadata describes it."""
    return str(CreateTable(table).compile(dialect=sqlite.dialect())).strip()


def include_object(
    obj: SchemaItem, name: str | None, type_: str, reflected: bool, compare_to: SchemaItem | None
) -> bool:
    """Alembic's filter: compare and autogenerate only our tables (and what hangs off them).

    Tables the metadata does not declare as ours (the agent's, its FTS shadow tables, ``hs_trigram_vocab``)
    are left out, and with them their columns and indexes. Foreign keys are left out too (see below)."""
    if type_ == "foreign_key_constraint":
        # SQLAlchemy's SQLite reflection drops ON DELETE from an inline REFERENCES clause (ours are inline),
        # so Alembic would report every such key as changed; the test compares them via PRAGMA instead.
        return False
    if type_ != "table":
        return True
    table = metadata.tables.get(name or "")
    return table is not None and not table.info.get("agent")
