"""Opening SQLite connections with the PRAGMAs this project relies on."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from types import TracebackType

from app.errors import DatabaseBusy, DatabaseReadOnly, HermesError, StorageFull

log = logging.getLogger(__name__)

MIN_SQLITE_VERSION = (3, 35, 0)
_WAL_FALLBACK_MARKERS = ("locking protocol", "not authorized")


def open_connection(
    path: Path,
    *,
    synchronous: str = "NORMAL",
    busy_timeout_ms: int = 5000,
    query_only: bool = False,
) -> sqlite3.Connection:
    """Open ``path`` in autocommit mode (transactions are explicit) with our PRAGMAs applied."""
    if sqlite3.sqlite_version_info < MIN_SQLITE_VERSION:
        raise RuntimeError(f"SQLite {sqlite3.sqlite_version} is too old; need >= 3.35 for RETURNING")
    conn = sqlite3.connect(
        str(path), timeout=busy_timeout_ms / 1000, isolation_level=None, check_same_thread=False
    )
    conn.row_factory = sqlite3.Row
    conn.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
    conn.execute("PRAGMA foreign_keys=ON")
    if query_only:
        conn.execute("PRAGMA query_only=1")
    else:
        apply_wal(conn, str(path))
        conn.execute(f"PRAGMA synchronous={synchronous}")
        conn.execute("PRAGMA journal_size_limit=67108864")
    conn.execute("PRAGMA cache_size=-65536")
    conn.execute("PRAGMA mmap_size=268435456")
    return conn


def apply_wal(conn: sqlite3.Connection, label: str) -> str:
    """Switch to WAL, never downgrade a WAL file, fall back to DELETE where WAL cannot work (NFS/SMB)."""
    current = conn.execute("PRAGMA journal_mode").fetchone()[0].lower()
    if current == "wal":
        return current
    try:
        return str(conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]).lower()
    except sqlite3.OperationalError as exc:
        if any(marker in str(exc).lower() for marker in _WAL_FALLBACK_MARKERS):
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
