"""The SQLite store (:class:`~app.storage.protocols.Store`): migrations at open, one writer, a pool of
readers, and the file's own operations (``files``).

At open the file's shape decides the mode (:mod:`app.storage.agent_shape`): a file of agent schema 22 or
older is adopted (brought to 22, as the agent would), a newer agent's file of a shape we know is served
read-write under its own rules, and any other is served read-only: no writer, no checkpointer, no
migrations, ``mode=ro`` readers, and every write refused with ``AgentFileReadOnly``. While running, each
write transaction checks the shape again first (:class:`~app.storage.sqlite.shape_watch.ShapeWatch`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from app.config_file import load_journal_mode
from app.errors import AgentFileReadOnly, StorageFull
from app.settings import Settings
from app.storage.agent_shape import AgentShape, inspect
from app.storage.commit_notice import CommitNotice
from app.storage.files import create_private_file, is_disk_full, make_private_dirs, no_space_left
from app.storage.leadership import ALWAYS_LEADER, Leadership
from app.storage.rows import Opened, WriterStatus
from app.storage.sqlite import migrate
from app.storage.sqlite.checkpointer import Checkpointer
from app.storage.sqlite.connection import is_full, open_connection
from app.storage.sqlite.driver import library_version, sqlite3
from app.storage.sqlite.first_contact import backup_agent_file, unadopted_agent_file
from app.storage.sqlite.fts_merge import merge_quantum
from app.storage.sqlite.read_only import probe_shape, refusal
from app.storage.sqlite.readers import ReaderPool
from app.storage.sqlite.render_pool import RenderPool
from app.storage.sqlite.shape_watch import ShapeWatch
from app.storage.sqlite.side_connection import SqliteFiles
from app.storage.sqlite.tx import SqliteTx
from app.storage.sqlite.writer import Writer

T = TypeVar("T")
log = logging.getLogger(__name__)
# Often enough that each checkpoint copies little; a PASSIVE checkpoint with nothing to copy costs next to
# nothing.
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
        self.watch: ShapeWatch | None = None
        """The file's shape, kept current (``None`` until open)."""
        self.read_only_listeners: list[Callable[[str | None], None]] = []
        """Told the reason when the file turns read-only under the server (``None``: writable again)."""
        self.opened = Opened()
        """What opening found: a new file, an agent's file met for the first time (and its backup)."""
        self.files = SqliteFiles(self.path, settings, self.require_writable, lambda: self.render_pool)
        """The file's own operations: sizes, VACUUM, backups, the repair check, the render workers."""

    @property
    def routing_scope(self) -> str:
        """The agent's: the resolved sessions directory beside the file (its gateway reads the same rows)."""
        return str((self.path.parent / "sessions").resolve())

    @property
    def shape(self) -> AgentShape | None:
        """The file's shape as last read (``None`` before open)."""
        return None if self.watch is None else self.watch.current

    @property
    def agent_schema_version(self) -> int | None:
        """The agent schema version of the file (``None`` for an unstamped one)."""
        shape = self.shape
        return None if shape is None else shape.version

    @property
    def read_only(self) -> bool:
        """Whether the file's shape makes this process refuse every write."""
        shape = self.shape
        return shape is not None and not shape.writable

    def refusal(self) -> AgentFileReadOnly | None:
        """The error a write receives, or ``None`` when writes are allowed."""
        shape = self.shape
        if shape is None or shape.writable:
            return None
        return refusal(shape)

    def describe_file(self) -> str | None:
        """What the file is, as a sentence (``None`` before open)."""
        shape = self.shape
        return None if shape is None else shape.describe()

    def require_writable(self) -> None:
        """Raise ``AgentFileReadOnly`` if the file must not be written (for code that skips ``write``)."""
        refused = self.refusal()
        if refused is not None:
            raise refused

    @property
    def wal_path(self) -> Path:
        """The write-ahead log beside state.db."""
        return self.files.wal_path

    def open(self) -> Database:
        """Create the directory, migrate the file, start the writer and the readers (only the readers
        for a file whose shape we do not know)."""
        make_private_dirs(self.path.parent)
        # An empty file is as good as none: nothing of anyone's history is in it.
        created = not os.path.lexists(self.path) or (self.path.exists() and self.path.stat().st_size == 0)
        if not os.path.lexists(self.path):
            # We make the empty file (0600) before SQLite opens it: SQLite would create it 0644, and it
            # gives the -wal and -shm it creates the main file's mode, so they come out 0600 as well. An
            # existing file (the agent's) is never chmod-ed: its sidecars follow the agent's own mode.
            with contextlib.suppress(FileExistsError):  # the agent created it meanwhile: its file
                create_private_file(self.path)
        found = probe_shape(self.path, busy_timeout_ms=self.settings.busy_timeout_ms)
        if found is not None and not found.writable:
            return self._open_read_only(found)
        self.opened = self._first_contact() if not created else Opened(created=True)
        conn = open_connection(
            self.path,
            synchronous=self.settings.db_synchronous,
            busy_timeout_ms=self.settings.busy_timeout_ms,
            create_journal_mode=load_journal_mode(self.settings) if self._still_empty() else None,
        )
        try:
            shape = migrate.upgrade(conn, self.path)
        except AgentFileReadOnly:
            # A newer agent changed the file between the probe and our write lock: nothing was written.
            found = inspect(conn)
            conn.close()
            return self._open_read_only(found)
        self.watch = ShapeWatch(shape)
        self.watch.on_change.append(self._shape_changed)
        log.info("Serving %s (%s, SQLite %s).", self.path, shape.describe(), library_version())
        conn.watch = self.watch  # type: ignore[attr-defined]
        # Commits never checkpoint: the checkpointer thread does, so no caller waits for one.
        conn.execute("PRAGMA wal_autocheckpoint=0")
        self._write_conn = conn
        self.writer = Writer(
            conn,
            batch_max=self.settings.write_batch_max,
            lock_budget_s=self.settings.write_lock_budget_s,
            wal_path=self.wal_path,
            after_batch=self._fts_upkeep,
            on_begin=self._check_shape,
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
            watch=self.watch,
        )
        return self

    def _still_empty(self) -> bool:
        """A file nobody has written yet (ours, just created): its journal mode is ours to choose."""
        return self.path.stat().st_size == 0

    def _check_shape(self, conn: sqlite3.Connection) -> None:
        """Before each write transaction: the file's rules now, or the refusal if we no longer know it."""
        assert self.watch is not None
        shape = self.watch.check(conn)
        if not shape.writable:
            raise refusal(shape)

    def _fts_upkeep(self, conn: sqlite3.Connection) -> None:
        """Merge FTS segments between commits, on the one layout whose index is ours to maintain."""
        if self.watch is not None and self.watch.current.own_fts_upkeep:
            merge_quantum(conn)

    def _shape_changed(self, before: AgentShape, after: AgentShape) -> None:
        if before.writable == after.writable:
            return
        reason = None if after.writable else refusal(after).detail
        log.warning("%s", reason or f"state.db is writable again ({after.describe()}).")
        for listener in list(self.read_only_listeners):
            listener(reason)

    def watch_read_only(self, listener: Callable[[str | None], None]) -> Callable[[], None]:
        """Call ``listener`` (on the thread that noticed) when the file turns read-only or writable."""
        self.read_only_listeners.append(listener)
        return lambda: self.read_only_listeners.remove(listener)

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

    def _open_read_only(self, shape: AgentShape) -> Database:
        self.watch = ShapeWatch(shape)
        log.warning("%s", refusal(shape))
        self.readers = ReaderPool(
            self.path,
            threads=self.settings.reader_threads,
            busy_timeout_ms=self.settings.busy_timeout_ms,
            watch=self.watch,
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
        """The SQLite library version this process runs on (the bundled one, :mod:`sqlite_driver`)."""
        return library_version()

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

    async def write(self, fn: Callable[[SqliteTx], T], *, bulk: bool = False) -> T:
        """Run ``fn(tx)`` inside the next group commit; returns after COMMIT. ``bulk`` changes nothing here:
        SQLite has one writer, and every write waits for the one before it whatever its transaction. An
        ``AppendJob`` runs as any job: an in-process statement costs microseconds, not a round trip."""
        return await self._writer().write(fn, on_handle=True)

    def write_sync(self, fn: Callable[[SqliteTx], T]) -> T:
        """Blocking ``write`` for code off the event loop (start-up tasks, tests)."""
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
