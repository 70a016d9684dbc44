"""Baseline: the Hermes agent's schema 22, created when absent and adopted in place when present.

Revision ID: 0001_hermes_baseline
Revises:
"""

from alembic import op

from app.storage.hermes_schema import adopt

revision = "0001_hermes_baseline"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create or adopt the agent's tables, FTS indexes and triggers; never drops a row."""
    if op.get_bind().dialect.name != "sqlite":
        return  # PostgreSQL starts at 0012_postgresql_baseline
    adopt(op.get_bind().connection.driver_connection)


def downgrade() -> None:
    """The agent's tables belong to the agent: they are never dropped."""
