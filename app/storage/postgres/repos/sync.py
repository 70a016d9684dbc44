"""SyncRepo on PostgreSQL: new message ids drawn from the identity sequence, and no search indexing to do
(the search columns are computed as rows are written)."""

from __future__ import annotations

from app.storage.postgres.repos.base import pg_of
from app.storage.repos import sync
from app.storage.rows import SyncedRows
from app.storage.sqlite_tx import SqliteSync


class PgSync(SqliteSync):
    """SyncRepo over one PostgreSQL connection."""

    __slots__ = ()

    def insert_messages(self, home: int, batch: SyncedRows, *, index_inline: bool) -> list[int]:
        """Store the batch's rows under ids drawn from the sequence appends use (ascending, not necessarily
        consecutive: other writers draw from it meanwhile), recording each one's origin; the new ids.
        Searchable at commit either way."""
        if not batch.rows:
            return []
        drawn = pg_of(self.conn).execute(
            "SELECT nextval(pg_get_serial_sequence('messages', 'id')) FROM generate_series(1, %s)",
            (len(batch.rows),),
        )
        ids = sorted(int(row[0]) for row in drawn)
        sync.store_messages(self.conn, home, batch, ids)
        return ids
