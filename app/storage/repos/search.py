"""SQL for search: FTS5 hits in bounded chunks, substring scans, anchored windows, bookends, browse.

Only reads the agent's tables (``messages``, ``sessions``, ``messages_fts``, ``messages_fts_trigram``).
Every hit query is bounded: ranked queries rank one rowid window of matches at a time (bm25 costs per
matching row, so ranking every match of a common term before the limit is what makes broad queries slow),
ordered queries and scans walk rowid ranges and stop as soon as the caller has enough sessions.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, cast

from app.domain.fts_query import Clause
from app.storage.dialect import SQLITE, Dialect, dialect_of
from app.storage.hermes_ddl import FTS_TABLES
from app.storage.repos.repository import Repository
from app.storage.repos.session_filter import (
    LAST_ACTIVE_SQL,
    cwd_params,
    cwd_sql,
    in_home_sql,
    source_clauses,
    workspace_pattern,
    workspace_sql,
)
from app.storage.repos.sessions import preview_raw_sql
from app.storage.rows import Hit, HitBudget, HitContext, HitFilter, SessionMetaRow
from app.storage.sqlite.driver import sqlite3

_TABLES = frozenset(FTS_TABLES)
TRIGRAM_VOCAB = "hs_trigram_vocab"
# Sorts after every UTF-8 string that starts with a given prefix (the term list compares bytes).
_MAX_CHAR = "\U0010ffff"
# Rewound rows (taken back by the user) are never found; compaction-archived rows are (agent's rule).
_VISIBLE = "(m.active = 1 OR m.compacted = 1)"
# Content prefixes of compaction summaries, which never serve as bookends.
_SUMMARY_PREFIXES = ("[CONTEXT COMPACTION", "[CONTEXT SUMMARY]:")
_HIT_COLUMNS = "m.id, m.session_id, m.role, s.source, m.compacted, s.parent_session_id"
_MESSAGE_COLUMNS = "id, role, content, timestamp, tool_name, tool_calls, tool_call_id"
# Every bound LIMIT and OFFSET here is written ``+?``. SQLite 3.47 and later let the planner read the value
# bound to a bare ``?`` there, and then compile the statement again each time that parameter is bound, which
# the driver does on every execution; behind the unary plus the value is only read when the statement runs,
# as in older releases. A search runs a dozen such statements.


def parent_of(conn: sqlite3.Connection, session_id: str) -> str | None:
    """``parent_session_id`` of a session (``None`` for a root or a missing session), on either backend."""
    row = conn.execute(
        f"SELECT parent_session_id FROM sessions WHERE id = {dialect_of(conn).p}", (session_id,)
    ).fetchone()
    return None if row is None or not row[0] else str(row[0])


def session_of_message(conn: sqlite3.Connection, message_id: int) -> str | None:
    """The session owning a message id, or ``None``, on either backend."""
    row = conn.execute(
        f"SELECT session_id FROM messages WHERE id = {dialect_of(conn).p}", (message_id,)
    ).fetchone()
    return None if row is None else str(row[0])


def cron_clauses(cron: bool | None) -> list[str]:
    """The condition on session ``s`` of the hit filter's ``cron`` choice (none when it has none)."""
    if cron is None:
        return []
    return ["s.source = 'cron'" if cron else "COALESCE(s.source, '') <> 'cron'"]


def place_clauses(d: Dialect, filt: HitFilter) -> tuple[list[str], list[Any]]:
    """The hit filter's conditions on where session ``s`` ran (home, directory, workspace), in that order,
    and their parameters."""
    parts: list[str] = []
    params: list[Any] = []
    if filt.home is not None:
        parts.append(in_home_sql(d).format(a="s"))
        params.append(filt.home)
    if filt.cwd is not None:
        parts.append(cwd_sql(d).format(a="s"))
        params.extend(cwd_params(filt.cwd))
    if filt.workspace is not None:
        parts.append(workspace_sql(d).format(a="s"))
        params.append(workspace_pattern(filt.workspace))
    return parts, params


def _filter_sql(filt: HitFilter) -> tuple[str, list[Any]]:
    """The WHERE fragment (starting with AND) of a hit filter, and its parameters."""
    parts = [_VISIBLE]
    params: list[Any] = []
    if filt.roles:
        parts.append(f"m.role IN ({','.join('?' * len(filt.roles))})")
        params.extend(filt.roles)
    by_source, source_params = source_clauses(SQLITE, filt.sources, filt.exclude_sources)
    parts.extend(by_source)
    params.extend(source_params)
    parts.extend(cron_clauses(filt.cron))
    by_place, place_params = place_clauses(SQLITE, filt)
    parts.extend(by_place)
    params.extend(place_params)
    return " AND " + " AND ".join(parts), params


def scan_windows(low: int, high: int, newest: bool, budget: HitBudget) -> Iterator[tuple[int, int] | None]:
    """The id ranges ``[lo, hi)`` a substring scan reads over ``[low, high]``, newest (or oldest) first, in
    doubling steps; yields ``None`` last when :attr:`HitBudget.scan_cap` ids were covered first."""
    size, scanned = budget.scan_first_chunk, 0
    cursor = high + 1 if newest else low
    while (cursor > low) if newest else (cursor <= high):
        if scanned >= budget.scan_cap:
            yield None
            return
        lo, hi = (max(low, cursor - size), cursor) if newest else (cursor, min(high + 1, cursor + size))
        yield lo, hi
        scanned += hi - lo
        cursor = lo if newest else hi
        size = min(size * 2, budget.scan_max_chunk)


def _hits(rows: Sequence[sqlite3.Row]) -> list[Hit]:
    return [Hit(int(r[0]), str(r[1]), str(r[2]), r[3], bool(r[4]), r[5] or None) for r in rows]


def _table(table: str) -> str:
    if table not in _TABLES:
        raise ValueError(f"not a search table: {table}")
    return table


def window_floor(conn: sqlite3.Connection, table: str, match: str, below: int, size: int) -> int:
    """The smallest rowid among the ``size`` newest matches below ``below`` (0 when fewer remain).

    Reads rowids only (no ranking), so it is cheap even for a term in every message."""
    t = _table(table)
    row = conn.execute(
        f"SELECT rowid FROM {t} WHERE {t} MATCH ? AND rowid < ? ORDER BY rowid DESC LIMIT 1 OFFSET +?",
        (match, below, size - 1),
    ).fetchone()
    return 0 if row is None else int(row[0])


def accepts_match(conn: sqlite3.Connection, table: str, match: str) -> bool:
    """Whether FTS5 accepts the syntax of ``match``.

    FTS5 query errors are plain ``SQLITE_ERROR``; lock and I/O trouble have codes of their own and are
    raised (503 and friends). The message is not inspected: it quotes the user's text.
    """
    try:
        window_floor(conn, table, match, 1, 1)
    except sqlite3.OperationalError as exc:
        if getattr(exc, "sqlite_errorcode", sqlite3.SQLITE_ERROR) != sqlite3.SQLITE_ERROR:
            raise
        return False
    return True


def ranked_rowids(conn: sqlite3.Connection, table: str, match: str, floor: int, below: int) -> list[int]:
    """Rowids of the matches with ``floor <= rowid < below``, best bm25 rank first.

    The FTS table alone: ranking is the cost that grows with the matches, so nothing else (joins,
    filters, row building) is paid per match here; :func:`hits_for` then filters in rank order."""
    t = _table(table)
    rows = conn.execute(
        f"SELECT rowid FROM {t} WHERE {t} MATCH ? AND rowid >= ? AND rowid < ? ORDER BY rank",
        (match, floor, below),
    ).fetchall()
    return [int(r[0]) for r in rows]


def hits_for(conn: sqlite3.Connection, rowids: Sequence[int], filt: HitFilter) -> list[Hit]:
    """The messages among ``rowids`` that pass ``filt``, in the order of ``rowids``."""
    if not rowids:
        return []
    where, params = _filter_sql(filt)
    rows = conn.execute(
        f"SELECT {_HIT_COLUMNS} FROM messages m CROSS JOIN sessions s ON s.id = m.session_id"
        f" WHERE m.id IN ({','.join('?' * len(rowids))}){where}",
        (*rowids, *params),
    ).fetchall()
    position = {rowid: i for i, rowid in enumerate(rowids)}
    return sorted(_hits(rows), key=lambda hit: position[hit.id])


def ordered_chunk(
    conn: sqlite3.Connection, table: str, match: str, after: int, newest: bool, size: int, filt: HitFilter
) -> tuple[list[Hit], int | None]:
    """Up to ``size`` matches past rowid ``after`` in id order (newest or oldest first) that pass ``filt``.

    Returns the hits and the rowid to continue from (``None`` when the matches are exhausted)."""
    t = _table(table)
    op, order = ("<", "DESC") if newest else (">", "ASC")
    rowids = [
        int(r[0])
        for r in conn.execute(
            f"SELECT rowid FROM {t} WHERE {t} MATCH ? AND rowid {op} ? ORDER BY rowid {order} LIMIT +?",
            (match, after, size),
        ).fetchall()
    ]
    if not rowids:
        return [], None
    return hits_for(conn, rowids, filt), (rowids[-1] if len(rowids) == size else None)


def _contains_sql(negate: bool) -> str:
    # instr() is literal (no LIKE wildcards to escape) and stops at the first occurrence.
    expr = "(instr(m.content, ?) OR instr(m.tool_name, ?) OR instr(m.tool_calls, ?))"
    return f"NOT COALESCE({expr}, 0)" if negate else expr


def _clauses_sql(clauses: Sequence[Clause]) -> tuple[str, list[Any]]:
    groups: list[str] = []
    params: list[Any] = []
    for clause in clauses:
        parts = []
        for term in clause.include:
            parts.append(_contains_sql(False))
            params.extend((term, term, term))
        for term in clause.exclude:
            parts.append(_contains_sql(True))
            params.extend((term, term, term))
        groups.append("(" + " AND ".join(parts) + ")")
    return "(" + " OR ".join(groups) + ")", params


def scan_chunk(
    conn: sqlite3.Connection, clauses: Sequence[Clause], lo: int, hi: int, newest: bool, filt: HitFilter
) -> list[Hit]:
    """Messages with ``lo <= id < hi`` containing the clauses' substrings, in id order."""
    expr, expr_params = _clauses_sql(clauses)
    where, params = _filter_sql(filt)
    order = "DESC" if newest else "ASC"
    rows = conn.execute(
        f"SELECT {_HIT_COLUMNS} FROM messages m CROSS JOIN sessions s ON s.id = m.session_id"
        f" WHERE m.id >= ? AND m.id < ? AND {expr}{where} ORDER BY m.id {order}",
        (lo, hi, *expr_params, *params),
    ).fetchall()
    return _hits(rows)


def trigrams_starting_with(conn: sqlite3.Connection, prefix: str, cap: int) -> list[str] | None:
    """Indexed trigrams beginning with ``prefix`` (a range scan of the term list), or ``None`` when there
    are more than ``cap`` or the term list view is missing (then the caller scans instead)."""
    try:
        rows = conn.execute(
            f"SELECT term FROM {TRIGRAM_VOCAB} WHERE term >= ? AND term < ? LIMIT +?",
            (prefix, prefix + _MAX_CHAR, cap + 1),
        ).fetchall()
    except sqlite3.OperationalError as exc:
        if "no such table" in str(exc):
            return None
        raise
    return None if len(rows) > cap else [str(r[0]) for r in rows]


def id_bounds(conn: sqlite3.Connection) -> tuple[int, int]:
    """Smallest and largest message id (0, 0 when there are none)."""
    row = conn.execute("SELECT MIN(id), MAX(id) FROM messages").fetchone()
    return (int(row[0] or 0), int(row[1] or 0))


def fts_snippet(conn: sqlite3.Connection, table: str, match: str, rowid: int) -> str | None:
    """FTS5 ``snippet()`` of one matching row, marked ``>>>``/``<<<`` like the agent's."""
    t = _table(table)
    row = conn.execute(
        f"SELECT snippet({t}, 0, '>>>', '<<<', '...', 40) FROM {t} WHERE {t} MATCH ? AND rowid = ?",
        (match, rowid),
    ).fetchone()
    return None if row is None else row[0]


def message_text(conn: sqlite3.Connection, message_id: int) -> tuple[str, str, str]:
    """Raw ``content``, ``tool_name`` and ``tool_calls`` text of a message (empty strings for NULL)."""
    row = conn.execute(
        "SELECT content, tool_name, tool_calls FROM messages WHERE id = ?", (message_id,)
    ).fetchone()
    if row is None:
        return "", "", ""
    return tuple(str(v) if v is not None else "" for v in row)  # type: ignore[return-value]


# Order and limit first (last activity only), then build previews for the few rows returned.
_BROWSE_SQL = (
    "SELECT s.id, s.title, s.source, s.started_at, t.last_active, s.message_count, {preview} AS preview_raw"
    " FROM (SELECT s.id AS id, {last_active} AS last_active FROM sessions s"
    " WHERE s.parent_session_id IS NULL AND s.id NOT IN ({skip}){where}"
    " ORDER BY last_active DESC, s.id DESC LIMIT +?) t"
    " JOIN sessions s ON s.id = t.id ORDER BY t.last_active DESC, s.id DESC"
)


class SearchRows(Repository):
    """What search shows around its hits on SQLite: sessions' fields, windows and bookends of messages,
    and the browse of recent sessions."""

    __slots__ = ()

    def parent_of(self, session_id: str) -> str | None:
        """``parent_session_id`` of a session (``None`` for a root or a missing session)."""
        return parent_of(self.conn, session_id)

    def session_meta(self, session_id: str) -> SessionMetaRow | None:
        """The session fields search shows, or ``None`` when the session does not exist."""
        row = self.conn.execute(
            "SELECT id, title, source, model, started_at, parent_session_id FROM sessions WHERE id = ?",
            (session_id,),
        ).fetchone()
        return None if row is None else cast(SessionMetaRow, dict(row))

    def session_metas(self, session_ids: Sequence[str]) -> dict[str, SessionMetaRow]:
        """:meth:`session_meta` of each session that exists, by id."""
        return {
            sid: meta for sid in dict.fromkeys(session_ids) if (meta := self.session_meta(sid)) is not None
        }

    def session_of_message(self, message_id: int) -> str | None:
        """The session owning a message id, or ``None``."""
        return session_of_message(self.conn, message_id)

    def around(self, session_id: str, anchor: int, window: int) -> tuple[list[sqlite3.Row], int, int]:
        """Up to ``window`` visible messages before the anchor, the anchor, up to ``window`` after (id order),
        plus how many of those windows' neighbours exist beyond it on each side (the agent's counts)."""
        before = self.conn.execute(
            f"SELECT {_MESSAGE_COLUMNS} FROM messages m WHERE session_id = ? AND id <= ?"
            f" AND (id = ? OR {_VISIBLE}) ORDER BY id DESC LIMIT +?",
            (session_id, anchor, anchor, window + 1),
        ).fetchall()
        after = self.conn.execute(
            f"SELECT {_MESSAGE_COLUMNS} FROM messages m WHERE session_id = ? AND id > ? AND {_VISIBLE}"
            " ORDER BY id ASC LIMIT +?",
            (session_id, anchor, window),
        ).fetchall()
        return [*reversed(before), *after], max(0, len(before) - 1), len(after)

    def context(self, session_id: str, anchor: int, window: int, count: int) -> HitContext:
        """:meth:`around` the anchor, and the first and last ``count`` user/assistant messages with content
        outside that window, never compaction summaries (both in id order)."""
        rows, before, after = self.around(session_id, anchor, window)
        summary = " AND ".join(f"substr(content, 1, {len(p)}) != ?" for p in _SUMMARY_PREFIXES)
        base = (
            f"SELECT {_MESSAGE_COLUMNS} FROM messages m WHERE session_id = ? AND role IN ('user',"
            f" 'assistant') AND length(content) > 0 AND {_VISIBLE} AND {summary}"
        )
        start = self.conn.execute(
            f"{base} AND id < ? ORDER BY id ASC LIMIT +?",
            (session_id, *_SUMMARY_PREFIXES, rows[0]["id"], count),
        ).fetchall()
        end = self.conn.execute(
            f"{base} AND id > ? ORDER BY id DESC LIMIT +?",
            (session_id, *_SUMMARY_PREFIXES, rows[-1]["id"], count),
        ).fetchall()
        return HitContext(rows, before, after, start, list(reversed(end)))

    def contexts(self, anchors: Sequence[tuple[str, int]], window: int, count: int) -> list[HitContext]:
        """:meth:`context` of each ``(session id, anchor)`` (in-process: one call each costs nothing more)."""
        return [self.context(session_id, anchor, window, count) for session_id, anchor in anchors]

    def head_and_tail(self, session_id: str, head: int, tail: int) -> tuple[int, list[sqlite3.Row]]:
        """How many active messages a session has, and all of them when at most ``head + tail``, else the
        first ``head`` and the last ``tail`` (id order; the agent's ``get_messages`` rows), without loading
        the middle of a long session."""
        base = f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND active = 1"
        total = int(
            self.conn.execute(
                "SELECT COUNT(*) FROM messages WHERE session_id = ? AND active = 1", (session_id,)
            ).fetchone()[0]
        )
        if total <= head + tail:
            return total, self.conn.execute(f"{base} ORDER BY id", (session_id,)).fetchall()
        first = self.conn.execute(f"{base} ORDER BY id LIMIT +?", (session_id, head)).fetchall()
        last = self.conn.execute(f"{base} ORDER BY id DESC LIMIT +?", (session_id, tail)).fetchall()
        return total, [*first, *reversed(last)]

    def browse(self, limit: int, skip: Sequence[str], filt: HitFilter) -> list[sqlite3.Row]:
        """Most recently active root sessions (children are never browsed), minus ``skip``."""
        where_parts, params = source_clauses(SQLITE, filt.sources, filt.exclude_sources)
        by_place, place_params = place_clauses(SQLITE, filt)
        where_parts.extend(by_place)
        params.extend(place_params)
        skip_ids = list(skip) or [""]
        where = "".join(f" AND {p}" for p in where_parts)
        sql = _BROWSE_SQL.format(
            last_active=LAST_ACTIVE_SQL.format(a="s"),
            preview=preview_raw_sql(SQLITE).format(a="s"),
            skip=",".join("?" * len(skip_ids)),
            where=where,
        )
        return self.conn.execute(sql, (*skip_ids, *params, limit)).fetchall()
