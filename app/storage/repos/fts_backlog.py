"""SQL of deferred FTS indexing: the ``hs_fts_backlog`` runs a bulk import leaves, and indexing them.

A run ``first_id..last_id`` names message ids stored while the agent's FTS insert triggers were suspended.
Indexing a slice inserts into both FTS tables only the rows that exist and are not indexed yet (the agent's
UPDATE trigger indexes a row it touches, its DELETE trigger is a no-op on a row never indexed), then shrinks
or deletes the run, all in the caller's transaction: a crash either keeps the run or keeps the work.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from app.domain.id_runs import Run, merge_runs
from app.storage.dialect import dialect_of
from app.storage.hermes_ddl import FTS_DOCUMENT_SQL, FTS_TABLES
from app.storage.repos.repository import Repository
from app.storage.sqlite.driver import sqlite3


def _insert_runs(conn: sqlite3.Connection, runs: Iterable[Run]) -> None:
    d = dialect_of(conn)
    now = time.time()
    conn.executemany(
        f"INSERT INTO hs_fts_backlog (first_id, last_id, queued_at) VALUES ({d.p}, {d.p}, {d.p}) "
        "ON CONFLICT (first_id) DO UPDATE SET last_id = MAX(last_id, excluded.last_id)",
        [(first, last, now) for first, last in runs],
    )


PENDING_SQL = "SELECT COALESCE(SUM(last_id - first_id + 1), 0) FROM hs_fts_backlog"
"""How many message ids are still queued (an upper bound: rows deleted or indexed by the agent meanwhile
count); one row, one column, on both backends."""


def existing_fts_tables(conn: sqlite3.Connection) -> list[str]:
    """Which of the agent's two FTS tables this file has."""
    d = dialect_of(conn)
    marks = ",".join([d.p] * len(FTS_TABLES))
    found = {
        r[0] for r in conn.execute(f"SELECT name FROM sqlite_master WHERE name IN ({marks})", FTS_TABLES)
    }
    return [t for t in FTS_TABLES if t in found]


def index_range(conn: sqlite3.Connection, tables: Iterable[str], first: int, last: int) -> None:
    """Index the messages ``first..last`` that each table does not hold yet."""
    for table in tables:
        conn.execute(
            f"INSERT INTO {table}(rowid, content) SELECT id, {FTS_DOCUMENT_SQL} FROM messages "
            f"WHERE id BETWEEN ?1 AND ?2 "
            f"AND id NOT IN (SELECT rowid FROM {table} WHERE rowid BETWEEN ?1 AND ?2) ORDER BY id",
            (first, last),
        )


class FtsBacklog(Repository):
    """The search backlog: the runs a bulk write queued and the indexer's slices of them."""

    __slots__ = ()

    def imported_runs(self, session_ids: list[str]) -> list[Run]:
        """The message ids of ``session_ids`` as runs of consecutive ids (gaps-and-islands in SQL)."""
        runs: list[Run] = []
        for start in range(0, len(session_ids), 500):
            part = session_ids[start : start + 500]
            marks = ",".join([self.d.p] * len(part))
            runs.extend(
                (first, last)
                for first, last in self.conn.execute(
                    "SELECT MIN(id), MAX(id) FROM (SELECT id, id - ROW_NUMBER() OVER (ORDER BY id) AS grp "
                    f"FROM messages WHERE session_id IN ({marks})) GROUP BY grp",
                    part,
                )
            )
        return merge_runs(runs)

    def queue_runs(self, runs: Iterable[Run]) -> None:
        """Add runs to the backlog (noted in ``changes``: the commit notice tells the indexer); a run starting
        where a queued one starts widens it."""
        _insert_runs(self.conn, runs)
        self.changes.note_fts_backlog()

    def pending_messages(self) -> int:
        """Message ids still queued (:data:`PENDING_SQL`)."""
        (total,) = self.conn.execute(PENDING_SQL).fetchone()
        return int(total)

    def queued_runs(self, up_to: int) -> list[Run]:
        """The queued runs that start at or below message id ``up_to``."""
        return [
            (first, last)
            for first, last in self.conn.execute(
                f"SELECT first_id, last_id FROM hs_fts_backlog WHERE first_id <= {self.d.p}"
                " ORDER BY first_id",
                (up_to,),
            )
        ]

    def index_next_slice(self, max_messages: int) -> int | None:
        """Index up to ``max_messages`` stored messages of the oldest runs; ``None`` when the backlog is
        empty.

        Returns how many message ids the slice covered (they leave the backlog). A slice spans as many runs as
        it needs: an agent export keeps its ids, so its runs are short (one per stretch of a session's
        messages).
        """
        runs = self.conn.execute(
            f"SELECT first_id, last_id FROM hs_fts_backlog ORDER BY first_id LIMIT {self.d.p}",
            (max_messages,),
        ).fetchall()
        if not runs:
            return None
        tables = existing_fts_tables(self.conn)
        budget, covered = max_messages, 0
        for first, last in runs:
            # The slice ends at the budget-th stored message of the run (deleted ids cost nothing).
            end = self.conn.execute(
                f"SELECT id FROM messages WHERE id BETWEEN {self.d.p} AND {self.d.p} ORDER BY id LIMIT 1"
                f" OFFSET {self.d.p}",
                (first, last, budget - 1),
            ).fetchone()
            hi = int(end[0]) if end is not None else last
            index_range(self.conn, tables, first, hi)
            self.conn.execute(f"DELETE FROM hs_fts_backlog WHERE first_id = {self.d.p}", (first,))
            covered += hi - first + 1
            if hi < last:
                _insert_runs(self.conn, [(hi + 1, last)])
                break
            (stored,) = self.conn.execute(
                f"SELECT COUNT(*) FROM messages WHERE id BETWEEN {self.d.p} AND {self.d.p}", (first, hi)
            ).fetchone()
            budget -= stored
            if budget <= 0:
                break
        return covered

    def has_queued(self, up_to: int) -> bool:
        """Whether any queued run starts at or below message id ``up_to``."""
        row = self.conn.execute(
            f"SELECT 1 FROM hs_fts_backlog WHERE first_id <= {self.d.p} LIMIT 1", (up_to,)
        ).fetchone()
        return row is not None
