"""Run the Alembic migrations (the agent's baseline, then ours) against a state.db."""

from __future__ import annotations

from pathlib import Path

from alembic.config import Config
from sqlalchemy import create_engine
from sqlalchemy.pool import StaticPool

from app.storage.agent_shape import AgentShape, inspect
from app.storage.hermes_schema import adopt, needs_adoption
from app.storage.migrate import history_config, upgrade_to_head
from app.storage.own_schema import cleanup_triggers_sql
from app.storage.repos import list_index
from app.storage.sqlite.connection import split_statements
from app.storage.sqlite.driver import sqlite3
from app.storage.sqlite.read_only import refusal


def _config(db_path: Path) -> Config:
    cfg = history_config()
    cfg.set_main_option("sqlalchemy.url", f"sqlite:///{db_path}")
    return cfg


def stamped_revision(conn: sqlite3.Connection) -> str | None:
    """The revision stamped in the file by a plain query (cheap enough for a readiness probe); ``None`` for
    a file we never migrated (served read-only when a newer agent did)."""
    conn.execute("SELECT 1").fetchone()
    try:
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.OperationalError:
        return None
    return None if row is None else str(row[0])


def upgrade(conn: sqlite3.Connection, db_path: Path) -> AgentShape:
    """Migrate our tables to head on ``conn`` under one write lock; the file's shape afterwards.

    A file at agent schema 22 or older is first brought to 22, as the agent would (and repaired where it
    lacks what 22 has); a newer agent's file keeps its own schema untouched, and only our ``hs_`` objects
    are added beside it. Raises :class:`~app.errors.AgentFileReadOnly`, having written nothing, when the
    file (read under the lock, so no agent can migrate it meanwhile) has a shape we do not know.
    """
    engine = create_engine("sqlite://", module=sqlite3, creator=lambda: conn, poolclass=StaticPool)
    cfg = _config(db_path)
    conn.execute("BEGIN IMMEDIATE")
    try:
        found = inspect(conn)
        if not found.writable:
            raise refusal(found)
        with engine.connect() as sa_conn:
            cfg.attributes["connection"] = sa_conn
            upgrade_to_head(cfg)
        # A file stamped at head can still lack agent columns if it was swapped or written by an older
        # agent since; adoption is idempotent, so check and repair on every start.
        if found.adoptable and needs_adoption(conn):
            adopt(conn)
        # The same for the list-search triggers: a table the agent rebuilt has lost them, and whatever it
        # wrote since went unnoticed, so every session is queued again.
        if list_index.triggers_missing(conn):
            list_index.install(conn)
        for statement in split_statements(cleanup_triggers_sql()):
            conn.execute(statement)
        if conn.in_transaction:
            conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return inspect(conn)
