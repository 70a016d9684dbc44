"""PostgreSQL: the trigram index on session ids moves to ``lower(id)``, so lookups by id always take the
primary key, and the second trigram index on titles (the same as ``idx_hs_sessions_title_trgm``) goes.
Nothing changes on SQLite.

Revision ID: 0014_pg_session_id_trigrams
Revises: 0013_sync_origins
"""

from alembic import op

revision = "0014_pg_session_id_trigrams"
down_revision = "0013_sync_origins"
branch_labels = None
depends_on = None

# Frozen as history: app.storage.postgres.search_schema describes the indexes as they are.
_UP = (
    "DROP INDEX IF EXISTS idx_sessions_id_trgm",
    "DROP INDEX IF EXISTS idx_sessions_title_trgm",
    "CREATE INDEX IF NOT EXISTS idx_sessions_id_lower_trgm ON sessions USING gin (lower(id) gin_trgm_ops)",
)
_DOWN = (
    "DROP INDEX IF EXISTS idx_sessions_id_lower_trgm",
    "CREATE INDEX IF NOT EXISTS idx_sessions_id_trgm ON sessions USING gin (id gin_trgm_ops)",
    "CREATE INDEX IF NOT EXISTS idx_sessions_title_trgm ON sessions USING gin (title gin_trgm_ops)",
)


def _run(statements: tuple[str, ...]) -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    conn = bind.connection.driver_connection
    for statement in statements:
        conn.execute(statement)


def upgrade() -> None:
    """Swap the session id trigram index for one on ``lower(id)``; drop the duplicate title index."""
    _run(_UP)


def downgrade() -> None:
    """Put the two indexes of revision 0012 back."""
    _run(_DOWN)
