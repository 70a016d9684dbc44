"""The background processes each routed chat last reported (hs_gateway_processes), so a restart keeps
honouring them.

Revision ID: 0009_gateway_processes
Revises: 0008_title_nocase_index
"""

from alembic import op

from app.storage.own_schema import GATEWAY_PROCESSES_SQL

revision = "0009_gateway_processes"
down_revision = "0008_title_nocase_index"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``hs_gateway_processes`` beside the agent's tables."""
    conn = op.get_bind().connection.driver_connection
    conn.execute(GATEWAY_PROCESSES_SQL)


def downgrade() -> None:
    """Drop only what this revision created."""
    conn = op.get_bind().connection.driver_connection
    conn.execute("DROP TABLE IF EXISTS hs_gateway_processes")
