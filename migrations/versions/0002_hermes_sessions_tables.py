"""Our own tables: idempotency keys, attachments, and the keyset index used by session listing.

Revision ID: 0002_hermes_sessions_tables
Revises: 0001_hermes_baseline
"""

from alembic import op

from app.storage.connection import split_statements
from app.storage.own_schema import OWN_TABLES_SQL

revision = "0002_hermes_sessions_tables"
down_revision = "0001_hermes_baseline"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the ``hs_`` tables beside the agent's."""
    conn = op.get_bind().connection.driver_connection
    for stmt in split_statements(OWN_TABLES_SQL):
        conn.execute(stmt)


def downgrade() -> None:
    """Drop only what this revision created."""
    conn = op.get_bind().connection.driver_connection
    conn.execute("DROP INDEX IF EXISTS idx_hs_sessions_started_id")
    for table in ("hs_message_attachments", "hs_attachments", "hs_idempotency_keys"):
        conn.execute(f"DROP TABLE IF EXISTS {table}")
