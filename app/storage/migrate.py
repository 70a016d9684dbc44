"""Run the Alembic migrations (the agent's baseline, then ours) against a state.db."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine
from sqlalchemy.pool import StaticPool

from app.storage.hermes_schema import adopt, needs_adoption, stored_version
from app.storage.read_only import TESTED_SCHEMA_VERSION, too_new
from app.storage.repos import list_index

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"


def _config(db_path: Path) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.set_main_option("sqlalchemy.url", f"sqlite:///{db_path}")
    return cfg


def head_revision() -> str:
    """The newest revision this build knows."""
    head = ScriptDirectory.from_config(_config(Path("unused"))).get_current_head()
    assert head is not None
    return head


def current_revision(conn: sqlite3.Connection) -> str | None:
    """The revision stamped in the file, or ``None`` for a file we never opened."""
    engine = create_engine("sqlite://", creator=lambda: conn, poolclass=StaticPool)
    with engine.connect() as sa_conn:
        return MigrationContext.configure(sa_conn).get_current_revision()


def upgrade(conn: sqlite3.Connection, db_path: Path) -> None:
    """Migrate to head on ``conn`` under one write lock, then repair anything the agent's schema lacks.

    Raises ``SchemaTooNew``, having written nothing, when the file turns out (under the lock, so no agent
    can migrate it meanwhile) to be at an agent schema newer than we have tested.
    """
    engine = create_engine("sqlite://", creator=lambda: conn, poolclass=StaticPool)
    cfg = _config(db_path)
    conn.execute("BEGIN IMMEDIATE")
    try:
        found = stored_version(conn)
        if found is not None and found > TESTED_SCHEMA_VERSION:
            raise too_new(found)
        with engine.connect() as sa_conn:
            cfg.attributes["connection"] = sa_conn
            command.upgrade(cfg, "head")
        # A file stamped at head can still lack agent columns if it was swapped or written by an older
        # agent since; adoption is idempotent, so check and repair on every start.
        if needs_adoption(conn):
            adopt(conn)
        # The same for the list-search triggers: a table the agent rebuilt has lost them, and whatever it
        # wrote since went unnoticed, so every session is queued again.
        if list_index.triggers_missing(conn):
            list_index.install(conn)
        if conn.in_transaction:
            conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
