"""The leader merges the search indexes' pending lists, so that no write has to.

A GIN index with ``fastupdate`` (PostgreSQL's default) takes a new row's entries into a pending list, cheap
to append to, and merges that list into the index proper once it outgrows ``gin_pending_list_limit``,
inside the statement whose insert crossed the limit. Under a steady stream of appends the message search
indexes crossed it again and again, and each time one group commit stalled with every request in it: most
of the single-append p99 on PostgreSQL (docs/benchmarks.md). Turning ``fastupdate`` off instead
cost every insert more than the stalls did (each row's entries go into the index one by one), and a
smaller limit made the merges more frequent and less efficient.

So the leader itself calls ``gin_clean_pending_list`` on the search indexes that writes feed, on a connection
of its own, every :data:`BUSY_S` while their lists fill, well before an insert crosses the limit; while they
stay empty it backs off, doubling the pause up to :data:`IDLE_S`. (A pause that followed the lists' growth,
aiming each pass at half the limit, let them grow closer to it and measured worse.) The merge is the work
the writes would have done, moved off their path; the result is the same index. Only the index's owner may
call the function: without that privilege the cleaner says so once and stops, and inserts merge their
lists as before.
"""

from __future__ import annotations

from typing import Any

import psycopg

from app.storage.postgres.leader_loop import LeaderLoop
from app.storage.postgres.search_schema import PENDING_LIST_INDEXES

_CLEAN_SQL = "SELECT " + " + ".join(
    f"gin_clean_pending_list('{index}'::regclass)" for index in PENDING_LIST_INDEXES
)


class PendingListCleaner(LeaderLoop):
    """A thread that merges :data:`PENDING_LIST_INDEXES`' pending lists while ``is_leading()``; its
    :attr:`done` counts the pages merged."""

    what = "pending-lists"
    without_privilege = "left to the writes, not the indexes' owner"
    application_name = "hermes-pending-lists"
    BUSY_S = 0.2
    """The pause between passes while the lists fill: a fraction of the time a list took to reach the
    default limit under the append benchmark."""
    IDLE_S = 2.0
    """The longest pause, reached by doubling while passes find nothing to merge."""

    def _pass(self, conn: psycopg.Connection[tuple[Any, ...]]) -> int:
        """One merge of every index's pending list; the pages merged."""
        row = conn.execute(_CLEAN_SQL).fetchone()
        return int(row[0]) if row and row[0] is not None else 0
