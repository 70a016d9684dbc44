"""Who set each session's title (person or automatic titler), so auto-titles run once and never override.

Revision ID: 0005_session_titles
Revises: 0004_trigram_vocab
"""

from alembic import op

revision = "0005_session_titles"
down_revision = "0004_trigram_vocab"
branch_labels = None
depends_on = None

# The DDL this revision ran, frozen as history: app.storage.own_schema describes the tables as they are.
_DDL = """
CREATE TABLE IF NOT EXISTS hs_session_titles (
    session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
    title_source TEXT NOT NULL CHECK (title_source IN ('user', 'auto')),
    generator TEXT,
    created_at REAL NOT NULL
)
"""


def upgrade() -> None:
    """Create ``hs_session_titles`` beside the agent's tables."""
    if op.get_bind().dialect.name != "sqlite":
        return  # PostgreSQL starts at 0012_postgresql_baseline
    conn = op.get_bind().connection.driver_connection
    conn.execute(_DDL)


def downgrade() -> None:
    """Drop only what this revision created."""
    conn = op.get_bind().connection.driver_connection
    conn.execute("DROP TABLE IF EXISTS hs_session_titles")
