"""Pinned sessions (hs_session_pins): the keep flag prune, auto-prune and archive honour.

Revision ID: 0010_session_pins
Revises: 0009_gateway_processes
"""

from alembic import op

from app.storage.own_schema import SESSION_PINS_SQL

revision = "0010_session_pins"
down_revision = "0009_gateway_processes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``hs_session_pins`` beside the agent's tables."""
    conn = op.get_bind().connection.driver_connection
    conn.execute(SESSION_PINS_SQL)


def downgrade() -> None:
    """Drop only what this revision created."""
    conn = op.get_bind().connection.driver_connection
    conn.execute("DROP TABLE IF EXISTS hs_session_pins")
