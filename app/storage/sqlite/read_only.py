"""Serving a state.db whose shape we do not know (see :mod:`app.storage.agent_shape`).

Such a file is opened with ``mode=ro`` connections only: SQLite itself then refuses every change to it, so
no code path of ours (a route, the fast path, a background job, our own migrations, a ``journal_mode`` or
``optimize`` PRAGMA, a checkpoint at close) can alter a byte of it. Writes are refused earlier, with
:class:`~app.errors.AgentFileReadOnly`, by the :class:`~app.storage.sqlite.store.Database` facade.

A file a newer agent created before we ever opened it lacks our ``hs_`` tables. Each read connection
therefore gets empty TEMP stand-ins for the ones that are missing (TEMP tables live in the connection's own
memory, never in the file), so reads that consult them answer "nothing recorded" instead of failing.
"""

from __future__ import annotations

from pathlib import Path

from app.errors import AgentFileReadOnly
from app.storage import hermes_ddl as ddl
from app.storage import own_schema
from app.storage.agent_shape import AgentShape, inspect
from app.storage.sqlite.connection import connect
from app.storage.sqlite.driver import sqlite3


def open_read_only(path: Path, *, busy_timeout_ms: int) -> sqlite3.Connection:
    """A connection SQLite will not let write to ``path`` (``mode=ro``), in autocommit mode."""
    return connect(f"{path.resolve().as_uri()}?mode=ro", busy_timeout_ms=busy_timeout_ms, uri=True)


def probe_shape(path: Path, *, busy_timeout_ms: int) -> AgentShape | None:
    """The shape of ``path`` read without writing a byte; ``None`` for a missing or empty file, or one that
    cannot be read this way (a full disk leaves no room for the ``-shm`` a reader of a WAL file needs): the
    migration reads the shape again under its write lock, and decides there."""
    if not path.exists() or path.stat().st_size == 0:
        return None
    try:
        conn = open_read_only(path, busy_timeout_ms=busy_timeout_ms)
    except sqlite3.Error:
        return None
    try:
        return inspect(conn)
    except sqlite3.Error:
        return None
    finally:
        conn.close()


def refusal(shape: AgentShape) -> AgentFileReadOnly:
    """The refusal every write receives while the file has the shape ``shape``."""
    return AgentFileReadOnly(", ".join(shape.problems), shape.version)


def shadow_missing_own_tables(conn: sqlite3.Connection) -> list[str]:
    """Create empty TEMP copies of our tables the file lacks; the names created."""
    present = {
        r[0] for r in conn.execute("SELECT name FROM main.sqlite_master WHERE type IN ('table', 'view')")
    }
    created: list[str] = []
    for table in own_schema.own_tables():
        if table.name in present:
            continue
        create = own_schema.create_table_sql(table)
        conn.execute(create.replace("CREATE TABLE ", "CREATE TEMP TABLE ", 1))
        created.append(table.name)
    if "hs_trigram_vocab" not in present and ddl.FTS_TRIGRAM_TABLE in present:
        # fts5vocab in TEMP may read an FTS table of another schema (here: the file's own index).
        conn.execute(
            "CREATE VIRTUAL TABLE temp.hs_trigram_vocab USING fts5vocab(main, messages_fts_trigram, row)"
        )
        created.append("hs_trigram_vocab")
    return created
