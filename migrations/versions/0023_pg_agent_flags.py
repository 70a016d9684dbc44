"""PostgreSQL: ``sessions.hidden`` and ``sessions.last_activity_at``, two columns newer agents keep that mean
something in our API (a hidden session is left out of lists; the agent's own activity heartbeat), so a sync
from a newer agent's file carries them. Pins go to ``hs_session_pins`` as before. Nothing changes on SQLite
(a newer agent's file has the columns already; a schema-22 file does without).

Revision ID: 0023_pg_agent_flags
Revises: 0022_no_keys_into_agent_tables
"""

from alembic import op

from app.storage.postgres.migrate import run_on_postgresql

revision = "0023_pg_agent_flags"
down_revision = "0022_no_keys_into_agent_tables"
branch_labels = None
depends_on = None

_UP = (
    "ALTER TABLE sessions ADD COLUMN IF NOT EXISTS hidden bigint NOT NULL DEFAULT 0",
    "ALTER TABLE sessions ADD COLUMN IF NOT EXISTS last_activity_at double precision",
)
_DOWN = (
    "ALTER TABLE sessions DROP COLUMN IF EXISTS hidden",
    "ALTER TABLE sessions DROP COLUMN IF EXISTS last_activity_at",
)


def upgrade() -> None:
    """Add the two columns (existing rows: not hidden, no heartbeat)."""
    run_on_postgresql(op.get_bind(), _UP)


def downgrade() -> None:
    """Drop them."""
    run_on_postgresql(op.get_bind(), _DOWN)
