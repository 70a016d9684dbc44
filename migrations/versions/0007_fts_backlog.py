"""The deferred-indexing backlog of bulk imports (hs_fts_backlog).

Revision ID: 0007_fts_backlog
Revises: 0006_handoff_events
"""

from alembic import op

from app.storage.own_schema import FTS_BACKLOG_SQL

revision = "0007_fts_backlog"
down_revision = "0006_handoff_events"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``hs_fts_backlog`` beside the agent's tables."""
    conn = op.get_bind().connection.driver_connection
    conn.execute(FTS_BACKLOG_SQL)


def downgrade() -> None:
    """Drop only what this revision created (un-indexed imported rows stay un-indexed)."""
    conn = op.get_bind().connection.driver_connection
    conn.execute("DROP TABLE IF EXISTS hs_fts_backlog")
