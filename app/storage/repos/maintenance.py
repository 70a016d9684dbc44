"""SQL for stats, insights, prune, FTS maintenance and the ``state_meta`` bookkeeping the agent shares."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from app.domain.retention import PruneFilter
from app.domain.titles import like_escape
from app.storage.hermes_ddl import FTS_TABLES

# state_meta keys. ``last_auto_prune`` is the agent's own marker (a float string), so the agent and this
# server keep one schedule; the ``hs_`` keys are ours and the agent ignores them.
LAST_AUTO_PRUNE_KEY = "last_auto_prune"
AUTO_PRUNE_STATUS_KEY = "hs_auto_prune_status"
AUTO_PRUNE_LEASE_KEY = "hs_auto_prune_lease"


def get_meta(conn: sqlite3.Connection, key: str) -> str | None:
    """``state_meta`` value for ``key`` (the agent's ``get_meta``)."""
    row = conn.execute("SELECT value FROM state_meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else row[0]


def set_meta(conn: sqlite3.Connection, key: str, value: str) -> None:
    """Upsert ``state_meta`` exactly as the agent's ``set_meta`` does."""
    conn.execute(
        "INSERT INTO state_meta (key, value) VALUES (?, ?) "
        "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


def delete_meta(conn: sqlite3.Connection, key: str) -> None:
    """Remove one of our ``state_meta`` keys."""
    conn.execute("DELETE FROM state_meta WHERE key = ?", (key,))


# -- stats ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PageStats:
    """Page accounting of the main database file."""

    page_size: int
    page_count: int
    freelist_count: int


def page_stats(conn: sqlite3.Connection) -> PageStats:
    """``page_size``, ``page_count`` and ``freelist_count`` of the main file."""
    return PageStats(
        page_size=conn.execute("PRAGMA page_size").fetchone()[0],
        page_count=conn.execute("PRAGMA page_count").fetchone()[0],
        freelist_count=conn.execute("PRAGMA freelist_count").fetchone()[0],
    )


def counts(conn: sqlite3.Connection) -> tuple[int, int, dict[str, int]]:
    """Sessions, messages, and sessions per source (every source, not the agent's fixed five)."""
    sessions = conn.execute("SELECT COUNT(*) FROM sessions").fetchone()[0]
    messages = conn.execute("SELECT COUNT(*) FROM messages").fetchone()[0]
    by_source = {
        row[0]: row[1]
        for row in conn.execute("SELECT source, COUNT(*) FROM sessions GROUP BY source ORDER BY 2 DESC, 1")
    }
    return sessions, messages, by_source


def fts_bytes(conn: sqlite3.Connection) -> int | None:
    """Bytes used by the FTS indexes' shadow tables, or ``None`` when SQLite lacks ``dbstat``.

    ``dbstat`` walks every page of each table named, so this costs a read of the indexes.
    """
    names = [
        r[0]
        for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'messages\\_fts%' ESCAPE '\\'"
        )
    ]
    total = 0
    try:
        for name in names:
            row = conn.execute(
                "SELECT pgsize FROM dbstat WHERE name = ? AND aggregate = TRUE", (name,)
            ).fetchone()
            total += int(row[0] or 0) if row else 0
    except sqlite3.OperationalError:
        return None
    return total


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


def _window(since: float, source: str | None) -> tuple[str, list[Any]]:
    where = "s.started_at >= ?"
    params: list[Any] = [since]
    if source is not None:
        where += " AND s.source = ?"
        params.append(source)
    return where, params


def usage_by(
    conn: sqlite3.Connection, key_sql: str, since: float, source: str | None
) -> list[dict[str, Any]]:
    """Token and cost sums of the sessions started since ``since``, grouped by ``key_sql`` (a column)."""
    where, params = _window(since, source)
    sql = f"SELECT {key_sql} AS key, {_TOKEN_SUMS} FROM sessions s WHERE {where} GROUP BY 1 ORDER BY 1"
    return [dict(row) for row in conn.execute(sql, params)]


def top_tools(conn: sqlite3.Connection, since: float, source: str | None, limit: int) -> list[dict[str, Any]]:
    """The most called tools (names from assistants' ``tool_calls``) in sessions started since ``since``."""
    where, params = _window(since, source)
    sql = (
        "SELECT COALESCE(json_extract(j.value, '$.function.name'), json_extract(j.value, '$.name')) AS tool, "
        "COUNT(*) AS calls FROM sessions s JOIN messages m ON m.session_id = s.id, json_each(m.tool_calls) j "
        f"WHERE {where} AND m.tool_calls IS NOT NULL AND json_valid(m.tool_calls) "
        "AND json_type(m.tool_calls) = 'array' GROUP BY 1 HAVING tool IS NOT NULL ORDER BY 2 DESC, 1 LIMIT ?"
    )
    return [dict(row) for row in conn.execute(sql, [*params, limit])]


def activity(conn: sqlite3.Connection, fmt: str, since: float, source: str | None) -> dict[int, int]:
    """Messages per ``strftime(fmt)`` bucket (``%H`` hour, ``%w`` weekday, UTC) since ``since``."""
    where, params = _window(since, source)
    sql = (
        f"SELECT CAST(strftime('{fmt}', m.timestamp, 'unixepoch') AS INTEGER), COUNT(*) "
        "FROM sessions s JOIN messages m ON m.session_id = s.id "
        f"WHERE {where} AND m.timestamp >= ? GROUP BY 1"
    )
    return {row[0]: row[1] for row in conn.execute(sql, [*params, since])}


# -- prune ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PruneCandidate:
    """An ended session old enough to prune, with what deleting it frees."""

    id: str
    message_count: int
    payload_bytes: int


def _like(value: str) -> str:
    # A substring, matched literally: % and _ typed by the user are not wildcards.
    return f"%{like_escape(value.lower())}%"


def _prune_where(flt: PruneFilter) -> tuple[str, list[Any]]:
    """The agent's ``_prune_filter_where``: only ended sessions, then every criterion given (AND)."""
    clauses = ["s.ended_at IS NOT NULL"]
    params: list[Any] = []
    if flt.started_before is not None:
        clauses.append("s.started_at < ?")
        params.append(flt.started_before)
    for column, value in (("source", flt.source), ("end_reason", flt.end_reason)):
        if value is not None:
            clauses.append(f"s.{column} = ?")
            params.append(value)
    for column, value in (("title", flt.title), ("model", flt.model), ("git_branch", flt.branch)):
        if value is not None:
            clauses.append(f"LOWER(COALESCE(s.{column}, '')) LIKE ? ESCAPE '\\'")
            params.append(_like(value))
    if flt.provider is not None:
        clauses.append("LOWER(COALESCE(s.billing_provider, '')) = ?")
        params.append(flt.provider.lower())
    if flt.min_messages is not None:
        clauses.append("s.message_count >= ?")
        params.append(flt.min_messages)
    if flt.max_messages is not None:
        clauses.append("s.message_count <= ?")
        params.append(flt.max_messages)
    if flt.archived is not None:
        clauses.append("s.archived = ?")
        params.append(1 if flt.archived else 0)
    return " AND ".join(clauses), params


def prune_candidates(conn: sqlite3.Connection, flt: PruneFilter) -> list[PruneCandidate]:
    """Every session the prune would delete, oldest first, with its row count and stored payload size."""
    where, params = _prune_where(flt)
    sql = (
        "SELECT s.id, (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id) AS n, "
        "COALESCE(LENGTH(CAST(s.system_prompt AS BLOB)), 0) "
        "+ COALESCE(LENGTH(CAST(s.model_config AS BLOB)), 0) "
        "+ COALESCE((SELECT SUM(COALESCE(LENGTH(CAST(m.content AS BLOB)), 0) "
        "+ COALESCE(LENGTH(CAST(m.tool_calls AS BLOB)), 0) + COALESCE(LENGTH(CAST(m.reasoning AS BLOB)), 0) "
        "+ COALESCE(LENGTH(CAST(m.api_content AS BLOB)), 0) + 64) FROM messages m "
        "WHERE m.session_id = s.id), 0) AS bytes "
        f"FROM sessions s WHERE {where} ORDER BY s.started_at, s.id"
    )
    return [PruneCandidate(r[0], r[1], r[2]) for r in conn.execute(sql, params)]


def still_prunable(conn: sqlite3.Connection, ids: list[str], flt: PruneFilter) -> list[str]:
    """The ids that still qualify now (re-checked in the deleting transaction: a reopened session stays)."""
    where, params = _prune_where(flt)
    marks = ",".join("?" * len(ids))
    rows = conn.execute(f"SELECT s.id FROM sessions s WHERE {where} AND s.id IN ({marks})", [*params, *ids])
    return [r[0] for r in rows]


def delete_sessions(conn: sqlite3.Connection, ids: list[str]) -> int:
    """Delete sessions with all their messages in the caller's transaction; the messages deleted.

    Children outside the set are orphaned (the agent's prune).
    """
    if not ids:
        return 0
    marks = ",".join("?" * len(ids))
    conn.execute(f"UPDATE sessions SET parent_session_id = NULL WHERE parent_session_id IN ({marks})", ids)
    messages = conn.execute(f"DELETE FROM messages WHERE session_id IN ({marks})", ids).rowcount
    # session_model_usage rows go by ON DELETE CASCADE (foreign_keys is on for our connections).
    conn.execute(f"DELETE FROM sessions WHERE id IN ({marks})", ids)
    return messages


def fts_tables(conn: sqlite3.Connection) -> list[str]:
    """The agent's FTS tables present in this file."""
    marks = ",".join("?" * len(FTS_TABLES))
    rows = conn.execute(
        f"SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ({marks})", FTS_TABLES
    )
    return sorted(r[0] for r in rows)


def optimize_fts(conn: sqlite3.Connection) -> list[str]:
    """Merge each FTS index into one segment (the agent's ``optimize_fts``); returns the tables done."""
    done = fts_tables(conn)
    for table in done:
        conn.execute(f"INSERT INTO {table}({table}) VALUES('optimize')")
    return done
