"""The SQLite file's own operations (the store's ``files``), on a side connection of their own.

VACUUM and checkpoints refuse to run inside a transaction, and the writer's connection is always inside its
group-commit transaction while it works, so this work gets an autocommit connection of its own. The writer
simply waits for the lock (up to its budget) meanwhile; readers, being in WAL mode, keep reading.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from app.settings import Settings
from app.storage.files import file_size
from app.storage.repos import health
from app.storage.rows import Checkpoint, Health
from app.storage.sqlite.connection import open_connection, translated
from app.storage.sqlite.driver import sqlite3
from app.storage.sqlite.render_pool import RenderPool
from app.storage.sqlite.snapshots import write_snapshot

# VACUUM and backups wait at least this long for the writer's lock: they are rare and worth waiting for.
_MIN_BUSY_TIMEOUT_MS = 30_000


# Readers hold snapshots for milliseconds (short read transactions), so a checkpoint settles quickly.
SETTLE_S = 2.0


def _checkpoint(conn: sqlite3.Connection) -> Checkpoint:
    busy, log_frames, done = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    return Checkpoint(busy=busy, log_frames=log_frames, checkpointed_frames=done)


def _settled_checkpoint(conn: sqlite3.Connection) -> Checkpoint:
    """A TRUNCATE checkpoint retried while a reader's snapshot keeps it from finishing (``busy``), for up
    to :data:`SETTLE_S`: after a VACUUM the file only shrinks once every new page is copied back."""
    deadline = time.monotonic() + SETTLE_S
    done = _checkpoint(conn)
    while done.busy and time.monotonic() < deadline:
        time.sleep(0.02)
        done = _checkpoint(conn)
    return done


class SqliteFiles:
    """The :class:`~app.storage.protocols.FileStore` of a SQLite store: its file and WAL, VACUUM,
    ``VACUUM INTO`` backups, the repair check and the export render workers."""

    def __init__(
        self,
        path: Path,
        settings: Settings,
        require_writable: Callable[[], None],
        renderer: Callable[[], RenderPool | None],
    ) -> None:
        self._path = path
        self._settings = settings
        self._require_writable = require_writable
        self._renderer = renderer

    @property
    def path(self) -> Path:
        """The database file."""
        return self._path

    @property
    def wal_path(self) -> Path:
        """The write-ahead log beside it."""
        return self._path.with_name(self._path.name + "-wal")

    @property
    def renderer(self) -> RenderPool | None:
        """The export render workers, when configured."""
        return self._renderer()

    def sizes(self) -> tuple[int, int]:
        """Bytes of state.db and of its ``-wal`` file (0 when absent)."""
        return file_size(self.path), file_size(self.wal_path)

    @contextlib.contextmanager
    def _side_connection(self) -> Iterator[sqlite3.Connection]:
        """An autocommit connection to the file, closed on exit (refused on a read-only store)."""
        self._require_writable()
        with translated():
            conn = open_connection(
                self.path,
                synchronous=self._settings.db_synchronous,
                busy_timeout_ms=max(self._settings.busy_timeout_ms, _MIN_BUSY_TIMEOUT_MS),
            )
            try:
                yield conn
            finally:
                conn.close()

    def checkpoint(self) -> Checkpoint:
        """A TRUNCATE checkpoint of the WAL."""
        with self._side_connection() as conn:
            return _checkpoint(conn)

    def vacuum(self) -> None:
        """Checkpoint, VACUUM, checkpoint: in WAL mode VACUUM writes the new pages to the WAL, and the file
        shrinks at the second checkpoint."""
        with self._side_connection() as conn:
            _checkpoint(conn)
            conn.execute("VACUUM")
            _settled_checkpoint(conn)

    def snapshot(self, target: Path) -> None:
        """A consistent, compact copy of the store at ``target`` (``VACUUM INTO``, all or nothing, 0600)."""
        with self._side_connection() as conn:
            write_snapshot(conn, target)

    def health_check(self) -> Health:
        """The repair check (read-only) on a side connection."""
        with self._side_connection() as conn:
            return health.check(conn)
