"""Index for keyset paging of a session's messages by id.

Revision ID: 0003_messages_paging_index
Revises: 0002_hermes_sessions_tables
"""

from alembic import op

revision = "0003_messages_paging_index"
down_revision = "0002_hermes_sessions_tables"
branch_labels = None
depends_on = None

# The DDL this revision ran, frozen as history: app.storage.own_schema describes the tables as they are.
_DDL = "CREATE INDEX IF NOT EXISTS idx_hs_messages_session_id ON messages(session_id, id)"


def upgrade() -> None:
    """Create ``idx_hs_messages_session_id`` on the agent's ``messages`` table (its columns untouched)."""
    if op.get_bind().dialect.name != "sqlite":
        return  # PostgreSQL starts at 0012_postgresql_baseline
    conn = op.get_bind().connection.driver_connection
    conn.execute(_DDL)


def downgrade() -> None:
    """Drop only what this revision created."""
    conn = op.get_bind().connection.driver_connection
    conn.execute("DROP INDEX IF EXISTS idx_hs_messages_session_id")
