"""The side connection: an autocommit connection of its own for VACUUM, checkpoints, backups and repair.

VACUUM and checkpoints refuse to run inside a transaction, and the writer's connection is always inside its
group-commit transaction while it works, so this work gets a connection of its own. The writer simply waits
for the lock (up to its budget) meanwhile; readers, being in WAL mode, keep reading.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from app.storage.connection import open_connection, translated
from app.storage.database import Database
from app.storage.repos import health
from app.storage.snapshots import write_snapshot

# VACUUM and backups wait at least this long for the writer's lock: they are rare and worth waiting for.
_MIN_BUSY_TIMEOUT_MS = 30_000


@dataclass(frozen=True)
class Checkpoint:
    """What ``PRAGMA wal_checkpoint(TRUNCATE)`` reported."""

    busy: int
    log_frames: int
    checkpointed_frames: int


@contextlib.contextmanager
def side_connection(db: Database) -> Iterator[sqlite3.Connection]:
    """An autocommit connection to ``db``'s file, closed on exit (refused on a read-only store)."""
    db.require_writable()
    with translated():
        conn = open_connection(
            db.path,
            synchronous=db.settings.db_synchronous,
            busy_timeout_ms=max(db.settings.busy_timeout_ms, _MIN_BUSY_TIMEOUT_MS),
        )
        try:
            yield conn
        finally:
            conn.close()


def _checkpoint(conn: sqlite3.Connection) -> Checkpoint:
    busy, log_frames, done = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    return Checkpoint(busy=busy, log_frames=log_frames, checkpointed_frames=done)


def checkpoint(db: Database) -> Checkpoint:
    """A TRUNCATE checkpoint of the WAL."""
    with side_connection(db) as conn:
        return _checkpoint(conn)


def vacuum(db: Database) -> None:
    """Checkpoint, VACUUM, checkpoint: in WAL mode VACUUM writes the new pages to the WAL, and the file
    shrinks at the second checkpoint."""
    with side_connection(db) as conn:
        _checkpoint(conn)
        conn.execute("VACUUM")
        _checkpoint(conn)


def snapshot(db: Database, target: Path) -> None:
    """A consistent, compact copy of the store at ``target`` (``VACUUM INTO``, all or nothing, 0600)."""
    with side_connection(db) as conn:
        write_snapshot(conn, target)


def health_check(db: Database) -> health.Health:
    """The repair check (read-only) on a side connection."""
    with side_connection(db) as conn:
        return health.check(conn)
