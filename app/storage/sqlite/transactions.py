"""Transaction control for code running inside a writer job: nested savepoints.

The writer owns BEGIN and COMMIT; everything finer-grained (one imported session, one queued job) is a
SAVEPOINT taken here, so no other module writes transaction statements by hand.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from app.storage.protocols import WriteRejected
from app.storage.sqlite.driver import sqlite3


@contextmanager
def savepoint(conn: sqlite3.Connection, name: str = "sp") -> Iterator[None]:
    """Run the block inside ``SAVEPOINT name``: released on success, rolled back to on any exception,
    which then propagates unchanged.

    When SQLite aborted the whole transaction (a full disk, an I/O error) there is no savepoint left to
    roll back to; the exception propagates and the writer fails the group.
    """
    conn.execute(f"SAVEPOINT {name}")
    try:
        yield
    except BaseException:
        if conn.in_transaction:
            conn.execute(f"ROLLBACK TO {name}")
            conn.execute(f"RELEASE {name}")
        raise
    conn.execute(f"RELEASE {name}")


def is_title_conflict(exc: sqlite3.Error) -> bool:
    """Whether a write failed on the agent's unique title index (another session holds the title)."""
    return isinstance(exc, sqlite3.IntegrityError) and "title" in str(exc)


@contextmanager
def rejectable(conn: sqlite3.Connection, name: str = "sp") -> Iterator[None]:
    """A :func:`savepoint` whose SQLite failures, while the transaction survives, become
    :class:`WriteRejected`: the caller skips that part and the rest of the transaction goes on."""
    try:
        with savepoint(conn, name):
            yield
    except sqlite3.Error as exc:
        if not conn.in_transaction:
            raise
        reason = "title_in_use" if is_title_conflict(exc) else "write_failed"
        raise WriteRejected(reason, str(exc)) from exc
