"""NOCASE index on session titles, so ``title LIKE 'base #%'`` (lineage numbering, title resolution) is an
index range instead of a scan of every session.

Revision ID: 0008_title_nocase_index
Revises: 0007_fts_backlog
"""

from alembic import op

revision = "0008_title_nocase_index"
down_revision = "0007_fts_backlog"
branch_labels = None
depends_on = None

# The DDL this revision ran, frozen as history: app.storage.own_schema describes the tables as they are.
_DDL = (
    "CREATE INDEX IF NOT EXISTS idx_hs_sessions_title_nocase ON sessions(title COLLATE NOCASE) "
    "WHERE title IS NOT NULL"
)


def upgrade() -> None:
    """Create ``idx_hs_sessions_title_nocase`` on the agent's ``sessions`` table (its columns untouched)."""
    if op.get_bind().dialect.name != "sqlite":
        return  # PostgreSQL starts at 0012_postgresql_baseline
    conn = op.get_bind().connection.driver_connection
    conn.execute(_DDL)


def downgrade() -> None:
    """Drop only what this revision created."""
    conn = op.get_bind().connection.driver_connection
    conn.execute("DROP INDEX IF EXISTS idx_hs_sessions_title_nocase")
