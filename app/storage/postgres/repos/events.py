"""EventsRepo on PostgreSQL."""

from __future__ import annotations

from collections.abc import Sequence

from app.storage.commit_notice import note_events
from app.storage.postgres.repos.base import pg_of
from app.storage.sqlite_tx import SqliteEvents

# Transactions adding events take this lock until they commit, so event ids become visible in id order: a
# stream that has read id N never later finds a smaller id committed behind it.
EVENTS_LOCK_KEY = 0x6865726D65730002


class PgEvents(SqliteEvents):
    """EventsRepo over one PostgreSQL connection."""

    __slots__ = ()

    def insert(self, event_type: str, session_id: str | None, data: str, now: float) -> None:
        """Append one event."""
        self.insert_many([(event_type, session_id, data, now)])

    def insert_many(self, rows: Sequence[tuple[str, str | None, str, float]]) -> None:
        """Append events ``(type, session_id, data, created_at)`` in one statement; note their ids."""
        if not rows:
            return
        pg = pg_of(self.conn)
        pg.execute("SELECT pg_advisory_xact_lock(%s)", (EVENTS_LOCK_KEY,))
        cur = pg.execute(
            "INSERT INTO hs_events (type, session_id, data, created_at)"
            " SELECT * FROM unnest(%s::text[], %s::text[], %s::text[], %s::float8[]) RETURNING id",
            (
                [r[0] for r in rows],
                [r[1] for r in rows],
                [r[2] for r in rows],
                [r[3] for r in rows],
            ),
        )
        ids = [int(r[0]) for r in cur.fetchall()]
        note_events(min(ids), max(ids))
