"""SQLite: our tables lose their foreign keys into the agent's ``sessions`` and ``messages``; two triggers of
ours delete our rows with theirs instead. ``hs_meta`` keeps our bookkeeping on a newer agent's file.

The agent opens its file with ``foreign_keys=ON``; a key from one of our tables into its tables can make the
agent's own ``delete_session`` fail, and its recovery copies only its own tables. SQLite cannot drop a key,
so each table is rebuilt (same columns, rows and indexes). PostgreSQL's tables are ours alone and keep theirs.

Revision ID: 0022_no_keys_into_agent_tables
Revises: 0021_pg_cjk_search_path
"""

from alembic import op

revision = "0022_no_keys_into_agent_tables"
down_revision = "0021_pg_cjk_search_path"
branch_labels = None
depends_on = None

# Frozen as history: app.storage.own_schema describes the tables as they are.
_TABLES = {
    "hs_message_attachments": (
        """CREATE TABLE hs_message_attachments (
\tmessage_id INTEGER NOT NULL,
\tattachment_id TEXT NOT NULL,
\tposition INTEGER DEFAULT 0 NOT NULL,
\tPRIMARY KEY (message_id, attachment_id),
\tFOREIGN KEY(attachment_id) REFERENCES hs_attachments (id)
)""",
        ("CREATE INDEX idx_hs_message_attachments_attachment ON hs_message_attachments (attachment_id)",),
    ),
    "hs_session_titles": (
        """CREATE TABLE hs_session_titles (
\tsession_id TEXT,
\ttitle_source TEXT NOT NULL,
\tgenerator TEXT,
\tcreated_at REAL NOT NULL,
\tPRIMARY KEY (session_id),
\tCHECK (title_source IN ('user', 'auto'))
)""",
        (),
    ),
    "hs_handoffs": (
        """CREATE TABLE hs_handoffs (
\tsession_id TEXT,
\tworker TEXT,
\tthread TEXT,
\trequested_at REAL NOT NULL,
\tupdated_at REAL NOT NULL,
\tPRIMARY KEY (session_id)
)""",
        (),
    ),
    "hs_session_pins": (
        """CREATE TABLE hs_session_pins (
\tsession_id TEXT NOT NULL,
\tpinned_at REAL NOT NULL,
\tPRIMARY KEY (session_id)
) WITHOUT ROWID""",
        (),
    ),
    "hs_sync_sessions": (
        """CREATE TABLE hs_sync_sessions (
\tsession_id TEXT NOT NULL,
\thome_id INTEGER NOT NULL,
\torigin_parent_id TEXT,
\tsynced_at REAL NOT NULL,
\tPRIMARY KEY (session_id),
\tFOREIGN KEY(home_id) REFERENCES hs_sync_homes (id)
) WITHOUT ROWID""",
        ("CREATE INDEX idx_hs_sync_sessions_home ON hs_sync_sessions (home_id, session_id)",),
    ),
}

_TRIGGERS = """
CREATE TRIGGER IF NOT EXISTS hs_cleanup_session AFTER DELETE ON sessions BEGIN
    DELETE FROM hs_session_titles WHERE session_id = OLD.id;
    DELETE FROM hs_handoffs WHERE session_id = OLD.id;
    DELETE FROM hs_session_pins WHERE session_id = OLD.id;
    DELETE FROM hs_sync_sessions WHERE session_id = OLD.id;
END;
CREATE TRIGGER IF NOT EXISTS hs_cleanup_message AFTER DELETE ON messages BEGIN
    DELETE FROM hs_message_attachments WHERE message_id = OLD.id;
END;
"""


_META = """CREATE TABLE IF NOT EXISTS hs_meta (
    key TEXT,
    value TEXT,
    PRIMARY KEY (key)
)"""


def upgrade() -> None:
    """Rebuild each table that still names an agent table in a key, then add the cleanup triggers."""
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        return
    conn = bind.connection.driver_connection
    for table, (create, indexes) in _TABLES.items():
        (sql,) = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()
        if "REFERENCES sessions" not in sql and "REFERENCES messages" not in sql:
            continue
        conn.execute(f"ALTER TABLE {table} RENAME TO {table}_0021")
        conn.execute(create)
        conn.execute(f"INSERT INTO {table} SELECT * FROM {table}_0021")
        conn.execute(f"DROP TABLE {table}_0021")
        for index in indexes:
            conn.execute(index)
    for statement in _TRIGGERS.split("END;")[:-1]:
        conn.execute(statement + "END;")
    conn.execute(_META)


def downgrade() -> None:
    """The keys stay gone (they were the problem); the triggers go."""
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        return
    conn = bind.connection.driver_connection
    conn.execute("DROP TRIGGER IF EXISTS hs_cleanup_session")
    conn.execute("DROP TRIGGER IF EXISTS hs_cleanup_message")
    conn.execute("DROP TABLE IF EXISTS hs_meta")
