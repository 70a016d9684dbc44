"""``Messages`` on PostgreSQL: an append's rows and its counters in one statement, and the leading appends of
a group of write jobs in one statement for all of them (:func:`make_leading_appends`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import psycopg

from app.storage.commit_notice import Changes
from app.storage.postgres.connection import kept_cursor
from app.storage.postgres.dialect import POSTGRES
from app.storage.postgres.repos.base import pg_of
from app.storage.protocols import AppendJob
from app.storage.repos.messages import (
    INSERT_COLUMNS,
    Messages,
    RowWriter,
    counters_sql,
    prepare_append,
)
from app.storage.repos.usage import saturating_add_expr
from app.storage.rows import MessageRow
from app.storage.sqlite.driver import sqlite3

# The rows arrive as one array per column, unnested in order: the identity draws ids in that order, and
# the ids come back sorted. The counters are bumped in the same statement (a data-modifying CTE).
_ARRAYS = (
    ("role", "text"),
    ("content", "text"),
    ("tool_call_id", "text"),
    ("tool_calls", "text"),
    ("tool_name", "text"),
    ("ts", "float8"),
    ("token_count", "bigint"),
    ("finish_reason", "text"),
    ("reasoning", "text"),
    ("reasoning_content", "text"),
    ("reasoning_details", "text"),
)
Arrays = tuple[tuple[str, str], ...]


def _insert_unnested(session: str, arrays: Arrays) -> str:
    """``INSERT`` of the rows unnested from ``arrays`` (one ``%(name)b`` array per column, aliased ``u``
    with its ``ord``), each in the session ``session`` (an SQL expression). The arrays are bound in binary:
    in text, psycopg quotes every element with a regular expression, which cost more than the rest of a
    single append's parameters."""
    return (
        f"INSERT INTO messages ({INSERT_COLUMNS}, active)"
        f" SELECT {session}, {', '.join(f'u.{name}' for name, _ in _ARRAYS)}, 1"
        f" FROM unnest({', '.join(f'%({name})b::{kind}[]' for name, kind in arrays)})"
        f" WITH ORDINALITY AS u({', '.join(name for name, _ in arrays)}, ord)"
    )


_INSERT = _insert_unnested("%(id)s", _ARRAYS)
_COUNTERS_SQL = counters_sql(POSTGRES)
_WRITE_SQL = (
    f"WITH ins AS ({_INSERT} ORDER BY u.ord RETURNING id),"
    f" counted AS ({_COUNTERS_SQL})"
    " SELECT id FROM ins ORDER BY id"
)
# The same, written only when the session exists and has not ended (nothing at all otherwise).
_OPEN_WRITE_SQL = (
    "WITH open AS (SELECT 1 FROM sessions WHERE id = %(id)s AND ended_at IS NULL),"
    f" ins AS ({_INSERT}, open ORDER BY u.ord RETURNING id),"
    f" counted AS ({_COUNTERS_SQL} AND EXISTS (SELECT 1 FROM open))"
    " SELECT id FROM ins ORDER BY id"
)


def write_rows(
    conn: sqlite3.Connection, session_id: str, rows: list[tuple[Any, ...]], calls: int
) -> list[int]:
    """The :data:`~app.storage.repos.messages.RowWriter` of PostgreSQL: every row and the counters in one
    round trip (one statement per row, and a second for the new id, cost a round trip each)."""
    return _written(conn, _WRITE_SQL, session_id, rows, calls)


class _NotOpen(Exception):
    """The session of a guarded write does not exist or has ended: nothing was written."""


def _write_open_rows(
    conn: sqlite3.Connection, session_id: str, rows: list[tuple[Any, ...]], calls: int
) -> list[int]:
    ids = _written(conn, _OPEN_WRITE_SQL, session_id, rows, calls)
    if rows and not ids:
        raise _NotOpen
    return ids


def _written(
    conn: sqlite3.Connection, sql: str, session_id: str, rows: list[tuple[Any, ...]], calls: int
) -> list[int]:
    columns = list(zip(*rows, strict=True)) if rows else [() for _ in _ARRAYS]
    params: dict[str, Any] = {name: list(values) for (name, _), values in zip(_ARRAYS, columns, strict=True)}
    params.update(id=session_id, n=len(rows), calls=calls)
    # A binary array holds values of one type: the rows' values are typed per column by insert_messages.
    return [int(r[0]) for r in kept_cursor(pg_of(conn), sql).execute(sql, params).fetchall()]


class PgMessages(Messages):
    """``Messages`` over one PostgreSQL connection; ``made`` is the job's leading append when it was made
    ahead of the job (see :func:`make_leading_appends`), until the job's own call takes it."""

    __slots__ = ("made",)

    def __init__(self, conn: sqlite3.Connection, changes: Changes, made: MadeAppend | None = None) -> None:
        super().__init__(conn, changes)
        self.made = made

    def insert_messages(
        self, session_id: str, messages: list[dict[str, Any]], *, write: RowWriter = write_rows
    ) -> list[MessageRow]:
        """Append ``messages`` to a session (see :meth:`app.storage.repos.messages.Messages.insert_messages`),
        by default in one statement."""
        return super().insert_messages(session_id, messages, write=write)

    def append_if_open(
        self, session_id: str, messages: list[dict[str, Any]], *, write: RowWriter = write_rows
    ) -> list[MessageRow] | None:
        """:meth:`insert_messages` guarded by the session's state in the same statement; ``None`` (nothing
        written) when the session does not exist or has ended. An empty batch, or one linking attachments,
        checks the state first and then writes with ``write``, as on SQLite (a missing session is reported
        before an unknown attachment)."""
        made = self.made
        if made is not None and made.lead.messages is messages and made.lead.session_id == session_id:
            self.made = None
            if made.stored:
                self.changes.note_messages(session_id)
            return made.stored
        if not messages or any(m.get("attachments") for m in messages):
            return super().append_if_open(session_id, messages, write=write)
        try:
            return super().insert_messages(session_id, messages, write=_write_open_rows)
        except _NotOpen:
            return None


@dataclass
class MadeAppend:
    """A job's leading append, made ahead of it: the messages stored (with their ids), or ``None`` when the
    session did not exist or had ended (nothing was written)."""

    lead: AppendJob[Any]
    stored: list[MessageRow] | None


class LeadingAppendNotMade(RuntimeError):
    """A job had a leading append made for it and did not make it: what was written for it must not
    commit."""


_LEAD_ARRAYS = (("sid", "text"), *_ARRAYS)
_LEADING_SQL = (
    # Locked in id order: two lanes' groups then never wait on each other's sessions crosswise.
    "WITH open AS (SELECT id FROM sessions WHERE id = ANY(%(sessions)s) AND ended_at IS NULL"
    " ORDER BY id FOR NO KEY UPDATE),"
    f" ins AS ({_insert_unnested('u.sid', _LEAD_ARRAYS)}"
    " WHERE u.sid IN (SELECT id FROM open) ORDER BY u.ord RETURNING id),"
    " counted AS (UPDATE sessions s"
    f" SET message_count = {saturating_add_expr(POSTGRES, 'message_count', 'c.n')},"
    f" tool_call_count = {saturating_add_expr(POSTGRES, 'tool_call_count', 'c.calls')}"
    " FROM (SELECT j.sid, sum(j.n) AS n, sum(j.calls) AS calls"
    " FROM unnest(%(job_sessions)s::text[], %(job_rows)s::bigint[], %(job_calls)s::bigint[])"
    " AS j(sid, n, calls)"
    " WHERE j.sid IN (SELECT id FROM open) GROUP BY j.sid) c"
    " WHERE s.id = c.sid)"
    " SELECT (SELECT array_agg(id ORDER BY id) FROM ins), (SELECT array_agg(id) FROM open)"
)


def make_leading_appends(pg: psycopg.Connection[Any], leads: Sequence[AppendJob[Any]]) -> list[MadeAppend]:
    """Make the appends of ``leads`` (the jobs of a group, in order) in ``pg``'s transaction in one
    statement: each open session's rows, in the leads' order (the identity numbers them in that order),
    and its counters (summed when several leads append to one session). The same rows, counters and
    guard as each lead's ``append_if_open`` in turn, for one round trip in all."""
    prepared = [prepare_append(lead.session_id, lead.messages) for lead in leads]
    rows = [(lead.session_id, *row) for lead, p in zip(leads, prepared, strict=True) for row in p.rows]
    columns = list(zip(*rows, strict=True)) if rows else [() for _ in _LEAD_ARRAYS]
    params: dict[str, Any] = {
        name: list(values) for (name, _), values in zip(_LEAD_ARRAYS, columns, strict=True)
    }
    params.update(
        sessions=sorted({lead.session_id for lead in leads}),
        job_sessions=[lead.session_id for lead in leads],
        job_rows=[len(p.rows) for p in prepared],
        job_calls=[p.tool_calls for p in prepared],
    )
    row = kept_cursor(pg, _LEADING_SQL).execute(_LEADING_SQL, params).fetchone()
    ids = [] if row is None or row[0] is None else [int(i) for i in row[0]]
    open_sessions = set([] if row is None or row[1] is None else row[1])
    made = []
    for lead, p in zip(leads, prepared, strict=True):
        if lead.session_id not in open_sessions:
            made.append(MadeAppend(lead, None))
            continue
        taken, ids = ids[: len(p.stored)], ids[len(p.stored) :]
        for stored, message_id in zip(p.stored, taken, strict=True):
            stored["id"] = message_id
        made.append(MadeAppend(lead, p.stored))
    return made
