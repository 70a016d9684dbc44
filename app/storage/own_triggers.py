"""Our triggers on the agent's tables, as SQL (SQLAlchemy cannot describe them): the listing's search index
and the cleanup of our rows. Plain text, so modules that only check a file for them (the export's render
workers among them) need not import the table classes of :mod:`app.storage.own_schema`."""

from __future__ import annotations

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
"""The listing's search index (``GET /sessions?q=``) over ``own_schema.ListSearchDoc``, and the triggers
that keep ``own_schema.ListSearchDirty`` current (an FTS5 table and triggers, which SQLAlchemy cannot
describe).

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


def cleanup_triggers_sql() -> str:
    """The statements of :data:`CLEANUP_TRIGGERS_SQL` (idempotent)."""
    return CLEANUP_TRIGGERS_SQL
