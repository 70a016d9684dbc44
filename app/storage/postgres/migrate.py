"""Run the Alembic history against a PostgreSQL database, one process at a time."""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

import psycopg
from sqlalchemy import Connection, create_engine, text
from sqlalchemy.pool import NullPool

from app.storage.migrate import history_config, upgrade_to_head

# pg_advisory_xact_lock key of the schema upgrade: replicas starting together on one empty database take
# turns, and the later ones find the schema at head.
MIGRATION_LOCK_KEY = 0x6865726D65730001


def sqlalchemy_url(url: str) -> str:
    """``url`` with the psycopg 3 driver named, as SQLAlchemy wants it."""
    scheme, sep, rest = url.partition("://")
    if scheme in ("postgresql", "postgres"):
        return f"postgresql+psycopg://{rest}"
    return url if sep else f"postgresql+psycopg://{url}"


def upgrade(url: str) -> None:
    """Migrate the database at ``url`` to head in one transaction, under an advisory lock."""
    engine = create_engine(sqlalchemy_url(url), poolclass=NullPool)
    cfg = history_config()
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
            cfg.attributes["connection"] = conn
            upgrade_to_head(cfg)
            conn.commit()
    finally:
        engine.dispose()


def run_on_postgresql(bind: Connection, statements: Iterable[str]) -> None:
    """Run a revision's PostgreSQL-only ``statements`` in order on ``bind`` (through psycopg, so function
    bodies and ``%`` pass as written); on another dialect, nothing."""
    if bind.dialect.name != "postgresql":
        return
    conn = cast(psycopg.Connection, bind.connection.driver_connection)
    for statement in statements:
        conn.execute(statement)
