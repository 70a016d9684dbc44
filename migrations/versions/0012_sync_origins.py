"""Sync origins: the homes ``hermes sessions sync`` pushes from, each synced session's home, and each synced
message's id in its home's file (the key that makes a repeated sync skip what it already delivered).

Revision ID: 0012_sync_origins
Revises: 0011_list_search_index
"""

from alembic import op

revision = "0012_sync_origins"
down_revision = "0011_list_search_index"
branch_labels = None
depends_on = None

# The DDL this revision ran, frozen as history: app.storage.own_schema describes the tables as they are.
_DDL = (
    """
CREATE TABLE IF NOT EXISTS hs_sync_homes (
    id INTEGER PRIMARY KEY,
    label TEXT NOT NULL UNIQUE,
    created_at REAL NOT NULL
)
""",
    """
CREATE TABLE IF NOT EXISTS hs_sync_sessions (
    session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
    home_id INTEGER NOT NULL REFERENCES hs_sync_homes(id),
    origin_parent_id TEXT,
    synced_at REAL NOT NULL
) WITHOUT ROWID
""",
    "CREATE INDEX IF NOT EXISTS idx_hs_sync_sessions_home ON hs_sync_sessions (home_id, session_id)",
    """
CREATE TABLE IF NOT EXISTS hs_sync_messages (
    home_id INTEGER NOT NULL,
    origin_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (home_id, origin_id)
) WITHOUT ROWID
""",
)


def upgrade() -> None:
    """Create the three sync tables beside the agent's."""
    conn = op.get_bind().connection.driver_connection
    for statement in _DDL:
        conn.execute(statement)


def downgrade() -> None:
    """Drop only what this revision created (children first)."""
    conn = op.get_bind().connection.driver_connection
    for table in ("hs_sync_messages", "hs_sync_sessions", "hs_sync_homes"):
        conn.execute(f"DROP TABLE IF EXISTS {table}")
