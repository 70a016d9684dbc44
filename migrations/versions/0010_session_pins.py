"""Pinned sessions (hs_session_pins): the keep flag prune, auto-prune and archive honour.

Revision ID: 0010_session_pins
Revises: 0009_gateway_processes
"""

from alembic import op

revision = "0010_session_pins"
down_revision = "0009_gateway_processes"
branch_labels = None
depends_on = None

# The DDL this revision ran, frozen as history: app.storage.own_schema describes the tables as they are.
_DDL = """
CREATE TABLE IF NOT EXISTS hs_session_pins (
    session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
    pinned_at REAL NOT NULL
) WITHOUT ROWID
"""


def upgrade() -> None:
    """Create ``hs_session_pins`` beside the agent's tables."""
    if op.get_bind().dialect.name != "sqlite":
        return  # PostgreSQL starts at 0012_postgresql_baseline
    conn = op.get_bind().connection.driver_connection
    conn.execute(_DDL)


def downgrade() -> None:
    """Drop only what this revision created."""
    conn = op.get_bind().connection.driver_connection
    conn.execute("DROP TABLE IF EXISTS hs_session_pins")
