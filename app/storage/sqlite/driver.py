"""The SQLite library every connection of this server goes through.

SQLite 3.7.0 to 3.51.2 can corrupt a WAL file when two connections, in threads or processes, write and
checkpoint it at the same moment (the "WAL-reset bug", fixed in 3.51.3). That is this server's ordinary day:
its writer, its checkpointer and its readers share the file with the agent's own process. Whatever SQLite the
machine's Python links, we therefore run on the library bundled in the ``pysqlite3`` wheel, a drop-in
DB-API module built from a current SQLite amalgamation with FTS5. Type checkers see the standard module,
whose API it mirrors.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.storage.errors import StorageError

if TYPE_CHECKING:
    import sqlite3
else:
    from pysqlite3 import dbapi2 as sqlite3

StorageError.register(sqlite3.Error)

WAL_RESET_FIXED = (3, 51, 3)
"""The first SQLite release without the WAL-reset bug."""


def library_version() -> str:
    """The version of the SQLite library this process runs on."""
    return sqlite3.sqlite_version


def has_wal_reset_bug(version: tuple[int, ...]) -> bool:
    """Whether a SQLite of ``version`` has the WAL-reset bug."""
    return (3, 7, 0) <= version < WAL_RESET_FIXED


__all__ = ["WAL_RESET_FIXED", "has_wal_reset_bug", "library_version", "sqlite3"]
