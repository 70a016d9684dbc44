"""``Sync`` on PostgreSQL: new message ids drawn from the identity sequence, rows streamed with ``COPY``;
a big batch's rows wait for the background indexer (``hs_search_ready = 0``), as on SQLite."""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from typing import Any

import orjson

from app.storage.postgres.repos.base import pg_of
from app.storage.postgres.repos.indexing import queue_ids
from app.storage.repos.sessions_repo import Sessions
from app.storage.repos.sync import (
    SYNCED_SESSION_UPSERT,
    Sync,
    message_column_names,
    session_runs,
)
from app.storage.rows import SessionPut, SyncedRows

# One lookup of the unique title index per title: pg_trgm's operator class also answers ``=``, and a
# planner without statistics (a server filling up during a first sync) answered ``title IN (...)`` with the
# listing's trigram index on ``title``, up to seconds per batch. ``LIMIT 1`` keeps the lateral lookup a
# nested loop over the unique index.
TITLES_HELD_SQL = (
    "SELECT t.title, h.id FROM unnest(%s::text[]) AS t(title)"
    " CROSS JOIN LATERAL (SELECT id FROM sessions WHERE title = t.title LIMIT 1) h"
    " UNION ALL SELECT title, id FROM sessions WHERE id = ANY(%s) AND title IS NOT NULL"
)

# The homes of a batch's sessions in one statement; the arrays bind in binary (no per-element quoting).
_RECORD_HOMES = (
    "INSERT INTO hs_sync_sessions (session_id, home_id, origin_parent_id, synced_at)"
    " SELECT sid, %s, parent, %s FROM unnest(%b::text[], %b::text[]) AS t(sid, parent) "
    + SYNCED_SESSION_UPSERT
)

# A JSON escape of NUL: ``\u0000`` after an even run of backslashes (an odd run escapes the backslash).
_NUL_ESCAPE = re.compile(rb"(?<!\\)((?:\\\\)*)\\u0000")


def json_rows(rows: list[dict[str, Any]]) -> str:
    """``rows`` as one JSON array for ``json_populate_recordset``, NUL stored as the store's stand-in
    (PostgreSQL text cannot hold NUL, and its JSON functions refuse ``\\u0000`` in text)."""
    document = orjson.dumps(rows)
    if b"\\u0000" in document:
        document = _NUL_ESCAPE.sub(rb"\1\\uffff", document)
    return document.decode()


class PgSync(Sync):
    """The ``Sync`` repository over one PostgreSQL connection."""

    __slots__ = ()

    def titles_held(self, titles: Sequence[str], session_ids: Sequence[str]) -> dict[str, str]:
        """Title → the session holding it, for each of ``titles`` held and each title one of
        ``session_ids`` holds (one statement; see :data:`TITLES_HELD_SQL`)."""
        rows = pg_of(self.conn).execute(TITLES_HELD_SQL, (list(titles), list(session_ids)))
        return {str(title): str(sid) for title, sid in rows}

    def put_sessions(self, home: int, puts: Sequence[SessionPut]) -> None:
        """:meth:`app.storage.repos.sync.Sync.put_sessions` with each run of inserts in one statement (the
        rows as one JSON document, typed by the table's own row type) and the homes in another: a statement
        per row cost more than the rest of a sync batch's sessions."""
        ids = [put.values["id"] for put in puts]
        puts, writes = self.ruled_puts(puts)
        self.write_session_rows(puts, update=True)
        pg = pg_of(self.conn)
        for columns, run in session_runs(puts, update=False):
            names = ", ".join(f'"{c}"' for c in columns)
            pg.execute(
                f"INSERT INTO sessions ({names})"
                f" SELECT {names} FROM json_populate_recordset(NULL::sessions, %s::json)",
                (json_rows(run),),
            )
        pg.execute(_RECORD_HOMES, (home, time.time(), ids, [put.origin_parent_id for put in puts]))
        sessions = Sessions(self.conn, self.changes)
        for write in writes:
            write.pin(sessions)

    def insert_messages(self, home: int, batch: SyncedRows, *, index_inline: bool) -> list[int]:
        """Store the batch's rows under ids drawn from the sequence appends use (ascending, not necessarily
        consecutive: other writers draw from it meanwhile), recording each one's origin; the new ids.
        Searchable at commit with ``index_inline``; else left to the background indexer, which the commit
        notice wakes (computing the search column and three GIN entries per row cost several times the
        rest of the ``COPY``)."""
        if not batch.rows:
            return []
        pg = pg_of(self.conn)
        drawn = pg.execute(
            "SELECT nextval(pg_get_serial_sequence('messages', 'id')) FROM generate_series(1, %s)",
            (len(batch.rows),),
        )
        ids = sorted(int(row[0]) for row in drawn)
        # COPY: one stream instead of a statement per row, several times faster for a batch of thousands.
        columns = message_column_names(batch)
        waiting: tuple[int, ...] = ()
        if not index_inline:
            columns += ', "hs_search_ready"'
            waiting = (0,)
        with pg.cursor().copy(f"COPY messages ({columns}) FROM STDIN") as copy:
            for new_id, row in zip(ids, batch.rows, strict=True):
                copy.write_row((new_id, *row, *waiting))
        pg.execute(
            "INSERT INTO hs_sync_messages (home_id, file_id, origin_id, message_id)"
            " SELECT %s, %s, origin, id FROM unnest(%b::bigint[], %b::bigint[]) AS t(origin, id)"
            " ON CONFLICT (home_id, origin_id, file_id) DO UPDATE SET message_id = excluded.message_id",
            (home, batch.file_id, list(batch.origin_ids), ids),
        )
        self.changes.note_messages(*{str(row[0]) for row in batch.rows})
        if not index_inline:
            queue_ids(pg, self.changes, ids)
        return ids
