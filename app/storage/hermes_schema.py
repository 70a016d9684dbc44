"""Create or adopt the agent's schema in place: the same steps the agent takes when it opens a file.

``adopt`` is idempotent and runs on every start (and from the Alembic baseline), so a file written by any
agent version, older or current, is brought to schema 22 without losing a row, and a file that already is
at 22 is left untouched.
"""

from __future__ import annotations

import logging
import sqlite3

from app.storage import hermes_ddl as ddl
from app.storage.connection import split_statements

log = logging.getLogger(__name__)


def declared_columns() -> dict[str, dict[str, str]]:
    """Column name -> ``ALTER TABLE`` type clause for every table the agent declares."""
    ref = sqlite3.connect(":memory:")
    try:
        ref.executescript(ddl.SCHEMA_SQL)
        tables: dict[str, dict[str, str]] = {}
        for (table,) in ref.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'"
        ).fetchall():
            cols: dict[str, str] = {}
            for _cid, name, ctype, notnull, default, pk in ref.execute(f'PRAGMA table_info("{table}")'):
                parts = [ctype] if ctype else []
                if notnull and not pk:
                    parts.append("NOT NULL")
                if default is not None:
                    parts.append(f"DEFAULT {default}")
                cols[name] = " ".join(parts)
            tables[table] = cols
        return tables
    finally:
        ref.close()


def _execute_script(conn: sqlite3.Connection, script: str) -> None:
    for stmt in split_statements(script):
        conn.execute(stmt)


def _reconcile_columns(conn: sqlite3.Connection) -> list[str]:
    added: list[str] = []
    for table, cols in declared_columns().items():
        live = {row[1] for row in conn.execute(f'PRAGMA table_info("{table}")')}
        for name, clause in cols.items():
            if name not in live:
                conn.execute(f'ALTER TABLE "{table}" ADD COLUMN "{name}" {clause}')
                added.append(f"{table}.{name}")
    return added


def _table_sql(conn: sqlite3.Connection, name: str) -> str | None:
    row = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (name,)).fetchone()
    return None if row is None else str(row[0])


def _ensure_fts(conn: sqlite3.Connection) -> None:
    """Inline FTS5 + trigram tables and their triggers; rebuild legacy external-content indexes."""
    legacy = _table_sql(conn, "messages_fts")
    if legacy is not None and "content=" in legacy.replace(" ", ""):
        # Agent schema <= 10 used an external-content index; 11+ stores the text inline.
        for trigger in ddl.FTS_TRIGGERS:
            conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
        conn.execute("DROP TABLE IF EXISTS messages_fts")
        conn.execute("DROP TABLE IF EXISTS messages_fts_trigram")
    for table, script in (("messages_fts", ddl.FTS_SQL), ("messages_fts_trigram", ddl.FTS_TRIGRAM_SQL)):
        created = _table_sql(conn, table) is None
        _execute_script(conn, script)
        if created:
            conn.execute(
                f"INSERT INTO {table}(rowid, content) SELECT id, {ddl.FTS_DOCUMENT_SQL} FROM messages"
            )


def _ensure_title_index(conn: sqlite3.Connection) -> None:
    try:
        conn.execute(ddl.TITLE_INDEX_SQL)
    except sqlite3.IntegrityError:
        # Same repair as the agent: the newest holder of a duplicated title keeps it.
        cleared = conn.execute(
            """UPDATE sessions AS older SET title = NULL
               WHERE title IS NOT NULL AND EXISTS (
                   SELECT 1 FROM sessions AS newer
                   WHERE newer.title = older.title AND newer.rowid > older.rowid)"""
        ).rowcount
        log.warning("Cleared %d duplicate session title(s) to restore the unique index", cleared)
        conn.execute(ddl.TITLE_INDEX_SQL)


def needs_adoption(conn: sqlite3.Connection) -> bool:
    """Cheap check: is anything missing that ``adopt`` would add?"""
    try:
        row = conn.execute("SELECT version FROM schema_version LIMIT 1").fetchone()
    except sqlite3.OperationalError:
        return True
    if row is None or row[0] < ddl.SCHEMA_VERSION:
        return True
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    required = {"messages_fts", "messages_fts_trigram", "idx_sessions_title_unique", *ddl.FTS_TRIGGERS}
    if not required <= names:
        return True
    for table, cols in declared_columns().items():
        live = {r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')}
        if not set(cols) <= live:
            return True
    return False


def adopt(conn: sqlite3.Connection) -> None:
    """Bring the file to the agent's schema 22 inside the caller's transaction. Never drops data."""
    _execute_script(conn, ddl.SCHEMA_SQL)
    added = _reconcile_columns(conn)
    if added:
        log.info("Added missing columns: %s", ", ".join(added))
    conn.execute(ddl.PLATFORM_MSG_INDEX_SQL)
    _execute_script(conn, ddl.DEFERRED_INDEX_SQL)
    conn.execute("UPDATE messages SET active = 1 WHERE active IS NULL")
    _ensure_fts(conn)
    _ensure_title_index(conn)
    row = conn.execute("SELECT version FROM schema_version LIMIT 1").fetchone()
    if row is None:
        conn.execute("INSERT INTO schema_version (version) VALUES (?)", (ddl.SCHEMA_VERSION,))
    elif row[0] < ddl.SCHEMA_VERSION:
        conn.execute("UPDATE schema_version SET version = ?", (ddl.SCHEMA_VERSION,))
