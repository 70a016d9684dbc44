"""The SQLite store (:class:`~app.storage.protocols.Store`): migrations at open, one writer, a pool of
readers, and the file's own operations (``files``).

At open the agent's schema version decides the mode. Every version up to the newest we have tested is
adopted and served read-write; a newer one (a newer agent migrated the file) is served read-only: no writer,
no checkpointer, no migrations, ``mode=ro`` readers, and every write refused with ``SchemaTooNew``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from app.errors import SchemaTooNew, StorageFull
from app.settings import Settings
from app.storage import migrate
from app.storage.checkpointer import Checkpointer
from app.storage.commit_notice import CommitNotice
from app.storage.connection import is_full, open_connection
from app.storage.files import create_private_file, is_disk_full, make_private_dirs, no_space_left
from app.storage.first_contact import backup_agent_file, unadopted_agent_file
from app.storage.fts_merge import merge_quantum
from app.storage.leadership import ALWAYS_LEADER, Leadership
from app.storage.protocols import LeadingAppend
from app.storage.read_only import TESTED_SCHEMA_VERSION, agent_schema_version, too_new
from app.storage.readers import ReaderPool
from app.storage.render_pool import RenderPool
from app.storage.rows import Opened, WriterStatus
from app.storage.side_connection import SqliteFiles
from app.storage.sqlite_tx import SqliteTx
from app.storage.writer import Writer

T = TypeVar("T")
log = logging.getLogger(__name__)
# Often enough that each checkpoint copies little; a PASSIVE checkpoint with nothing to copy costs ~0.1 ms.
CHECKPOINT_INTERVAL_S = 0.5


class Database:
    """Owns state.db for this process. ``write`` goes through the group-commit writer, ``read`` through
    per-thread read-only connections; both hand the job a :class:`SqliteTx` (the storage contract's
    ``Tx``), made once per connection."""

    backend = "sqlite"
    leadership: Leadership = ALWAYS_LEADER
    """One server owns its file (the instance lock): it always runs the background jobs."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.path = settings.db_path
        self._write_conn: sqlite3.Connection | None = None
        self.writer: Writer | None = None
        self.readers: ReaderPool | None = None
        self.checkpointer: Checkpointer | None = None
        self.render_pool: RenderPool | None = None
        self.agent_schema_version: int | None = None
        self.opened = Opened()
        """The agent schema version found at open (``None`` for a new file)."""
        self.files = SqliteFiles(self.path, settings, self.require_writable, lambda: self.render_pool)
        """The file's own operations: sizes, VACUUM, backups, the repair check, the render workers."""

    @property
    def read_only(self) -> bool:
        """Whether a newer agent's schema made this process refuse every write."""
        return self.agent_schema_version is not None and self.agent_schema_version > TESTED_SCHEMA_VERSION

    def refusal(self) -> SchemaTooNew | None:
        """The error a write receives, or ``None`` when writes are allowed."""
        if not self.read_only:
            return None
        assert self.agent_schema_version is not None
        return too_new(self.agent_schema_version)

    def require_writable(self) -> None:
        """Raise ``SchemaTooNew`` if the file must not be written (for code writing without ``write``)."""
        refused = self.refusal()
        if refused is not None:
            raise refused

    @property
    def wal_path(self) -> Path:
        """The write-ahead log beside state.db."""
        return self.files.wal_path

    def open(self) -> Database:
        """Create the directory, migrate the file, start the writer and the readers (only the readers
        for a file at a newer agent schema than we have tested)."""
        make_private_dirs(self.path.parent)
        # An empty file is as good as none: nothing of anyone's history is in it.
        created = not os.path.lexists(self.path) or (self.path.exists() and self.path.stat().st_size == 0)
        if not os.path.lexists(self.path):
            # We make the empty file (0600) before SQLite opens it: SQLite would create it 0644, and it
            # gives the -wal and -shm it creates the main file's mode, so they come out 0600 as well. An
            # existing file (the agent's) is never chmod-ed: its sidecars follow the agent's own mode.
            with contextlib.suppress(FileExistsError):  # the agent created it meanwhile: its file
                create_private_file(self.path)
        self.agent_schema_version = agent_schema_version(
            self.path, busy_timeout_ms=self.settings.busy_timeout_ms
        )
        if self.read_only:
            return self._open_read_only()
        self.opened = self._first_contact() if not created else Opened(created=True)
        conn = open_connection(
            self.path,
            synchronous=self.settings.db_synchronous,
            busy_timeout_ms=self.settings.busy_timeout_ms,
        )
        try:
            migrate.upgrade(conn, self.path)
        except SchemaTooNew:
            # A newer agent migrated the file between the probe and our write lock: nothing was written.
            conn.close()
            self.agent_schema_version = agent_schema_version(
                self.path, busy_timeout_ms=self.settings.busy_timeout_ms
            )
            return self._open_read_only()
        self.agent_schema_version = TESTED_SCHEMA_VERSION
        # Commits never checkpoint: the checkpointer thread does, so no caller waits for one.
        conn.execute("PRAGMA wal_autocheckpoint=0")
        self._write_conn = conn
        self.writer = Writer(
            conn,
            batch_max=self.settings.write_batch_max,
            lock_budget_s=self.settings.write_lock_budget_s,
            wal_path=self.wal_path,
            after_batch=merge_quantum,
        )
        self.writer.handle = SqliteTx(conn)
        self.writer.start()
        self.checkpointer = Checkpointer(self.path, interval_s=CHECKPOINT_INTERVAL_S)
        self.checkpointer.start()
        if self.settings.export_workers > 0:
            self.render_pool = RenderPool(self.path, self.settings.export_workers)
        self.readers = ReaderPool(
            self.path,
            threads=self.settings.reader_threads,
            busy_timeout_ms=self.settings.busy_timeout_ms,
        )
        return self

    def _first_contact(self) -> Opened:
        """Before our first migration of an agent's file: log what it holds and back it up once."""
        timeout = self.settings.busy_timeout_ms
        try:
            found = unadopted_agent_file(self.path, busy_timeout_ms=timeout)
            if found is None:
                return Opened()
            log.info(
                "First start on the agent's %s (%s): adding our tables beside the agent's.",
                self.path,
                found.describe(),
            )
            if not self.settings.adoption_backup:
                log.warning("HERMES_ADOPTION_BACKUP is off: no copy of %s was taken first.", self.path)
                return Opened(adopted=True, adopted_schema=found.schema_version)
            backup = backup_agent_file(self.path, busy_timeout_ms=timeout, now=time.time())
        except (OSError, sqlite3.Error) as exc:
            # Opening even read-only may need room for the -shm file, so a full disk can surface as an I/O
            # error: judge by the space left, not only by the error's name.
            if not (is_full(exc) or is_disk_full(exc) or no_space_left(self.path.parent)):
                raise
            raise StorageFull(
                f"the backup of the agent's {self.path} (taken before the first migration)",
                advice="Free some space, or set HERMES_ADOPTION_BACKUP=false to start without the copy.",
            ) from exc
        log.info("Backed up the agent's %s to %s (one time, before the first migration).", self.path, backup)
        return Opened(adopted=True, adopted_schema=found.schema_version, backup=backup)

    def _open_read_only(self) -> Database:
        log.warning("%s", self.refusal())
        self.readers = ReaderPool(
            self.path,
            threads=self.settings.reader_threads,
            busy_timeout_ms=self.settings.busy_timeout_ms,
            file_read_only=True,
        )
        return self

    def close(self) -> None:
        """Drain pending writes, checkpoint (TRUNCATE) and close every connection."""
        if self.render_pool is not None:
            self.render_pool.close()
        if self.checkpointer is not None:
            self.checkpointer.stop()
        if self.writer is not None:
            self.writer.stop()
        if self.readers is not None:
            self.readers.close()
        if self._write_conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._write_conn.execute("PRAGMA optimize")
            self._write_conn.close()
            self._write_conn = None

    @property
    def engine_version(self) -> str:
        """The SQLite library version this process links."""
        return sqlite3.sqlite_version

    async def schema_revision(self) -> str | None:
        """The migration revision stamped in the file, read on a reader (raises when the file does not
        answer)."""
        return await self.read(lambda tx: migrate.stamped_revision(tx.conn))

    def subscribe(self, subscriber: Callable[[CommitNotice], None]) -> Callable[[], None]:
        """Call ``subscriber(notice)`` on the running event loop after each COMMIT that carried something;
        returns the function that unsubscribes it (a read-only store never commits: nothing to follow)."""
        if self.writer is None:
            return _nothing
        return self.writer.subscribe(subscriber)

    def writer_status(self) -> WriterStatus | None:
        """The writer's counters, or ``None`` while there is no writer (closed, or read-only)."""
        writer = self.writer
        if writer is None:
            return None
        return WriterStatus(
            alive=writer.alive,
            queue_depth=writer.queue_depth(),
            commits=writer.commits,
            jobs_committed=writer.jobs_committed,
            batch_sizes=dict(writer.batch_sizes),
        )

    def _writer(self) -> Writer:
        self.require_writable()
        assert self.writer is not None, "database not open"
        return self.writer

    async def write(
        self, fn: Callable[[SqliteTx], T], *, bulk: bool = False, leading: LeadingAppend | None = None
    ) -> T:
        """Run ``fn(tx)`` inside the next group commit; returns after COMMIT. ``bulk`` changes nothing here:
        SQLite has one writer, and every write waits for the one before it whatever its transaction.
        Neither does ``leading``: an in-process statement costs microseconds, not a round trip."""
        return await self._writer().write(fn, on_handle=True)

    def write_sync(self, fn: Callable[[SqliteTx], T], *, leading: LeadingAppend | None = None) -> T:
        """Blocking ``write`` for code off the event loop (start-up tasks, tests); ``leading`` as in
        :meth:`write`."""
        return self._writer().write_sync(fn, on_handle=True)

    async def read(self, fn: Callable[[SqliteTx], T]) -> T:
        """Run ``fn(tx)`` in a short read transaction on a reader thread."""
        assert self.readers is not None, "database not open"
        return await self.readers.read(fn)

    def read_sync(self, fn: Callable[[SqliteTx], T]) -> T:
        """Blocking ``read`` for code off the event loop."""
        assert self.readers is not None, "database not open"
        return self.readers.read_sync(fn)


def _nothing() -> None:
    """The unsubscribe of a subscription that never receives anything."""
