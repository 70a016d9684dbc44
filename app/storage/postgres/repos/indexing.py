"""The search backlog on PostgreSQL: messages a big sync batch or import stored with ``hs_search_ready = 0``.

Such a row has no ``tsvector`` and is in neither message search index until the background indexer (the
leader's :class:`app.services.fts_indexer.FtsIndexer`) sets the flag, a slice of the oldest waiting rows per
transaction; the generated column and the partial indexes then take the row in (see
:mod:`app.storage.postgres.search_schema`). A big import's rows wait the same way, and its runs of ids are
read back from the flag. Every other write indexes its rows as they are stored. The listing's trigram
indexes are always inline: there are no dirty list-search documents.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import psycopg

from app.domain.id_runs import Run
from app.storage.commit_notice import note_fts_backlog
from app.storage.postgres.search_schema import PENDING, READY


def waiting_messages(pg: psycopg.Connection[Any]) -> int:
    """How many messages wait for the background indexer."""
    row = pg.execute(f"SELECT count(*) FROM messages WHERE {PENDING}").fetchone()
    return 0 if row is None else int(row[0])


class PgIndexing:
    """``IndexingRepo`` over one PostgreSQL connection."""

    __slots__ = ("pg",)

    def __init__(self, pg: psycopg.Connection[Any]) -> None:
        self.pg = pg

    def pending_messages(self) -> int:
        """Messages waiting for the indexer."""
        return waiting_messages(self.pg)

    def has_queued(self, up_to: int) -> bool:
        """Whether a message with an id at or below ``up_to`` waits for the indexer."""
        row = self.pg.execute(
            f"SELECT EXISTS (SELECT 1 FROM messages WHERE {PENDING} AND id <= %s)", (up_to,)
        ).fetchone()
        return bool(row and row[0])

    def has_dirty(self) -> bool:
        """Whether list-search documents wait to be rebuilt: never (the trigram indexes are inline)."""
        return False

    def index_dirty(self, max_sessions: int = 0) -> int | None:
        """Nothing to rebuild."""
        return None

    def index_next_slice(self, max_messages: int) -> int | None:
        """Index up to ``max_messages`` of the oldest waiting messages (rows another transaction holds are
        left for the next slice); how many, or ``None`` when none waited."""
        rows = self.pg.execute(
            f"UPDATE messages SET {READY} WHERE id IN (SELECT id FROM messages WHERE {PENDING}"
            " ORDER BY id LIMIT %s FOR UPDATE SKIP LOCKED) RETURNING id",
            (max_messages,),
        ).fetchall()
        return len(rows) or None

    def imported_runs(self, session_ids: list[str]) -> list[Run]:
        """The waiting messages of ``session_ids`` as runs of consecutive ids."""
        return self._runs("session_id = ANY(%s)", session_ids)

    def queue_runs(self, runs: Iterable[Run]) -> None:
        """Wake the indexer: the rows are queued already, by their flag."""
        note_fts_backlog()

    def queued_runs(self, up_to: int) -> list[Run]:
        """The waiting messages with ids at or below ``up_to``, as runs of consecutive ids."""
        return self._runs("id <= %s", up_to)

    def _runs(self, condition: str, value: Any) -> list[Run]:
        rows = self.pg.execute(
            "SELECT min(id), max(id) FROM (SELECT id, id - row_number() OVER (ORDER BY id) AS run"
            f" FROM messages WHERE {PENDING} AND {condition}) waiting GROUP BY run ORDER BY 1",
            (value,),
        ).fetchall()
        return [(int(first), int(last)) for first, last in rows]
