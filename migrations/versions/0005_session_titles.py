"""Who set each session's title (person or automatic titler), so auto-titles run once and never override.

Revision ID: 0005_session_titles
Revises: 0004_trigram_vocab
"""

from alembic import op

from app.storage.own_schema import SESSION_TITLES_SQL

revision = "0005_session_titles"
down_revision = "0004_trigram_vocab"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``hs_session_titles`` beside the agent's tables."""
    conn = op.get_bind().connection.driver_connection
    conn.execute(SESSION_TITLES_SQL)


def downgrade() -> None:
    """Drop only what this revision created."""
    conn = op.get_bind().connection.driver_connection
    conn.execute("DROP TABLE IF EXISTS hs_session_titles")
