"""PostgreSQL: ``idx_hs_messages_preview``, the user messages a listed session's preview comes from, by
session and in (timestamp, id) order. The listing reads each row's first user message: through the agent's
``(session_id, active, timestamp)`` PostgreSQL fetched the other roles to skip them and sorted ties by id
(SQLite's indexes end in the rowid, so its own already give that order). Nothing changes on SQLite.

Revision ID: 0019_pg_preview_index
Revises: 0018_pg_cjk_rows
"""

from alembic import op

from app.storage.postgres.migrate import run_on_postgresql

revision = "0019_pg_preview_index"
down_revision = "0018_pg_cjk_rows"
branch_labels = None
depends_on = None

# Frozen as history: the predicate is app.storage.postgres.search_schema.LIST_PREVIEW_ROWS as it is now.
_UP = (
    "CREATE INDEX IF NOT EXISTS idx_hs_messages_preview ON messages (session_id, timestamp, id)"
    " WHERE role = 'user' AND active = 1 AND content IS NOT NULL",
)
_DOWN = ("DROP INDEX IF EXISTS idx_hs_messages_preview",)


def upgrade() -> None:
    """Create the partial index."""
    run_on_postgresql(op.get_bind(), _UP)


def downgrade() -> None:
    """Drop it."""
    run_on_postgresql(op.get_bind(), _DOWN)
