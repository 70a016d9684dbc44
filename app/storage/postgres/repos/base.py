"""What the PostgreSQL repositories share: the psycopg connection behind the repositories' one."""

from __future__ import annotations

from typing import Any, cast

import psycopg

from app.storage.postgres.connection import PgConnection
from app.storage.sqlite.driver import sqlite3


def pg_of(conn: sqlite3.Connection) -> psycopg.Connection[Any]:
    """The psycopg connection of a repository whose ``conn`` is a :class:`PgConnection` wrapper."""
    return cast(PgConnection, conn).pg


def as_repo_connection(conn: PgConnection) -> sqlite3.Connection:
    """``conn`` typed as what the shared repository functions take (it offers the calls they make)."""
    return cast(sqlite3.Connection, conn)
