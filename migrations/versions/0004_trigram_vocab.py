"""Term list of the agent's trigram index, so search can serve one- and two-character terms from it.

Revision ID: 0004_trigram_vocab
Revises: 0003_messages_paging_index
"""

from alembic import op

from app.storage.own_schema import TRIGRAM_VOCAB_SQL

revision = "0004_trigram_vocab"
down_revision = "0003_messages_paging_index"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``hs_trigram_vocab`` (an ``fts5vocab`` view of ``messages_fts_trigram``; stores nothing)."""
    if op.get_bind().dialect.name != "sqlite":
        return  # PostgreSQL starts at 0012_postgresql_baseline
    conn = op.get_bind().connection.driver_connection
    conn.execute(TRIGRAM_VOCAB_SQL)


def downgrade() -> None:
    """Drop only what this revision created."""
    conn = op.get_bind().connection.driver_connection
    conn.execute("DROP TABLE IF EXISTS hs_trigram_vocab")
