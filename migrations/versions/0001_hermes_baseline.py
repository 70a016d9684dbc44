"""Baseline: the Hermes agent's schema 22, created when absent and adopted in place when present.

Revision ID: 0001_hermes_baseline
Revises:
"""

from alembic import op

from app.storage.hermes_ddl import SCHEMA_VERSION
from app.storage.hermes_schema import adopt, stored_version

revision = "0001_hermes_baseline"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create or adopt the agent's tables, FTS indexes and triggers; never drops a row."""
    if op.get_bind().dialect.name != "sqlite":
        return  # PostgreSQL starts at 0012_postgresql_baseline
    conn = op.get_bind().connection.driver_connection
    found = stored_version(conn)
    # A newer agent's file keeps its own schema: only the tables of later revisions (ours) are added.
    if found is None or found <= SCHEMA_VERSION:
        adopt(conn)


def downgrade() -> None:
    """The agent's tables belong to the agent: they are never dropped."""
