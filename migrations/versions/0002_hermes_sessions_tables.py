"""Our own tables: idempotency keys, attachments, and the keyset index used by session listing.

Revision ID: 0002_hermes_sessions_tables
Revises: 0001_hermes_baseline
"""

from alembic import op

from app.storage.sqlite.connection import split_statements

revision = "0002_hermes_sessions_tables"
down_revision = "0001_hermes_baseline"
branch_labels = None
depends_on = None

# The DDL this revision ran, frozen as history: app.storage.own_schema describes the tables as they are.
_DDL = """
CREATE TABLE IF NOT EXISTS hs_idempotency_keys (
    key TEXT NOT NULL,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    body_sha256 TEXT NOT NULL,
    status INTEGER NOT NULL,
    response BLOB NOT NULL,
    headers TEXT NOT NULL DEFAULT '{}',
    created_at REAL NOT NULL,
    PRIMARY KEY (key, method, path)
);
CREATE INDEX IF NOT EXISTS idx_hs_idempotency_created ON hs_idempotency_keys(created_at);

CREATE TABLE IF NOT EXISTS hs_attachments (
    id TEXT PRIMARY KEY,
    sha256 TEXT NOT NULL UNIQUE,
    size INTEGER NOT NULL,
    media_type TEXT NOT NULL,
    filename TEXT,
    path TEXT NOT NULL,
    extracted_text TEXT,
    created_at REAL NOT NULL
);

CREATE TABLE IF NOT EXISTS hs_message_attachments (
    message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    attachment_id TEXT NOT NULL REFERENCES hs_attachments(id),
    position INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (message_id, attachment_id)
);
CREATE INDEX IF NOT EXISTS idx_hs_message_attachments_attachment ON hs_message_attachments(attachment_id);

CREATE INDEX IF NOT EXISTS idx_hs_sessions_started_id ON sessions(started_at DESC, id DESC);
"""


def upgrade() -> None:
    """Create the ``hs_`` tables beside the agent's."""
    if op.get_bind().dialect.name != "sqlite":
        return  # PostgreSQL starts at 0012_postgresql_baseline
    conn = op.get_bind().connection.driver_connection
    for stmt in split_statements(_DDL):
        conn.execute(stmt)


def downgrade() -> None:
    """Drop only what this revision created."""
    conn = op.get_bind().connection.driver_connection
    conn.execute("DROP INDEX IF EXISTS idx_hs_sessions_started_id")
    for table in ("hs_message_attachments", "hs_attachments", "hs_idempotency_keys"):
        conn.execute(f"DROP TABLE IF EXISTS {table}")
