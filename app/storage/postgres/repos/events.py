"""``Events`` on PostgreSQL: a job's events wait in the transaction and go in with its COMMIT."""

from __future__ import annotations

from collections.abc import Sequence

from app.storage.commit_notice import Changes
from app.storage.repos.events import Events
from app.storage.rows import NewEvent
from app.storage.sqlite.driver import sqlite3


class PgEvents(Events):
    """The ``Events`` repository over one PostgreSQL connection.

    Events are appended at commit (:meth:`app.storage.postgres.store.PgStore.write_sync` sends them with
    the COMMIT, under the event-order lock), so within the job they are only :attr:`pending`.
    """

    __slots__ = ("pending",)

    def __init__(self, conn: sqlite3.Connection, changes: Changes) -> None:
        super().__init__(conn, changes)
        self.pending: list[NewEvent] = []
        """Events ``(type, session_id, data, created_at)`` this transaction will append, in order."""

    def insert(self, event_type: str, session_id: str | None, data: str, now: float) -> None:
        """Append one event at commit."""
        self.pending.append((event_type, session_id, data, now))

    def insert_many(self, rows: Sequence[NewEvent]) -> None:
        """Append events ``(type, session_id, data, created_at)`` at commit."""
        self.pending.extend(rows)
