"""SQL of ``sessions repair``: is the store healthy, and the repairs that keep every session and message.

The check is the agent's ``_db_opens_cleanly`` (``PRAGMA integrity_check``, a read of ``sessions``, and a
rolled-back write through the FTS triggers) plus what the agent does not look at: each FTS index's own
``integrity-check``, messages the index lacks and index rows whose message is gone. Messages an import
queued for the background indexer (``hs_fts_backlog``) are not missing, only pending.
"""

from __future__ import annotations

import time

from app.storage.agent_shape import shape_of
from app.storage.dialect import dialect_of
from app.storage.hermes_ddl import FTS_DOCUMENT_SQL
from app.storage.repos.fts_backlog import existing_fts_tables
from app.storage.rows import FtsHealth, Health
from app.storage.sqlite.driver import sqlite3

# PRAGMA integrity_check stops after this many problems (the agent shows three).
_MAX_PROBLEMS = 10

_QUEUED = (
    "(SELECT b.last_id FROM hs_fts_backlog b WHERE b.first_id <= m.id ORDER BY b.first_id DESC LIMIT 1) >="
    " m.id"
)


def _missing_sql(table: str) -> str:
    return (
        f"FROM messages m WHERE NOT EXISTS (SELECT 1 FROM {table} f WHERE f.rowid = m.id) "
        f"AND NOT COALESCE({_QUEUED}, 0)"
    )


def _orphaned_sql(table: str) -> str:
    return f"FROM {table} f WHERE NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = f.rowid)"


def _fts_health(conn: sqlite3.Connection, table: str) -> FtsHealth:
    try:
        conn.execute(f"INSERT INTO {table}({table}) VALUES('integrity-check')")
        index_error = None
    except sqlite3.DatabaseError as exc:
        index_error = str(exc)
    missing = conn.execute(f"SELECT COUNT(*) {_missing_sql(table)}").fetchone()[0]
    orphaned = conn.execute(f"SELECT COUNT(*) {_orphaned_sql(table)}").fetchone()[0]
    return FtsHealth(table=table, index_error=index_error, missing=int(missing), orphaned=int(orphaned))


def _write_probe(conn: sqlite3.Connection) -> str | None:
    """The agent's probe: a session and a message driven through the FTS triggers, inside the caller's
    transaction (which rolls back)."""
    d = dialect_of(conn)
    probe = f"_hermes_fts_health_probe_{time.time_ns()}"
    try:
        conn.execute(
            f"INSERT INTO sessions (id, source, started_at) VALUES ({d.p}, {d.p}, {d.p})",
            (probe, "_health_probe", time.time()),
        )
        conn.execute(
            f"INSERT INTO messages (session_id, role, content, timestamp) VALUES ({d.p}, {d.p}, {d.p},"
            f" {d.p})",
            (probe, "user", "_fts_health_probe", time.time()),
        )
    except sqlite3.DatabaseError as exc:
        return str(exc)
    return None


def check(conn: sqlite3.Connection) -> Health:
    """Check the store on an autocommit connection of its own; changes nothing.

    The FTS checks and the probe are statements that write, so they run in one write transaction that is
    always rolled back: other writers wait for it, readers do not.
    """
    rows = conn.execute(f"PRAGMA integrity_check({_MAX_PROBLEMS})").fetchall()
    integrity = [str(r[0]) for r in rows if r and str(r[0]).lower() != "ok"]
    sessions = int(conn.execute("SELECT COUNT(*) FROM sessions").fetchone()[0])
    conn.execute("BEGIN IMMEDIATE")
    try:
        fts = [_fts_health(conn, table) for table in existing_fts_tables(conn)]
        write_error = _write_probe(conn)
    finally:
        # Some corruption errors end the transaction themselves.
        if conn.in_transaction:
            conn.execute("ROLLBACK")
    return Health(integrity=integrity, fts=fts, write_error=write_error, sessions=sessions)


def repair(conn: sqlite3.Connection, health: Health) -> list[str]:
    """Fix what ``health`` found, in the caller's write transaction; the steps taken.

    No session or message row changes: damaged indexes are rebuilt (``REINDEX``), a damaged FTS index is
    rebuilt from its stored documents (the agent's ``rebuild_fts``), missing documents are indexed and
    documents of deleted messages dropped.
    """
    steps: list[str] = []
    if health.integrity:
        conn.execute("REINDEX")
        steps.append("reindex")
    if not shape_of(conn).own_fts_upkeep:
        # A newer agent's indexes are its own: it rebuilds them itself (``hermes sessions optimize-storage``
        # or its repair), under its own cross-process lock.
        return steps
    for index in health.fts:
        table = index.table
        if index.index_error:
            conn.execute(f"INSERT INTO {table}({table}) VALUES('rebuild')")
            steps.append(f"rebuild_fts:{table}")
        if index.orphaned:
            conn.execute(f"DELETE FROM {table} WHERE rowid IN (SELECT f.rowid {_orphaned_sql(table)})")
            steps.append(f"drop_orphans:{table}")
        if index.missing:
            conn.execute(
                f"INSERT INTO {table}(rowid, content) SELECT id, {FTS_DOCUMENT_SQL} FROM messages "
                f"WHERE id IN (SELECT m.id {_missing_sql(table)}) ORDER BY id"
            )
            steps.append(f"index_missing:{table}")
    return steps
