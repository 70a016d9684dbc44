"""The deferred-indexing backlog of bulk imports (hs_fts_backlog).

Revision ID: 0007_fts_backlog
Revises: 0006_handoff_events
"""

from alembic import op

revision = "0007_fts_backlog"
down_revision = "0006_handoff_events"
branch_labels = None
depends_on = None

# The DDL this revision ran, frozen as history: app.storage.own_schema describes the tables as they are.
_DDL = """
CREATE TABLE IF NOT EXISTS hs_fts_backlog (
    first_id INTEGER PRIMARY KEY,
    last_id INTEGER NOT NULL CHECK (last_id >= first_id),
    queued_at REAL NOT NULL
)
"""


def upgrade() -> None:
    """Create ``hs_fts_backlog`` beside the agent's tables."""
    if op.get_bind().dialect.name != "sqlite":
        return  # PostgreSQL starts at 0012_postgresql_baseline
    conn = op.get_bind().connection.driver_connection
    conn.execute(_DDL)


def downgrade() -> None:
    """Drop only what this revision created (un-indexed imported rows stay un-indexed)."""
    conn = op.get_bind().connection.driver_connection
    conn.execute("DROP TABLE IF EXISTS hs_fts_backlog")
