"""Pins: the keep flag that prune, auto-prune and archive honour.

Where the agent has a ``pinned`` column of its own (schema 24 on), that column is the truth, set on the
whole compression lineage as the agent sets it. On older files pins live in our own ``hs_session_pins``,
never in the agent's columns; a pin row goes with its session (a cleanup trigger, whichever process deletes
it).
"""

from __future__ import annotations

import time

from app.storage.agent_shape import agent_pins, shape_of
from app.storage.dialect import dialect_of
from app.storage.repos.repository import Repository
from app.storage.repos.sessions import set_lineage_flag
from app.storage.sqlite.driver import sqlite3


def pin(conn: sqlite3.Connection, session_id: str) -> None:
    """Pin a session (a second pin keeps the first time)."""
    d = dialect_of(conn)
    if agent_pins(shape_of(conn)):
        set_lineage_flag(conn, session_id, "pinned", True)
        return
    conn.execute(
        f"INSERT INTO hs_session_pins (session_id, pinned_at) VALUES ({d.p}, {d.p}) "
        "ON CONFLICT(session_id) DO NOTHING",
        (session_id, time.time()),
    )


def unpin(conn: sqlite3.Connection, session_id: str) -> None:
    """Remove a session's pin (nothing when it has none)."""
    d = dialect_of(conn)
    if agent_pins(shape_of(conn)):
        set_lineage_flag(conn, session_id, "pinned", False)
        return
    conn.execute(f"DELETE FROM hs_session_pins WHERE session_id = {d.p}", (session_id,))


class Pins(Repository):
    """A session's pin; :func:`pin` and :func:`unpin` serve code that holds only a connection."""

    __slots__ = ()

    def pin(self, session_id: str) -> None:
        """Pin a session (:func:`pin`)."""
        pin(self.conn, session_id)

    def unpin(self, session_id: str) -> None:
        """Remove a session's pin (:func:`unpin`)."""
        unpin(self.conn, session_id)
