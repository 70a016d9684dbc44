"""Gateway platforms, handoff details and the durable event log (hs_platforms, hs_handoffs, hs_events).

Revision ID: 0006_handoff_events
Revises: 0005_session_titles
"""

from alembic import op

from app.storage.connection import split_statements
from app.storage.own_schema import HANDOFF_EVENTS_SQL

revision = "0006_handoff_events"
down_revision = "0005_session_titles"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the three tables beside the agent's."""
    conn = op.get_bind().connection.driver_connection
    for stmt in split_statements(HANDOFF_EVENTS_SQL):
        conn.execute(stmt)


def downgrade() -> None:
    """Drop only what this revision created."""
    conn = op.get_bind().connection.driver_connection
    for table in ("hs_events", "hs_handoffs", "hs_platforms"):
        conn.execute(f"DROP TABLE IF EXISTS {table}")
