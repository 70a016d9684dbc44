"""SQL of ``hermes sessions sync``: homes, synced sessions upserted in the agent's format, and messages stored
once per origin (home, id in the home's file).

A synced message gets a new id here (two homes' ids collide), recorded beside its origin in
``hs_sync_messages``, whose primary key is what makes a repeated or resumed sync skip what it already
delivered. The agent's columns hold only the agent's values; the home lives in our own tables.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator, Sequence
from typing import Any

from app.storage.commit_notice import Changes
from app.storage.multirow import insert_rows
from app.storage.repos.fts_backlog import index_range
from app.storage.repos.indexing import Indexing
from app.storage.repos.repository import Repository
from app.storage.repos.sessions_repo import Sessions
from app.storage.repos.transfer import (
    SessionRowWrite,
    Transfer,
    row_rules,
    session_row_params,
    session_row_sql,
)
from app.storage.rows import KnownOrigin, SessionPut, SyncedRows
from app.storage.sqlite.driver import sqlite3

_CHUNK = 500


def _columns(values: dict[str, Any]) -> tuple[str, ...]:
    return tuple(values)


SYNCED_SESSION_UPSERT = (
    "ON CONFLICT (session_id) DO UPDATE SET origin_parent_id = excluded.origin_parent_id,"
    " synced_at = excluded.synced_at"
)
"""How a synced session's home row is written: a session synced again keeps its home, with the parent its
home names now."""


def session_runs(
    puts: Sequence[SessionPut], *, update: bool
) -> Iterator[tuple[tuple[str, ...], list[dict[str, Any]]]]:
    """The rows of ``puts`` that are updates (or inserts), in order, in runs of one shape (column names)."""
    rows = [put.values for put in puts if put.update is update]
    for columns, run in itertools.groupby(rows, key=_columns):
        yield columns, list(run)


def _next_message_id(conn: sqlite3.Connection) -> int:
    # AUTOINCREMENT never reuses an id, so the next one is past both the newest row and the sequence.
    (newest,) = conn.execute("SELECT COALESCE(MAX(id), 0) FROM messages").fetchone()
    row = conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'messages'").fetchone()
    return max(int(newest), int(row[0]) if row else 0) + 1


def message_column_names(batch: SyncedRows) -> str:
    """The quoted column list of the batch's rows stored with their new id (``id, session_id, ...``)."""
    return ", ".join(f'"{c}"' for c in ("id", "session_id", *batch.columns))


def _store_messages(
    conn: sqlite3.Connection, changes: Changes, home: int, batch: SyncedRows, ids: Sequence[int]
) -> None:
    """Insert the batch's rows under ``ids`` (one new id per row, in order) and record each one's origin."""
    insert_rows(
        conn,
        f"INSERT INTO messages ({message_column_names(batch)})",
        [(new_id, *row) for new_id, row in zip(ids, batch.rows, strict=True)],
    )
    insert_rows(
        conn,
        "INSERT INTO hs_sync_messages (home_id, file_id, origin_id, message_id)",
        [(home, batch.file_id, origin, new_id) for origin, new_id in zip(batch.origin_ids, ids, strict=True)],
        "ON CONFLICT (home_id, origin_id, file_id) DO UPDATE SET message_id = excluded.message_id",
    )
    changes.note_messages(*{str(row[0]) for row in batch.rows})


class Sync(Repository):
    """``hermes sessions sync``: homes, sessions upserted from a home's file, messages stored once each."""

    __slots__ = ()

    def home_id(self, label: str) -> int:
        """The number of the home labelled ``label``, registering it on first use."""
        self.conn.execute(
            f"INSERT INTO hs_sync_homes (label, created_at) VALUES ({self.d.p}, {self.d.p})"
            " ON CONFLICT (label) DO NOTHING",
            (label, time.time()),
        )
        (number,) = self.conn.execute(
            f"SELECT id FROM hs_sync_homes WHERE label = {self.d.p}", (label,)
        ).fetchone()
        return int(number)

    def session_homes(self, session_ids: Sequence[str]) -> dict[str, int | None]:
        """The stored sessions among ``session_ids`` and the home each came from (``None``: not synced)."""
        found: dict[str, int | None] = {}
        for start in range(0, len(session_ids), _CHUNK):
            part = list(session_ids[start : start + _CHUNK])
            marks = ",".join([self.d.p] * len(part))
            found.update(
                self.conn.execute(
                    "SELECT s.id, h.home_id FROM sessions s LEFT JOIN hs_sync_sessions h ON h.session_id ="
                    f" s.id WHERE s.id IN ({marks})",
                    part,
                ).fetchall()
            )
        return found

    def titles_held(self, titles: Sequence[str], session_ids: Sequence[str]) -> dict[str, str]:
        """Title → the session holding it (the agent's unique title index), for each of ``titles`` held and
        each title one of ``session_ids`` holds."""
        held: dict[str, str] = {}
        for column, values in (("title", titles), ("id", session_ids)):
            for start in range(0, len(values), _CHUNK):
                part = list(values[start : start + _CHUNK])
                marks = ",".join([self.d.p] * len(part))
                held.update(
                    (str(title), str(sid))
                    for title, sid in self.conn.execute(
                        f"SELECT title, id FROM sessions WHERE {column} IN ({marks}) AND title IS NOT NULL",
                        part,
                    )
                )
        return held

    def put_sessions(self, home: int, puts: Sequence[SessionPut]) -> None:
        """Write the session rows of ``puts``, each inserted or (``update``) overwriting the stored row's
        columns it names, and record each one's home and the parent its home names.

        The updates go first, then the inserts, each in the given order (see :meth:`write_session_rows`).
        The caller chose the titles in that order; updates first keeps the unique title index satisfied, since
        an insert never gives up a title another row of the batch takes, while an update may."""
        puts, writes = self.ruled_puts(puts)
        self.write_session_rows(puts, update=True)
        self.write_session_rows(puts, update=False)
        sessions = Sessions(self.conn, self.changes)
        for write in writes:
            write.pin(sessions)
        now = time.time()
        self.conn.executemany(
            "INSERT INTO hs_sync_sessions (session_id, home_id, origin_parent_id, synced_at)"
            f" VALUES ({self.d.p}, {self.d.p}, {self.d.p}, {self.d.p}) {SYNCED_SESSION_UPSERT}",
            [(put.values["id"], home, put.origin_parent_id, now) for put in puts],
        )

    def ruled_puts(self, puts: Sequence[SessionPut]) -> tuple[list[SessionPut], list[SessionRowWrite]]:
        """``puts`` with each row as :func:`~app.storage.repos.transfer.row_rules` leaves it; the writes,
        whose pins the caller sets once the rows are in."""
        writes = [row_rules(self.conn, put.values, update=put.update) for put in puts]
        ruled = [
            SessionPut(write.values, put.origin_parent_id, put.update)
            for put, write in zip(puts, writes, strict=True)
        ]
        return ruled, writes

    def write_session_rows(self, puts: Sequence[SessionPut], *, update: bool) -> None:
        """The updates (or the inserts) of ``puts``, in order, with one statement per run of rows of the same
        shape (PostgreSQL sends a run's rows without waiting for each answer; SQLite inserts a run with a few
        multi-row statements, :mod:`app.storage.multirow`)."""
        for columns, run in session_runs(puts, update=update):
            params = [session_row_params(values, update=update) for values in run]
            if not update:
                names = ", ".join(f'"{c}"' for c in columns)
                insert_rows(self.conn, f"INSERT INTO sessions ({names})", params)
                continue
            sql = session_row_sql(self.d, columns, update=update)
            if sql is not None:
                self.conn.executemany(sql, params)

    def link_waiting_parents(self, home: int, session_ids: Sequence[str]) -> int:
        """Link each synced session of ``home`` that is, or names as parent, one of ``session_ids`` to the
        parent its home names, when that parent is stored and no cycle results; how many links were made."""
        transfer = Transfer(self.conn, self.changes)
        linked = 0
        for start in range(0, len(session_ids), _CHUNK):
            part = list(session_ids[start : start + _CHUNK])
            marks = ",".join([self.d.p] * len(part))
            waiting = self.conn.execute(
                "SELECT h.session_id, h.origin_parent_id"
                " FROM hs_sync_sessions h JOIN sessions s ON s.id = h.session_id"
                f" WHERE h.home_id = {self.d.p} AND h.origin_parent_id IS NOT NULL"
                " AND (s.parent_session_id IS NULL OR s.parent_session_id <> h.origin_parent_id)"
                f" AND (h.session_id IN ({marks}) OR h.origin_parent_id IN ({marks}))",
                [home, *part, *part],
            ).fetchall()
            for child, parent in waiting:
                linked += transfer.link_parent(child, parent)
        return linked

    def file_id(self, home: int, token: str) -> int:
        """The generation of ``home`` whose file the client calls ``token``, registering it on first use."""
        self.conn.execute(
            "INSERT INTO hs_sync_files (home_id, token, created_at)"
            f" VALUES ({self.d.p}, {self.d.p}, {self.d.p}) ON CONFLICT (home_id, token) DO NOTHING",
            (home, token, time.time()),
        )
        (number,) = self.conn.execute(
            f"SELECT id FROM hs_sync_files WHERE home_id = {self.d.p} AND token = {self.d.p}", (home, token)
        ).fetchone()
        return int(number)

    def known_origins(self, home: int, file: int, low: int, high: int) -> list[KnownOrigin]:
        """The messages of ``home`` stored here at origin ids between ``low`` and ``high``, of any generation
        (one deleted here since, with its session, counts as not stored: a later full sync brings it back);
        what each says only when another generation than ``file`` delivered it."""
        rows = self.conn.execute(
            f"SELECT o.origin_id, o.file_id, CASE WHEN o.file_id = {self.d.p} THEN NULL ELSE m.session_id"
            f" END, m.role, CASE WHEN o.file_id = {self.d.p} THEN NULL ELSE m.content END, m.timestamp"
            " FROM hs_sync_messages o JOIN messages m ON m.id = o.message_id"
            f" WHERE o.home_id = {self.d.p} AND o.origin_id BETWEEN {self.d.p} AND {self.d.p}",
            (file, file, home, low, high),
        )
        return [
            KnownOrigin(
                int(origin), int(generation), None if generation == file else (sid, role, content, stamp)
            )
            for origin, generation, sid, role, content, stamp in rows
        ]

    def insert_messages(self, home: int, batch: SyncedRows, *, index_inline: bool) -> list[int]:
        """Store the batch's rows under consecutive new ids, recording each one's origin id; the new ids.
        Indexed for search in this transaction with ``index_inline``, else queued for the background indexer
        (several times cheaper for a big batch, and searchable moments later)."""
        if not batch.rows:
            return []
        first = _next_message_id(self.conn)
        ids = range(first, first + len(batch.rows))
        with Transfer(self.conn, self.changes).fts_triggers_suspended() as unindexed:
            _store_messages(self.conn, self.changes, home, batch, ids)
        # A table whose trigger was not suspended (not the agent's text) indexed the rows as they went in.
        if unindexed and index_inline:
            index_range(self.conn, unindexed, ids[0], ids[-1])
        elif unindexed:
            Indexing(self.conn, self.changes).queue_runs([(ids[0], ids[-1])])
        return list(ids)
