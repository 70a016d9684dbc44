"""Gateway platforms, handoff details and the durable event log (hs_platforms, hs_handoffs, hs_events).

Revision ID: 0006_handoff_events
Revises: 0005_session_titles
"""

from alembic import op

from app.storage.sqlite.connection import split_statements

revision = "0006_handoff_events"
down_revision = "0005_session_titles"
branch_labels = None
depends_on = None

# The DDL this revision ran, frozen as history: app.storage.own_schema describes the tables as they are.
_DDL = """
CREATE TABLE IF NOT EXISTS hs_platforms (
    platform TEXT PRIMARY KEY,
    enabled INTEGER NOT NULL DEFAULT 0,
    home_chat_id TEXT,
    home_name TEXT,
    threads INTEGER NOT NULL DEFAULT 0,
    updated_at REAL NOT NULL
);

CREATE TABLE IF NOT EXISTS hs_handoffs (
    session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
    worker TEXT,
    thread TEXT,
    requested_at REAL NOT NULL,
    updated_at REAL NOT NULL
);

CREATE TABLE IF NOT EXISTS hs_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    type TEXT NOT NULL,
    session_id TEXT,
    data TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_hs_events_session ON hs_events(session_id, id);
"""


def upgrade() -> None:
    """Create the three tables beside the agent's."""
    if op.get_bind().dialect.name != "sqlite":
        return  # PostgreSQL starts at 0012_postgresql_baseline
    conn = op.get_bind().connection.driver_connection
    for stmt in split_statements(_DDL):
        conn.execute(stmt)


def downgrade() -> None:
    """Drop only what this revision created."""
    conn = op.get_bind().connection.driver_connection
    for table in ("hs_events", "hs_handoffs", "hs_platforms"):
        conn.execute(f"DROP TABLE IF EXISTS {table}")
