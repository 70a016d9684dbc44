"""PostgreSQL: the listing's trigram index on user messages (``idx_messages_list_text_trgm``) holds only
indexed rows (``hs_search_ready = 1``), so a big sync batch's or import's user messages wait for the
background indexer there too, as they already did for the search indexes: that index's entries were most of
the database's cost of storing a synced row. The listing reads the waiting rows through the backlog's runs
(``app.storage.postgres.search``). The index is rebuilt. Nothing changes on SQLite.

Revision ID: 0020_pg_list_index_waits
Revises: 0019_pg_preview_index
"""

from alembic import op

from app.storage.postgres.migrate import run_on_postgresql

revision = "0020_pg_list_index_waits"
down_revision = "0019_pg_preview_index"
branch_labels = None
depends_on = None

# Frozen as history: app.storage.postgres.search_schema describes the schema as it is.
_ROWS = "role = 'user' AND active = 1 AND content IS NOT NULL"


def _index(predicate: str) -> tuple[str, ...]:
    return (
        "DROP INDEX IF EXISTS idx_messages_list_text_trgm",
        "CREATE INDEX idx_messages_list_text_trgm ON messages"
        f" USING gin (hs_list_text(hs_list_preview(content)) gin_trgm_ops) WHERE {predicate}",
    )


def upgrade() -> None:
    """Rebuild the index on the indexed rows only."""
    run_on_postgresql(op.get_bind(), _index(f"{_ROWS} AND hs_search_ready = 1"))


def downgrade() -> None:
    """Rebuild it on every row a preview may come from."""
    run_on_postgresql(op.get_bind(), _index(_ROWS))
