"""Opening SQLite connections with the PRAGMAs this project relies on."""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from types import TracebackType
from typing import Any

from app.errors import DatabaseBusy, DatabaseReadOnly, HermesError, StorageFull
from app.storage.dialect import SQLITE, Dialect
from app.storage.sqlite.driver import sqlite3

log = logging.getLogger(__name__)

MIN_SQLITE_VERSION = (3, 35, 0)
_WAL_FALLBACK_MARKERS = ("locking protocol", "not authorized")


PREPARED_KEPT = 256
"""How many prepared statements a connection keeps in its own cache (:meth:`WatchedConnection.__call__`)."""


class WatchedConnection(sqlite3.Connection):
    """A connection that knows the :class:`~app.storage.sqlite.shape_watch.ShapeWatch` of the file it serves
    (``None`` until the store sets it), so repositories can ask which rules the file calls for, and that
    keeps the statements it prepared last."""

    watch: Any = None
    dialect: Dialect = SQLITE
    """The hooks the repositories write their SQL with (:func:`app.storage.dialect.dialect_of`)."""

    def __call__(self, sql: str, /) -> Any:
        """The prepared statement of ``sql``: the driver calls this whenever its own statement cache misses.

        pysqlite3's cache ranks statements by use count and lets a new one in at the bottom, where the next
        miss evicts it. Once it is full (our start-up migration fills it), the statements a request runs
        evict each other there for good, and every execution compiles its statement again, with every
        trigger it fires (a newer agent's file has many, on ``messages``). This cache keeps the statements
        used last instead. Each step is a single dict operation, so a connection shared between threads
        costs at worst a statement prepared twice.
        """
        kept: OrderedDict[str, Any] = self.__dict__.setdefault("_prepared", OrderedDict())
        statement = kept.pop(sql, None)
        if statement is None:
            statement = super().__call__(sql)
        kept[sql] = statement
        if len(kept) > PREPARED_KEPT:
            kept.popitem(last=False)
        return statement


def connect(database: str, *, busy_timeout_ms: int, uri: bool = False) -> sqlite3.Connection:
    """A bare :class:`WatchedConnection` to ``database`` (a path, or a ``file:`` URI with ``uri``) in
    autocommit mode, shareable between threads, with rows by name and the busy timeout set."""
    conn = sqlite3.connect(
        database,
        uri=uri,
        timeout=busy_timeout_ms / 1000,
        isolation_level=None,
        check_same_thread=False,
        factory=WatchedConnection,
    )
    conn.row_factory = sqlite3.Row
    conn.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
    return conn


def open_connection(
    path: Path,
    *,
    synchronous: str = "NORMAL",
    busy_timeout_ms: int = 5000,
    query_only: bool = False,
    create_journal_mode: str | None = None,
) -> sqlite3.Connection:
    """Open ``path`` in autocommit mode (transactions are explicit) with our PRAGMAs applied.

    A file's journal mode is its owner's choice (a newer agent keeps new files in rollback mode on a SQLite
    with the WAL-reset bug), so it is never changed; ``create_journal_mode`` sets it on a file this process
    has just created.
    """
    if sqlite3.sqlite_version_info < MIN_SQLITE_VERSION:
        raise RuntimeError(f"SQLite {sqlite3.sqlite_version} is too old; need >= 3.35 for RETURNING")
    conn = connect(str(path), busy_timeout_ms=busy_timeout_ms)
    conn.execute("PRAGMA foreign_keys=ON")
    # The bundled library turns recursive triggers on by default; the agent's triggers are written for
    # (and its own connections run with) them off.
    conn.execute("PRAGMA recursive_triggers=OFF")
    if query_only:
        conn.execute("PRAGMA query_only=1")
    else:
        if create_journal_mode is not None:
            set_journal_mode(conn, create_journal_mode, str(path))
        conn.execute(f"PRAGMA synchronous={synchronous}")
        conn.execute("PRAGMA journal_size_limit=67108864")
    conn.execute("PRAGMA cache_size=-65536")
    conn.execute("PRAGMA mmap_size=268435456")
    return conn


def journal_mode(conn: sqlite3.Connection) -> str:
    """The file's journal mode (``wal``, ``delete``, ...)."""
    return str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower()


def set_journal_mode(conn: sqlite3.Connection, mode: str, label: str) -> str:
    """Put a new file in ``mode``; WAL falls back to DELETE where it cannot work (NFS/SMB)."""
    try:
        return str(conn.execute(f"PRAGMA journal_mode={mode}").fetchone()[0]).lower()
    except sqlite3.OperationalError as exc:
        if mode == "wal" and any(marker in str(exc).lower() for marker in _WAL_FALLBACK_MARKERS):
            log.warning("WAL unavailable for %s (%s); using DELETE journal mode", label, exc)
            return str(conn.execute("PRAGMA journal_mode=DELETE").fetchone()[0]).lower()
        raise


def is_busy(exc: BaseException) -> bool:
    """True when SQLite gave up waiting for another connection's lock."""
    if not isinstance(exc, sqlite3.OperationalError):
        return False
    name = getattr(exc, "sqlite_errorname", "")
    return name.startswith("SQLITE_BUSY") or name.startswith("SQLITE_LOCKED") or "locked" in str(exc)


def is_full(exc: BaseException) -> bool:
    """True for a full disk (or the ``max_page_count`` ceiling that simulates one)."""
    return getattr(exc, "sqlite_errorname", "") == "SQLITE_FULL" or "disk is full" in str(exc)


def is_read_only(exc: BaseException) -> bool:
    """True when SQLite may not write the file (its mode, its directory, or a read-only mount)."""
    return getattr(exc, "sqlite_errorname", "").startswith("SQLITE_READONLY")


def translate(exc: BaseException) -> HermesError | None:
    """Map storage failures a client can act on to our errors; ``None`` means a genuine bug.

    The one place SQLite's errors get a meaning: the writer, the reader pool and the side connection
    raise what this returns, so no layer above storage looks at ``sqlite3`` errors.
    """
    if is_full(exc):
        return StorageFull("state.db")
    if is_busy(exc):
        return DatabaseBusy()
    if is_read_only(exc):
        return DatabaseReadOnly()
    return None


class _Translated:
    """The context manager of :func:`translated` (a class: every read enters it, and a generator-based
    manager costs several times more per entry)."""

    __slots__ = ()

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if isinstance(exc, sqlite3.Error):
            mapped = translate(exc)
            if mapped is not None:
                raise mapped from exc


_TRANSLATED = _Translated()


def translated() -> AbstractContextManager[None]:
    """Re-raise a storage failure a client can act on as its error class (see :func:`translate`)."""
    return _TRANSLATED


def split_statements(script: str) -> Iterator[str]:
    """Split an SQL script into complete statements (trigger bodies keep their inner semicolons)."""
    buf = ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            stmt = buf.strip()
            if stmt:
                yield stmt
            buf = ""
    if buf.strip():
        yield buf.strip()
