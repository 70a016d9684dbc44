"""``hs_session_pins``: the keep flag that prune, auto-prune and archive honour.

Pins live in our own table, never in the agent's columns; a pin row goes with its session (``ON DELETE
CASCADE``, whichever process deletes it).
"""

from __future__ import annotations

import time

from app.storage.sqlite_driver import sqlite3


def pin(conn: sqlite3.Connection, session_id: str) -> None:
    """Pin a session (a second pin keeps the first time)."""
    conn.execute(
        "INSERT INTO hs_session_pins (session_id, pinned_at) VALUES (?, ?) "
        "ON CONFLICT(session_id) DO NOTHING",
        (session_id, time.time()),
    )


def unpin(conn: sqlite3.Connection, session_id: str) -> None:
    """Remove a session's pin (nothing when it has none)."""
    conn.execute("DELETE FROM hs_session_pins WHERE session_id = ?", (session_id,))
