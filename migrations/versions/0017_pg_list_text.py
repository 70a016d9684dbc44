"""PostgreSQL: the listing's search indexes read ``hs_list_text`` of a session's id and title and of a user
message's preview-sized head, so that a term's spaces and punctuation narrow its candidates (see
``app.storage.postgres.search_schema``). The preview index on the plain text goes; the trigram indexes on
``lower(id)`` and on titles stay, for prefix resolution and lineage numbering. A database created at
revision 0012 by this version already has the new ones (0012 applies the search schema as it is). Nothing
changes on SQLite.

Revision ID: 0017_pg_list_text
Revises: 0016_pg_window_matches
"""

from alembic import op

from app.storage.postgres.migrate import run_on_postgresql

revision = "0017_pg_list_text"
down_revision = "0016_pg_window_matches"
branch_labels = None
depends_on = None

# Frozen as history: app.storage.postgres.search_schema describes the schema as it is.
_LIST_TEXT = (
    "CREATE OR REPLACE FUNCTION hs_list_text(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE"
    " RETURN replace(replace(replace(replace(replace(replace(replace(replace("
    "replace(replace(replace(replace(replace(replace(replace(replace(t, ' ', 'ꀀ'), "
    "'_', 'ꀁ'), '-', 'ꀂ'), '.', 'ꀃ'), '/', 'ꀄ'), ':', 'ꀅ'), '''', 'ꀆ'), '\"', 'ꀇ'), '`', 'ꀈ'), "
    "',', 'ꀉ'), '(', 'ꀊ'), ')', 'ꀋ'), '#', 'ꀌ'), '@', 'ꀍ'), '=', 'ꀎ'), '?', 'ꀏ')"
)
_PREVIEW_ROWS = "role = 'user' AND active = 1 AND content IS NOT NULL"
_UP = (
    _LIST_TEXT,
    "CREATE INDEX IF NOT EXISTS idx_messages_list_text_trgm ON messages"
    f" USING gin (hs_list_text(hs_list_preview(content)) gin_trgm_ops) WHERE {_PREVIEW_ROWS}",
    "CREATE INDEX IF NOT EXISTS idx_sessions_list_text_trgm ON sessions"
    " USING gin (hs_list_text(id || ' ' || COALESCE(title, '')) gin_trgm_ops)",
    "DROP INDEX IF EXISTS idx_messages_list_preview_trgm",
)
_DOWN = (
    "CREATE INDEX IF NOT EXISTS idx_messages_list_preview_trgm ON messages"
    f" USING gin (hs_list_preview(content) gin_trgm_ops) WHERE {_PREVIEW_ROWS}",
    "DROP INDEX IF EXISTS idx_sessions_list_text_trgm",
    "DROP INDEX IF EXISTS idx_messages_list_text_trgm",
    "DROP FUNCTION IF EXISTS hs_list_text(text)",
)


def upgrade() -> None:
    """Create the function and the indexes on it, then drop the preview index they replace."""
    run_on_postgresql(op.get_bind(), _UP)


def downgrade() -> None:
    """Restore revision 0016's preview index and drop the new function and indexes."""
    run_on_postgresql(op.get_bind(), _DOWN)
