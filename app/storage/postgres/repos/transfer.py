"""TransferRepo on PostgreSQL: kept message ids reserved in the identity sequence, and no FTS triggers to
suspend (the search columns are generated)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from app.domain.agent_rows import Prepared
from app.storage.postgres.repos.base import pg_of
from app.storage.sqlite_tx import SqliteTransfer


class PgTransfer(SqliteTransfer):
    """TransferRepo over one PostgreSQL connection."""

    __slots__ = ()

    def insert_session(self, item: Prepared, message_columns: list[str], *, replace: bool) -> bool:
        """As on SQLite; kept message ids then move the identity past them, so later appends never draw
        one (a writer that drew one meanwhile meets the unique index and is retried)."""
        kept = super().insert_session(item, message_columns, replace=replace)
        if kept and item.rows and item.message_ids:
            pg_of(self.conn).execute(
                "SELECT setval(pg_get_serial_sequence('messages', 'id'),"
                " GREATEST(%s, nextval(pg_get_serial_sequence('messages', 'id'))))",
                (max(item.message_ids),),
            )
        return kept

    @contextlib.contextmanager
    def fts_triggers_suspended(self) -> Iterator[list[str]]:
        """Nothing to suspend: the search columns are computed by the server as rows are written."""
        yield []
