"""The durable event log ``hs_events``: append in the effect's transaction, tail by id, prune."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

_INSERT_SQL = "INSERT INTO hs_events (type, session_id, data, created_at) VALUES (?, ?, ?, ?)"

EventRow = tuple[int, str, str]
"""``(id, type, data)``: what a stream sends (data is stored as the JSON text it is sent as)."""


def insert(conn: sqlite3.Connection, event_type: str, session_id: str | None, data: str, now: float) -> None:
    """Append one event."""
    conn.execute(_INSERT_SQL, (event_type, session_id, data, now))


def insert_many(conn: sqlite3.Connection, rows: Sequence[tuple[str, str | None, str, float]]) -> None:
    """Append several events ``(type, session_id, data, created_at)`` in one statement loop."""
    conn.executemany(_INSERT_SQL, rows)


def after(conn: sqlite3.Connection, last_id: int, session_id: str | None, limit: int) -> list[EventRow]:
    """Events with ``id > last_id`` in id order, of one session or of all."""
    if session_id is None:
        rows = conn.execute(
            "SELECT id, type, data FROM hs_events WHERE id > ? ORDER BY id LIMIT ?", (last_id, limit)
        ).fetchall()
    else:
        rows = conn.execute(
            "SELECT id, type, data FROM hs_events WHERE session_id = ? AND id > ? ORDER BY id LIMIT ?",
            (session_id, last_id, limit),
        ).fetchall()
    return [(int(r[0]), str(r[1]), str(r[2])) for r in rows]


def latest_id(conn: sqlite3.Connection) -> int:
    """The newest event id (0 for an empty log)."""
    row = conn.execute("SELECT MAX(id) FROM hs_events").fetchone()
    return int(row[0] or 0)


def prune(conn: sqlite3.Connection, *, older_than: float, max_rows: int) -> int:
    """Delete events created before ``older_than`` and all but the newest ``max_rows``; the count.

    Ids grow with time, so the age cut is "everything below the first young id": a walk from the oldest
    row that stops at the first one to keep, with no index on ``created_at`` to maintain on the hot path.
    """
    first_young = conn.execute(
        "SELECT id FROM hs_events WHERE created_at >= ? ORDER BY id LIMIT 1", (older_than,)
    ).fetchone()
    newest = latest_id(conn)
    cut = newest + 1 if first_young is None else int(first_young[0])
    cut = max(cut, newest - max_rows + 1)
    return conn.execute("DELETE FROM hs_events WHERE id < ?", (cut,)).rowcount
