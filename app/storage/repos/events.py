"""The durable event log ``hs_events``: append in the effect's transaction, tail by id, prune."""

from __future__ import annotations

from collections.abc import Sequence

from app.storage.repos.repository import Repository
from app.storage.rows import EventRow, NewEvent


class Events(Repository):
    """The event log behind the SSE streams."""

    __slots__ = ()

    def insert(self, event_type: str, session_id: str | None, data: str, now: float) -> None:
        """Append one event (noted in ``changes``)."""
        self.insert_many([(event_type, session_id, data, now)])

    def insert_many(self, rows: Sequence[NewEvent]) -> None:
        """Append several events ``(type, session_id, data, created_at)`` in one statement loop (noted in
        ``changes``)."""
        if not rows:
            return
        sql = (
            "INSERT INTO hs_events (type, session_id, data, created_at)"
            f" VALUES ({self.d.p}, {self.d.p}, {self.d.p}, {self.d.p})"
        )
        if len(rows) == 1:
            last = self.conn.execute(sql, rows[0]).lastrowid
        else:
            self.conn.executemany(sql, rows)
            (last,) = self.conn.execute("SELECT last_insert_rowid()").fetchone()
        assert last is not None  # an INSERT always sets it
        self.changes.note_events(last - len(rows) + 1, last)

    def after(self, last_id: int, session_id: str | None, limit: int) -> list[EventRow]:
        """Events with ``id > last_id`` in id order, of one session or of all."""
        if session_id is None:
            rows = self.conn.execute(
                f"SELECT id, type, data FROM hs_events WHERE id > {self.d.p} ORDER BY id LIMIT {self.d.p}",
                (last_id, limit),
            ).fetchall()
        else:
            rows = self.conn.execute(
                f"SELECT id, type, data FROM hs_events WHERE session_id = {self.d.p} AND id > {self.d.p}"
                f" ORDER BY id LIMIT {self.d.p}",
                (session_id, last_id, limit),
            ).fetchall()
        return [(int(r[0]), str(r[1]), str(r[2])) for r in rows]

    def tail(self, last_id: int, limit: int) -> list[tuple[int, str, str, str | None]]:
        """Every session's events with ``id > last_id`` in id order, with their session: ``(id, type, data,
        session_id)`` (what the event hub reads once for all its streams)."""
        rows = self.conn.execute(
            f"SELECT id, type, data, session_id FROM hs_events WHERE id > {self.d.p} ORDER BY id"
            f" LIMIT {self.d.p}",
            (last_id, limit),
        ).fetchall()
        return [(int(r[0]), str(r[1]), str(r[2]), None if r[3] is None else str(r[3])) for r in rows]

    def latest_id(self) -> int:
        """The newest event id (0 for an empty log)."""
        row = self.conn.execute("SELECT MAX(id) FROM hs_events").fetchone()
        return int(row[0] or 0)

    def prune(self, *, older_than: float, max_rows: int, chunk: int = 10_000) -> int:
        """Delete the oldest events that are older than ``older_than`` or beyond the newest ``max_rows``, at
        most ``chunk`` ids' worth per call (each call is one short write); the count, 0 when nothing is left.

        Ids grow with time, so the age cut is "below the first young id": found by walking the chunk's id
        range from its oldest row, with no index on ``created_at`` to maintain on the append path.
        """
        oldest, newest = self.conn.execute("SELECT MIN(id), MAX(id) FROM hs_events").fetchone()
        if oldest is None:
            return 0
        window_end = int(oldest) + chunk
        young = self.conn.execute(
            f"SELECT id FROM hs_events WHERE id < {self.d.p} AND created_at >= {self.d.p} ORDER BY id"
            " LIMIT 1",
            (window_end, older_than),
        ).fetchone()
        age_cut = window_end if young is None else int(young[0])
        cap_cut = int(newest) - max_rows + 1
        cut = min(window_end, max(age_cut, cap_cut))
        return self.conn.execute(f"DELETE FROM hs_events WHERE id < {self.d.p}", (cut,)).rowcount
