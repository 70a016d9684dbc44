"""PostgreSQL: search indexing can wait for the background indexer. ``messages.hs_search_ready`` (1 for
every row already there; 0 by default for rows a transaction stores with ``hermes.search_deferred`` on)
gates the ``tsvector`` column and the two message search indexes, which become partial, and
``hs_fts_backlog`` queues the waiting rows' ids as runs (as on SQLite). A database created at revision 0012
by this version already has them (0012 applies the search schema as it is); one created before gets them
here, the column recomputed and the indexes rebuilt. Nothing changes on SQLite.

Revision ID: 0015_pg_deferred_search
Revises: 0014_pg_session_id_trigrams
"""

from typing import Any

from alembic import op

revision = "0015_pg_deferred_search"
down_revision = "0014_pg_session_id_trigrams"
branch_labels = None
depends_on = None

# Frozen as history: app.storage.postgres.search_schema describes the columns and indexes as they are.
_VECTOR = (
    "to_tsvector('hs_search'::regconfig, hs_search_words(hs_search_doc(content, tool_name, tool_calls)))"
)
_DOC = "hs_search_doc(content, tool_name, tool_calls) gin_trgm_ops"
_DROP = (
    "DROP INDEX IF EXISTS idx_messages_search_vector",
    "DROP INDEX IF EXISTS idx_messages_search_trgm",
    "ALTER TABLE messages DROP COLUMN IF EXISTS search_vector",
)
_UP = (
    *_DROP,
    "ALTER TABLE messages ADD COLUMN IF NOT EXISTS hs_search_ready smallint NOT NULL DEFAULT"
    " (CASE WHEN current_setting('hermes.search_deferred', true) = 'on' THEN 0 ELSE 1 END)",
    "ALTER TABLE messages ADD COLUMN search_vector tsvector GENERATED ALWAYS AS"
    f" (CASE WHEN hs_search_ready = 1 THEN {_VECTOR} END) STORED",
    "CREATE INDEX idx_messages_search_vector ON messages USING gin (search_vector) WHERE hs_search_ready = 1",
    f"CREATE INDEX idx_messages_search_trgm ON messages USING gin ({_DOC}) WHERE hs_search_ready = 1",
    "CREATE TABLE IF NOT EXISTS hs_fts_backlog (first_id bigint PRIMARY KEY, last_id bigint NOT NULL,"
    " queued_at double precision NOT NULL)",
)
_DOWN = (
    # Rows still waiting are indexed by the recomputed column and the full indexes.
    "DROP TABLE IF EXISTS hs_fts_backlog",
    *_DROP,
    "ALTER TABLE messages DROP COLUMN IF EXISTS hs_search_ready",
    f"ALTER TABLE messages ADD COLUMN search_vector tsvector GENERATED ALWAYS AS ({_VECTOR}) STORED",
    "CREATE INDEX idx_messages_search_vector ON messages USING gin (search_vector)",
    f"CREATE INDEX idx_messages_search_trgm ON messages USING gin ({_DOC})",
)


def _connection() -> Any:
    bind = op.get_bind()
    return None if bind.dialect.name != "postgresql" else bind.connection.driver_connection


def upgrade() -> None:
    """Gate search indexing on ``hs_search_ready``, unless the database already has it."""
    conn = _connection()
    if conn is None:
        return
    found = conn.execute("SELECT to_regclass('hs_fts_backlog')").fetchone()
    if found is not None and found[0] is not None:
        return
    for statement in _UP:
        conn.execute(statement)


def downgrade() -> None:
    """Index every row as it is written again (revision 0014's column and indexes)."""
    conn = _connection()
    if conn is None:
        return
    for statement in _DOWN:
        conn.execute(statement)
