"""When the user last read a session (``hs_session_reads``, members of the session).

Revision ID: 0028_session_reads
Revises: 0027_pg_json_or_null
"""

from alembic import op

revision = "0028_session_reads"
down_revision = "0027_pg_json_or_null"
branch_labels = None
depends_on = None

# Frozen as history: app.storage.own_schema describes the tables as they are.
_UP = {
    "sqlite": """CREATE TABLE IF NOT EXISTS hs_session_reads (
\tsession_id TEXT NOT NULL,
\tlast_read_at REAL,
\tPRIMARY KEY (session_id)
) WITHOUT ROWID""",
    "postgresql": """CREATE TABLE IF NOT EXISTS hs_session_reads (
    session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
    last_read_at DOUBLE PRECISION
)""",
}


def upgrade() -> None:
    """Create the table (its rows go with their session: a trigger on SQLite, the key on PostgreSQL)."""
    bind = op.get_bind()
    bind.connection.driver_connection.execute(_UP[bind.dialect.name])


def downgrade() -> None:
    """Drop it."""
    op.get_bind().connection.driver_connection.execute("DROP TABLE IF EXISTS hs_session_reads")
