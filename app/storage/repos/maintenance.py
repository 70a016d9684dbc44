"""SQL for stats, insights, prune, FTS maintenance and the ``state_meta`` bookkeeping the agent shares."""

from __future__ import annotations

from typing import Any

from app.domain.session_filter import SessionFilter
from app.storage.agent_shape import shape_of
from app.storage.dialect import Dialect, dialect_of
from app.storage.repos import health
from app.storage.repos.fts_backlog import existing_fts_tables
from app.storage.repos.indexing import Indexing
from app.storage.repos.repository import Repository
from app.storage.repos.session_filter import filter_clauses, pinned_sql
from app.storage.repos.sessions import set_archived
from app.storage.rows import Health, PageStats, PruneCandidate, UsageReport
from app.storage.sqlite.driver import sqlite3


def _meta_table(conn: sqlite3.Connection) -> str:
    """Where our bookkeeping goes: the agent's ``state_meta`` on a file of schema 22 (the agent shares the
    auto-prune schedule there), our ``hs_meta`` on a newer agent's file, whose ``state_meta`` drives its FTS
    rebuilds and is never ours to write."""
    return "state_meta" if shape_of(conn).adoptable else "hs_meta"


# -- stats ------------------------------------------------------------------------------------------


def counts(conn: sqlite3.Connection) -> tuple[int, int, dict[str, int]]:
    """Sessions, messages, and sessions per source (every source, not the agent's fixed five)."""
    sessions = conn.execute("SELECT COUNT(*) FROM sessions").fetchone()[0]
    messages = conn.execute("SELECT COUNT(*) FROM messages").fetchone()[0]
    by_source = {
        row[0]: row[1]
        for row in conn.execute("SELECT source, COUNT(*) FROM sessions GROUP BY source ORDER BY 2 DESC, 1")
    }
    return sessions, messages, by_source


def fts_bytes(conn: sqlite3.Connection) -> int:
    """Bytes used by the FTS indexes' shadow tables: their pages where the library has ``dbstat``, else
    the bytes of the rows they hold (a little less: pages are never quite full).

    Either way every row of each shadow table is read, so this costs a read of the indexes.
    """
    names = [
        str(r[0])
        for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'messages\\_fts%' ESCAPE '\\'"
            " AND sql NOT LIKE 'CREATE VIRTUAL%'"
        )
    ]
    try:
        return sum(_pages_bytes(conn, name) for name in names)
    except sqlite3.OperationalError:
        return sum(_row_bytes(conn, name) for name in names)


def _pages_bytes(conn: sqlite3.Connection, table: str) -> int:
    d = dialect_of(conn)
    row = conn.execute(
        f"SELECT pgsize FROM dbstat WHERE name = {d.p} AND aggregate = TRUE", (table,)
    ).fetchone()
    return int(row[0] or 0) if row else 0


def _row_bytes(conn: sqlite3.Connection, table: str) -> int:
    columns = [str(r[1]) for r in conn.execute(f'PRAGMA table_info("{table}")')]
    lengths = " + ".join(f'COALESCE(length(CAST("{c}" AS BLOB)), 0)' for c in columns) or "0"
    (total,) = conn.execute(f'SELECT COALESCE(SUM({lengths}), 0) FROM "{table}"').fetchone()
    return int(total)


# -- insights ---------------------------------------------------------------------------------------

_COST = "COALESCE(s.actual_cost_usd, s.estimated_cost_usd, 0)"
# TOTAL, not SUM: SUM raises "integer overflow" once saturated counters add past int64 (and a REAL counter
# an older build stored is summed too); CAST brings the float back to an integer, clamped at int64's max.
_SUMMED = (
    "message_count",
    "input_tokens",
    "output_tokens",
    "cache_read_tokens",
    "cache_write_tokens",
    "reasoning_tokens",
)
_TOKEN_SUMS = (
    "COUNT(*) AS sessions, "
    + ", ".join(
        f"CAST(TOTAL(s.{c}) AS INTEGER) AS {'messages' if c == 'message_count' else c}" for c in _SUMMED
    )
    + f", ROUND(TOTAL({_COST}), 6) AS cost_usd"
)


def _window(d: Dialect, since: float, source: str | None) -> tuple[str, list[Any]]:
    where = f"s.started_at >= {d.p}"
    params: list[Any] = [since]
    if source is not None:
        where += f" AND s.source = {d.p}"
        params.append(source)
    return where, params


def usage_by(
    conn: sqlite3.Connection, key_sql: str, since: float, source: str | None
) -> list[dict[str, Any]]:
    """Token and cost sums of the sessions started since ``since``, grouped by ``key_sql`` (a column)."""
    where, params = _window(dialect_of(conn), since, source)
    sql = f"SELECT {key_sql} AS key, {_TOKEN_SUMS} FROM sessions s WHERE {where} GROUP BY 1 ORDER BY 1"
    return [dict(row) for row in conn.execute(sql, params)]


def top_tools(conn: sqlite3.Connection, since: float, source: str | None, limit: int) -> list[dict[str, Any]]:
    """The most called tools (names from assistants' ``tool_calls``) in sessions started since ``since``."""
    d = dialect_of(conn)
    where, params = _window(d, since, source)
    sql = (
        "SELECT COALESCE(json_extract(j.value, '$.function.name'), json_extract(j.value, '$.name')) AS tool,"
        " COUNT(*) AS calls FROM sessions s JOIN messages m ON m.session_id = s.id, json_each(m.tool_calls)"
        f" j WHERE {where} AND m.tool_calls IS NOT NULL AND json_valid(m.tool_calls) AND"
        " json_type(m.tool_calls) = 'array' GROUP BY 1 HAVING tool IS NOT NULL ORDER BY 2 DESC, 1 LIMIT"
        f" {d.p}"
    )
    return [dict(row) for row in conn.execute(sql, [*params, limit])]


def activity(conn: sqlite3.Connection, fmt: str, since: float, source: str | None) -> dict[int, int]:
    """Messages per ``strftime(fmt)`` bucket (``%H`` hour, ``%w`` weekday, UTC) since ``since``."""
    d = dialect_of(conn)
    where, params = _window(d, since, source)
    sql = (
        f"SELECT CAST(strftime('{fmt}', m.timestamp, 'unixepoch') AS INTEGER), COUNT(*) "
        "FROM sessions s JOIN messages m ON m.session_id = s.id "
        f"WHERE {where} AND m.timestamp >= {d.p} GROUP BY 1"
    )
    return {row[0]: row[1] for row in conn.execute(sql, [*params, since])}


# -- prune and archive ------------------------------------------------------------------------------


SQLITE_BYTES = "LENGTH(CAST({} AS BLOB))"
"""The stored size in bytes of a text value (``{}``: the expression), in SQLite."""


def _payload_sql(byte_length: str) -> str:
    """The stored payload of session ``s``: its prompt and config, and each message's text plus 64 bytes."""

    def size(column: str) -> str:
        return f"COALESCE({byte_length.format(column)}, 0)"

    message = " + ".join(size(f"m.{c}") for c in ("content", "tool_calls", "reasoning", "api_content"))
    return (
        f"{size('s.system_prompt')} + {size('s.model_config')} "
        f"+ COALESCE((SELECT SUM({message} + 64) FROM messages m WHERE m.session_id = s.id), 0)"
    )


def _selection(conn: sqlite3.Connection, flt: SessionFilter, ids: list[str] | None) -> tuple[str, list[Any]]:
    """The agent's ``_prune_filter_where`` (ended sessions only, every criterion AND), never a pinned
    session, and only ``ids`` when given."""
    d = dialect_of(conn)
    clauses, params = filter_clauses(d, flt)
    clauses = ["s.ended_at IS NOT NULL", f"NOT {pinned_sql(shape_of(conn)).format(a='s')}", *clauses]
    if ids is not None:
        clauses.append(f"s.id IN ({','.join([d.p] * len(ids))})")
        params = [*params, *ids]
    return " AND ".join(clauses), params


def still_matching(conn: sqlite3.Connection, ids: list[str], flt: SessionFilter) -> list[str]:
    """The ids that still qualify now (re-checked in the changing transaction: a reopened or pinned
    session stays), in the order of ``ids``."""
    where, params = _selection(conn, flt, ids)
    # Rows come in the backend's scan order (SQLite's id index, PostgreSQL's heap); callers report ids
    # oldest first, as given.
    matching = {r[0] for r in conn.execute(f"SELECT s.id FROM sessions s WHERE {where}", params)}
    return [session_id for session_id in ids if session_id in matching]


def delete_sessions(conn: sqlite3.Connection, ids: list[str]) -> int:
    """Delete sessions with all their messages in the caller's transaction; the messages deleted.

    Children outside the set are orphaned (the agent's prune). Pin rows go with their session.
    """
    d = dialect_of(conn)
    if not ids:
        return 0
    marks = ",".join([d.p] * len(ids))
    conn.execute(f"UPDATE sessions SET parent_session_id = NULL WHERE parent_session_id IN ({marks})", ids)
    messages = conn.execute(f"DELETE FROM messages WHERE session_id IN ({marks})", ids).rowcount
    # session_model_usage and hs_session_pins rows go by ON DELETE CASCADE (foreign_keys is on for our
    # connections, and for the agent's).
    conn.execute(f"DELETE FROM sessions WHERE id IN ({marks})", ids)
    return messages


class Maintenance(Repository):
    """Statistics, prune and archive batches, FTS upkeep, repairs, and ``state_meta`` markers."""

    __slots__ = ()

    def get_meta(self, key: str) -> str | None:
        """The bookkeeping value for ``key`` (the agent's ``get_meta``; on a newer agent's file, ours
        first)."""
        for table in dict.fromkeys((_meta_table(self.conn), "state_meta")):
            row = self.conn.execute(f"SELECT value FROM {table} WHERE key = {self.d.p}", (key,)).fetchone()
            if row is not None:
                return str(row[0]) if row[0] is not None else None
        return None

    def set_meta(self, key: str, value: str) -> None:
        """Upsert a bookkeeping value exactly as the agent's ``set_meta`` does."""
        self.conn.execute(
            f"INSERT INTO {_meta_table(self.conn)} (key, value) VALUES ({self.d.p}, {self.d.p}) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    def delete_meta(self, key: str) -> None:
        """Remove one of our bookkeeping keys."""
        self.conn.execute(f"DELETE FROM {_meta_table(self.conn)} WHERE key = {self.d.p}", (key,))

    def page_stats(self) -> PageStats:
        """``page_size``, ``page_count`` and ``freelist_count`` of the main file."""
        return PageStats(
            page_size=self.conn.execute("PRAGMA page_size").fetchone()[0],
            page_count=self.conn.execute("PRAGMA page_count").fetchone()[0],
            freelist_count=self.conn.execute("PRAGMA freelist_count").fetchone()[0],
        )

    def store_stats(self, include_fts: bool) -> dict[str, Any]:
        """Counts for every source, page accounting, the FTS size (on request: a page walk) and the
        backlog."""
        return self.stats_record(
            self.page_stats(),
            fts_bytes(self.conn) if include_fts else None,
            Indexing(self.conn, self.changes).pending_messages(),
        )

    def usage_report(self, since: float, source: str | None, top: int) -> UsageReport:
        """Tokens and cost by day, model and source, the top tools and activity by UTC hour and weekday."""
        return UsageReport(
            by_day=usage_by(self.conn, "date(s.started_at, 'unixepoch')", since, source),
            by_model=usage_by(self.conn, "s.model", since, source),
            by_source=usage_by(self.conn, "s.source", since, source),
            top_tools=top_tools(self.conn, since, source, top),
            hours=activity(self.conn, "%H", since, source),
            weekdays=activity(self.conn, "%w", since, source),
        )

    def candidates(
        self,
        flt: SessionFilter,
        *,
        ids: list[str] | None = None,
        payload: bool = False,
    ) -> list[PruneCandidate]:
        """Every session ``flt`` selects (of ``ids`` when given), oldest first; with ``payload``, each with
        its row count and stored payload size (text sizes measured by :attr:`byte_length`)."""
        where, params = _selection(self.conn, flt, ids)
        count = (
            "(SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id)" if payload else "s.message_count"
        )
        sql = (
            "SELECT s.id, s.source, s.title, s.model, s.started_at, s.ended_at, "
            f"{count} AS n, s.archived, {_payload_sql(self.byte_length) if payload else '0'} AS bytes "
            f"FROM sessions s WHERE {where} ORDER BY s.started_at, s.id"
        )
        return [
            PruneCandidate(
                id=r[0],
                source=r[1],
                title=r[2],
                model=r[3],
                started_at=r[4],
                ended_at=r[5],
                message_count=int(r[6] or 0),
                archived=bool(r[7]),
                payload_bytes=int(r[8]),
            )
            for r in self.conn.execute(sql, params)
        ]

    def prune_batch(self, ids: list[str], flt: SessionFilter) -> tuple[list[str], int]:
        """Delete those of ``ids`` that still qualify; the ids deleted and their message count."""
        keep = still_matching(self.conn, ids, flt)
        return keep, delete_sessions(self.conn, keep)

    def kept(self, flt: SessionFilter) -> tuple[int, int]:
        """How many sessions ``flt``'s criteria match that a prune leaves alone: (open, pinned and ended)."""
        clauses, params = filter_clauses(self.d, flt)
        pinned = pinned_sql(shape_of(self.conn)).format(a="s")
        row = self.conn.execute(
            "SELECT COALESCE(SUM(CASE WHEN s.ended_at IS NULL THEN 1 ELSE 0 END), 0),"
            f" COALESCE(SUM(CASE WHEN s.ended_at IS NOT NULL AND {pinned} THEN 1 ELSE 0 END), 0)"
            f" FROM sessions s WHERE {' AND '.join(clauses) or '1 = 1'}",
            params,
        ).fetchone()
        return int(row[0]), int(row[1])

    def archive_batch(self, ids: list[str], flt: SessionFilter) -> list[str]:
        """Archive those of ``ids`` that still qualify, each with its compression lineage (the agent's
        ``archive_sessions``), leaving pinned members of a lineage as they are; the ids archived."""
        keep = still_matching(self.conn, ids, flt)
        for session_id in keep:
            set_archived(self.conn, session_id, True, keep_pinned=True)
        return keep

    def optimize_fts(self) -> list[str]:
        """Merge each FTS index into one segment (the agent's ``optimize_fts``); returns the tables done (none
        on a newer agent's file: its indexes are its own to maintain)."""
        if not shape_of(self.conn).own_fts_upkeep:
            return []
        done = existing_fts_tables(self.conn)
        for table in done:
            self.conn.execute(f"INSERT INTO {table}({table}) VALUES('optimize')")
        return done

    byte_length = SQLITE_BYTES
    """How this engine measures a text value's stored bytes (``{}``: the expression)."""

    def repair(self, found: Health) -> list[str]:
        """Fix what the health check found, in this write transaction; the steps taken (see
        :func:`app.storage.repos.health.repair`)."""
        return health.repair(self.conn, found)

    def stats_record(self, pages: PageStats, fts: int | None, pending: int) -> dict[str, Any]:
        """The statistics of ``conn``'s store: its counts with the given page accounting, FTS size and
        backlog."""
        sessions, messages, by_source = counts(self.conn)
        return {
            "sessions": sessions,
            "messages": messages,
            "by_source": by_source,
            "page_size": pages.page_size,
            "page_count": pages.page_count,
            "freelist_bytes": pages.freelist_count * pages.page_size,
            "fts_bytes": fts,
            "indexing": {"pending_messages": pending},
        }
