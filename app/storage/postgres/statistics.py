"""The leader analyzes a table soon after a bulk write changed much of it, rather than waiting for autovacuum.

The planner chooses how to read from each table's statistics. A sync or an import into a new database
fills ``messages`` from nothing in a minute, and autovacuum analyzes it only on its next round
(``autovacuum_naptime``, a minute by default, per database): until then the listing's search and discover
were planned for an empty table and read every user message for a term a trigram index answers (hundreds
of milliseconds a call on the 100,000-message store against a few). So the leader looks at the tables'
change counters every :attr:`~StatisticsKeeper.BUSY_S` to :attr:`~StatisticsKeeper.IDLE_S` seconds and
analyzes each table of the schema whose rows changed since its last analyze by at least
:data:`MIN_CHANGED_ROWS` and by at least its size times :data:`CHANGED_FRACTION`: as a table grows from
nothing that is each doubling, a dozen analyzes up to half a million rows, while steady appends leave the
table to autovacuum's own, finer rule. ``SKIP_LOCKED`` passes over a table autovacuum is working on (the
next pass sees it again); tables this role does not own are not asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import psycopg
from psycopg import sql

from app.storage.postgres.leader_loop import LeaderLoop

MIN_CHANGED_ROWS: Final = 5_000
"""Changes below this never call for an analyze of ours (autovacuum's rule covers small tables well)."""
CHANGED_FRACTION: Final = 1.0
"""The share of a table's rows (as last counted) that must have changed: 1.0 is each doubling."""

_STALE_SQL = """
SELECT s.relname
FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
WHERE s.schemaname = current_schema()
  AND pg_has_role(current_user, c.relowner, 'USAGE')
  AND s.n_mod_since_analyze >= %(min_rows)s
  AND s.n_mod_since_analyze >= %(fraction)s * GREATEST(c.reltuples, 0)
ORDER BY s.n_mod_since_analyze DESC
"""


class StatisticsKeeper(LeaderLoop):
    """A thread that analyzes the schema's tables after bulk changes while ``is_leading()``.

    It keeps the loop's pauses: the short one after a pass that analyzed something, since a bulk write is
    likely still under way, and the longest one bounds how long a bulk write that starts waits for its
    first analyze."""

    what = "statistics"
    without_privilege = "left to autovacuum"
    application_name = "hermes-statistics"

    def __init__(
        self,
        url: str,
        is_leading: Callable[[], bool],
        *,
        min_rows: int = MIN_CHANGED_ROWS,
        busy_s: float | None = None,
        idle_s: float | None = None,
    ) -> None:
        super().__init__(url, is_leading, busy_s=busy_s, idle_s=idle_s)
        self.min_rows = min_rows
        self.analyzed: list[str] = []
        """The tables asked to be analyzed so far, in order."""

    def _pass(self, conn: psycopg.Connection[tuple[Any, ...]]) -> int:
        """Analyze every table that changed enough; how many were."""
        params = {"min_rows": self.min_rows, "fraction": CHANGED_FRACTION}
        tables = [str(row[0]) for row in conn.execute(_STALE_SQL, params)]
        for table in tables:
            conn.execute(sql.SQL("ANALYZE (SKIP_LOCKED) {}").format(sql.Identifier(table)))
            self.analyzed.append(table)
        return len(tables)
