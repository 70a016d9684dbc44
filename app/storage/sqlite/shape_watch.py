"""The shape of the served file, kept current while the server runs.

A newer agent may migrate the file under a running server. Every write transaction, and every read, first
compares SQLite's schema cookie with the one the shape was read at (one ``PRAGMA``); when it moved, the shape
is read again before anything else runs, so no write goes out under rules the file has outgrown.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from app.storage.agent_shape import AgentShape, inspect, schema_cookie
from app.storage.sqlite.driver import sqlite3

log = logging.getLogger(__name__)


class ShapeWatch:
    """The current :class:`AgentShape`; ``on_change`` hears of each new one (on the thread that saw it)."""

    def __init__(self, shape: AgentShape) -> None:
        self.current = shape
        self._lock = threading.Lock()
        self.on_change: list[Callable[[AgentShape, AgentShape], None]] = []

    def check(self, conn: sqlite3.Connection) -> AgentShape:
        """The shape as ``conn`` sees the file now (read again only when the schema cookie moved)."""
        current = self.current
        if schema_cookie(conn) == current.cookie:
            return current
        with self._lock:
            before = self.current
            if schema_cookie(conn) == before.cookie:
                return before
            after = inspect(conn)
            self.current = after
        if (before.version, before.writable) != (after.version, after.writable):
            log.warning("state.db changed under the server: now %s", after.describe())
        for listener in self.on_change:
            listener(before, after)
        return after
