"""The search backlog on PostgreSQL: messages a big sync batch or import stored with ``hs_search_ready = 0``,
their ids queued as runs in ``hs_fts_backlog`` in the same transaction, as SQLite queues its FTS backlog.

Such a row has no ``tsvector`` and is in neither message search index until the background indexer (the
leader's :class:`app.services.fts_indexer.FtsIndexer`) sets the flag: a slice of the oldest runs per
transaction, walked by primary key, the runs shrinking in the same transaction, so the work resumes where
it was after a crash. The generated column and the partial indexes then take the rows in (see
:mod:`app.storage.postgres.search_schema`). The count reported is the runs' size (an upper bound, as on
SQLite: a row deleted before it was indexed counts until the indexer passes it). Every other write indexes
its rows as they are stored. The listing's trigram index on user messages waits with the search indexes
(the listing reads the waiting rows through the runs); its index on sessions is always inline.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any

import psycopg

from app.domain.id_runs import Run, merge_runs
from app.storage.commit_notice import Changes
from app.storage.postgres.repos.base import pg_of
from app.storage.postgres.search_schema import PENDING, READY
from app.storage.repos.indexing import Indexing


def queue_ids(pg: psycopg.Connection[Any], changes: Changes, ids: Sequence[int]) -> None:
    """Queue the stored waiting rows ``ids`` (noted in ``changes``: the commit notice wakes the indexer)."""
    queue_runs(pg, changes, merge_runs((i, i) for i in ids))


def queue_runs(pg: psycopg.Connection[Any], changes: Changes, runs: Iterable[Run]) -> None:
    """Add runs to the backlog (noted in ``changes``); a run starting where a queued one starts widens
    it."""
    now = time.time()
    with pg.cursor() as cur:
        cur.executemany(
            "INSERT INTO hs_fts_backlog (first_id, last_id, queued_at) VALUES (%s, %s, %s)"
            " ON CONFLICT (first_id) DO UPDATE"
            " SET last_id = GREATEST(hs_fts_backlog.last_id, excluded.last_id)",
            [(first, last, now) for first, last in runs],
        )
    changes.note_fts_backlog()


class PgIndexing(Indexing):
    """``Indexing`` over one PostgreSQL connection: the backlog's count and runs are read by the shared
    SQL of :mod:`app.storage.repos.fts_backlog`; marking rows indexed and queueing runs are PostgreSQL's."""

    __slots__ = ()

    def has_dirty(self) -> bool:
        """Whether list-search documents wait to be rebuilt: never (the trigram indexes are inline)."""
        return False

    def index_dirty(self, max_sessions: int = 0) -> int | None:
        """Nothing to rebuild."""
        return None

    def index_next_slice(self, max_messages: int) -> int | None:
        """Index up to ``max_messages`` waiting rows of the oldest runs and shrink the runs; how many ids
        the slice covered, or ``None`` when the backlog is empty."""
        pg = pg_of(self.conn)
        runs = pg.execute(
            "SELECT first_id, last_id FROM hs_fts_backlog ORDER BY first_id LIMIT %s", (max_messages,)
        ).fetchall()
        if not runs:
            return None
        budget, covered = max_messages, 0
        for first, last in runs:
            marked = pg.execute(
                f"UPDATE messages SET {READY} WHERE id IN (SELECT id FROM messages"
                f" WHERE id BETWEEN %s AND %s AND {PENDING} ORDER BY id LIMIT %s) RETURNING id",
                (first, last, budget),
            ).fetchall()
            # A run with rows left past the budget resumes after the last one marked; else it is done.
            end = max(int(r[0]) for r in marked) if len(marked) == budget else int(last)
            if end >= last:
                pg.execute("DELETE FROM hs_fts_backlog WHERE first_id = %s", (first,))
            else:
                pg.execute("UPDATE hs_fts_backlog SET first_id = %s WHERE first_id = %s", (end + 1, first))
            covered += end - int(first) + 1
            budget -= len(marked)
            if budget <= 0:
                break
        return covered

    def imported_runs(self, session_ids: list[str]) -> list[Run]:
        """The waiting messages of ``session_ids`` as runs of consecutive ids."""
        rows = (
            pg_of(self.conn)
            .execute(
                "SELECT min(id), max(id) FROM (SELECT id, id - row_number() OVER (ORDER BY id) AS run"
                f" FROM messages WHERE {PENDING} AND session_id = ANY(%s)) waiting GROUP BY run ORDER BY 1",
                (session_ids,),
            )
            .fetchall()
        )
        return [(int(first), int(last)) for first, last in rows]

    def queue_runs(self, runs: Iterable[Run]) -> None:
        """Add runs to the backlog (the commit notice wakes the indexer)."""
        queue_runs(pg_of(self.conn), self.changes, runs)
