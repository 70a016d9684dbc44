"""The listing's search index (hs_list_search with its documents, dirty set and triggers), queued for
every session already in the file.

Revision ID: 0011_list_search_index
Revises: 0010_session_pins
"""

from alembic import op

from app.storage.own_schema import LIST_SEARCH_TRIGGERS
from app.storage.repos.list_index import install

revision = "0011_list_search_index"
down_revision = "0010_session_pins"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the index and queue every session; the background indexer builds the documents."""
    if op.get_bind().dialect.name != "sqlite":
        return  # PostgreSQL starts at 0012_postgresql_baseline
    install(op.get_bind().connection.driver_connection)


def downgrade() -> None:
    """Drop only what this revision created (the triggers first: they write into the dirty set)."""
    conn = op.get_bind().connection.driver_connection
    for trigger in LIST_SEARCH_TRIGGERS:
        conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    for table in ("hs_list_search", "hs_list_search_docs", "hs_list_search_dirty"):
        conn.execute(f"DROP TABLE IF EXISTS {table}")
