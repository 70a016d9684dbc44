"""What the PostgreSQL repositories share: the psycopg connection behind the sqlite3-style one."""

from __future__ import annotations

from typing import Any, cast

import psycopg

from app.storage.postgres.connection import SqliteStyle
from app.storage.sqlite.driver import sqlite3


def pg_of(conn: sqlite3.Connection) -> psycopg.Connection[Any]:
    """The psycopg connection of a repository whose ``conn`` is a :class:`SqliteStyle` wrapper."""
    return cast(SqliteStyle, conn).pg


def as_sqlite_style(style: SqliteStyle) -> sqlite3.Connection:
    """``style`` typed as what the shared repository functions take (it offers the calls they make)."""
    return cast(sqlite3.Connection, style)
