"""The background processes each routed chat last reported (hs_gateway_processes), so a restart keeps
honouring them.

Revision ID: 0009_gateway_processes
Revises: 0008_title_nocase_index
"""

from alembic import op

revision = "0009_gateway_processes"
down_revision = "0008_title_nocase_index"
branch_labels = None
depends_on = None

# The DDL this revision ran, frozen as history: app.storage.own_schema describes the tables as they are.
_DDL = """
CREATE TABLE IF NOT EXISTS hs_gateway_processes (
    scope TEXT NOT NULL,
    session_key TEXT NOT NULL,
    started_at_json TEXT NOT NULL,
    updated_at REAL NOT NULL,
    PRIMARY KEY (scope, session_key)
) WITHOUT ROWID
"""


def upgrade() -> None:
    """Create ``hs_gateway_processes`` beside the agent's tables."""
    if op.get_bind().dialect.name != "sqlite":
        return  # PostgreSQL starts at 0012_postgresql_baseline
    conn = op.get_bind().connection.driver_connection
    conn.execute(_DDL)


def downgrade() -> None:
    """Drop only what this revision created."""
    conn = op.get_bind().connection.driver_connection
    conn.execute("DROP TABLE IF EXISTS hs_gateway_processes")
