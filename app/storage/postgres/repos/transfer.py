"""``Transfer`` on PostgreSQL: kept message ids reserved in the identity sequence, and an import's search
indexing left to the background indexer (:data:`~app.storage.postgres.search_schema.DEFER_SETTING`), as
SQLite suspends its FTS triggers."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from app.domain.agent_rows import Prepared
from app.storage.postgres.repos.base import pg_of
from app.storage.postgres.search_schema import DEFER_SETTING, PENDING, READY
from app.storage.repos.transfer import Transfer


class PgTransfer(Transfer):
    """The ``Transfer`` repository over one PostgreSQL connection."""

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
        """Store the messages written inside waiting for the search indexer (the caller indexes them
        itself, :meth:`index_sessions`, or queues them); yields the one table concerned."""
        pg = pg_of(self.conn)
        pg.execute("SELECT set_config(%s, 'on', true)", (DEFER_SETTING,))
        yield ["messages"]
        pg.execute("SELECT set_config(%s, 'off', true)", (DEFER_SETTING,))

    def index_sessions(self, tables: list[str], session_ids: list[str]) -> None:
        """Index the waiting messages of ``session_ids`` now (a small import, searchable when answered)."""
        pg_of(self.conn).execute(
            f"UPDATE messages SET {READY} WHERE session_id = ANY(%s) AND {PENDING}", (session_ids,)
        )
