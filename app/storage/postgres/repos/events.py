"""EventsRepo on PostgreSQL."""

from __future__ import annotations

from collections.abc import Sequence

from app.storage.commit_notice import note_events
from app.storage.postgres.notify import insert_events
from app.storage.postgres.repos.base import pg_of
from app.storage.rows import NewEvent
from app.storage.sqlite_tx import SqliteEvents


class PgEvents(SqliteEvents):
    """EventsRepo over one PostgreSQL connection."""

    __slots__ = ()

    def insert(self, event_type: str, session_id: str | None, data: str, now: float) -> None:
        """Append one event."""
        self.insert_many([(event_type, session_id, data, now)])

    def insert_many(self, rows: Sequence[NewEvent]) -> None:
        """Append events ``(type, session_id, data, created_at)`` in one statement; note their ids."""
        if not rows:
            return
        # In commit order, announced to every replica's listener when this transaction commits.
        ids = insert_events(pg_of(self.conn), rows)
        note_events(ids.start, ids[-1])
