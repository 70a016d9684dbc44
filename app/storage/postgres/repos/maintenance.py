"""``Maintenance`` on PostgreSQL: statistics, insights and the payload sizes of prune candidates in
PostgreSQL SQL; prune and archive batches and the ``state_meta`` bookkeeping shared. The FTS upkeep and
repair are SQLite-file operations: they answer ``NotSupportedOnBackend`` (501)."""

from __future__ import annotations

from typing import Any, NoReturn

from app.domain.session_filter import SessionFilter
from app.errors import NotSupportedOnBackend
from app.storage.postgres.dialect import POSTGRES
from app.storage.postgres.repos.base import pg_of
from app.storage.repos.indexing import Indexing
from app.storage.repos.maintenance import Maintenance
from app.storage.rows import PageStats, UsageReport

_INT64_MAX = 9223372036854775807
_SUMMED = {
    "message_count": "messages",
    "input_tokens": "input_tokens",
    "output_tokens": "output_tokens",
    "cache_read_tokens": "cache_read_tokens",
    "cache_write_tokens": "cache_write_tokens",
    "reasoning_tokens": "reasoning_tokens",
}
# As on SQLite: counters summed without overflow and clamped at int64's max; cost rounded to 6 places.
_TOKEN_SUMS = (
    "COUNT(*) AS sessions, "
    + ", ".join(
        f"LEAST(COALESCE(SUM(s.{column}::numeric), 0), {_INT64_MAX})::bigint AS {name}"
        for column, name in _SUMMED.items()
    )
    + ", ROUND(COALESCE(SUM(COALESCE(s.actual_cost_usd, s.estimated_cost_usd, 0))::numeric, 0), 6)::float8"
    " AS cost_usd"
)
_UTC = "(to_timestamp({0}) AT TIME ZONE 'UTC')"
_TOOL_CALLS = (
    f"CASE WHEN {POSTGRES.json_is_valid('m.tool_calls')} AND {POSTGRES.json_kind('m.tool_calls')} = 'array'"
    " THEN m.tool_calls::jsonb ELSE '[]'::jsonb END"
)
_SEARCH_INDEXES = ("idx_messages_search_vector", "idx_messages_search_trgm")
_BACKEND = "postgresql"


class PgMaintenance(Maintenance):
    """The ``Maintenance`` repository over one PostgreSQL connection."""

    __slots__ = ()
    byte_length = "octet_length({})"
    """UTF-8 bytes of a text value (a NUL is stored as a three-byte stand-in here)."""

    def page_stats(self) -> PageStats:
        """The database's size in the server's blocks; PostgreSQL keeps no free-page list to report."""
        row = self.conn.execute(
            "SELECT current_setting('block_size')::bigint, pg_database_size(current_database())"
        ).fetchone()
        block, size = int(row[0]), int(row[1])
        return PageStats(page_size=block, page_count=size // block, freelist_count=0)

    def store_stats(self, include_fts: bool) -> dict[str, Any]:
        """Counts for every source and the database's size; ``wal_bytes`` 0 (the WAL is the cluster's);
        with ``include_fts`` the size of the two search indexes; the messages a big sync batch left to the
        background indexer as pending."""
        pages = self.page_stats()
        fts = None
        if include_fts:
            marks = ", ".join(["%s"] * len(_SEARCH_INDEXES))
            sql = f"SELECT COALESCE(SUM(pg_relation_size(oid)), 0) FROM pg_class WHERE relname IN ({marks})"
            row = self.conn.execute(sql, _SEARCH_INDEXES).fetchone()
            fts = int(row[0])
        stats = self.stats_record(pages, fts, Indexing(self.conn, self.changes).pending_messages())
        stats.update(database_bytes=pages.page_size * pages.page_count, wal_bytes=0)
        return stats

    def usage_report(self, since: float, source: str | None, top: int) -> UsageReport:
        """Tokens and cost by day, model and source, the top tools and activity by UTC hour and weekday."""
        where = "s.started_at >= %s"
        params: list[Any] = [since]
        if source is not None:
            where += " AND s.source = %s"
            params.append(source)

        def usage_by(key_sql: str) -> list[dict[str, Any]]:
            sql = (
                f"SELECT {key_sql} AS key, {_TOKEN_SUMS} FROM sessions s WHERE {where} GROUP BY 1 ORDER BY 1"
            )
            return [dict(row) for row in self.conn.execute(sql, params)]

        def activity(field: str) -> dict[int, int]:
            sql = (
                f"SELECT EXTRACT({field} FROM {_UTC.format('m.timestamp')})::int, COUNT(*) "
                f"FROM sessions s JOIN messages m ON m.session_id = s.id "
                f"WHERE {where} AND m.timestamp >= %s GROUP BY 1"
            )
            return {int(row[0]): int(row[1]) for row in self.conn.execute(sql, [*params, since])}

        tool = "COALESCE(j.value -> 'function' ->> 'name', j.value ->> 'name')"
        tools_sql = (
            f"SELECT {tool} AS tool, COUNT(*) AS calls "
            f"FROM sessions s JOIN messages m ON m.session_id = s.id "
            f"CROSS JOIN LATERAL jsonb_array_elements({_TOOL_CALLS}) AS j(value) "
            f"WHERE {where} AND m.tool_calls IS NOT NULL "
            f"GROUP BY 1 HAVING {tool} IS NOT NULL "
            "ORDER BY 2 DESC, 1 LIMIT %s"
        )
        return UsageReport(
            by_day=usage_by(f"to_char({_UTC.format('s.started_at')}, 'YYYY-MM-DD')"),
            by_model=usage_by("s.model"),
            by_source=usage_by("s.source"),
            top_tools=[dict(row) for row in self.conn.execute(tools_sql, [*params, top])],
            hours=activity("HOUR"),
            weekdays=activity("DOW"),
        )

    def prune_batch(self, ids: list[str], flt: SessionFilter) -> tuple[list[str], int]:
        """Lock ``ids``, then delete those that still qualify; the ids deleted and their message count."""
        self._lock(ids)
        return super().prune_batch(ids, flt)

    def archive_batch(self, ids: list[str], flt: SessionFilter) -> list[str]:
        """Lock ``ids``, then archive those that still qualify, each with its compression lineage; the ids
        archived."""
        self._lock(ids)
        return super().archive_batch(ids, flt)

    def _lock(self, ids: list[str]) -> None:
        """Lock the sessions ``ids`` until commit, so the batch's re-check sees every pin and reopen committed
        before, and none commits until the batch has.

        SQLite's single writer runs the re-check and the change with no write in between. Under READ
        COMMITTED a pin committed after the re-check's snapshot would go with its session: a pin only
        key-share locks the row, which the DELETE waits out and then deletes. In id order, so two batches
        cannot deadlock.
        """
        pg_of(self.conn).execute("SELECT 1 FROM sessions WHERE id = ANY(%s) ORDER BY id FOR UPDATE", (ids,))

    def optimize_fts(self, *args: Any, **kwargs: Any) -> NoReturn:
        """A SQLite-file operation (PostgreSQL's indexes need no merging)."""
        raise NotSupportedOnBackend("An FTS optimize", _BACKEND)

    def repair(self, *args: Any, **kwargs: Any) -> NoReturn:
        """A SQLite-file operation (PostgreSQL checks and repairs its own storage)."""
        raise NotSupportedOnBackend("A repair", _BACKEND)
