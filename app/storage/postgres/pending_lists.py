"""The leader merges the search indexes' pending lists, so that no write has to.

A GIN index with ``fastupdate`` (PostgreSQL's default) takes a new row's entries into a pending list, cheap
to append to, and merges that list into the index proper once it outgrows ``gin_pending_list_limit``,
inside the statement whose insert crossed the limit. Under a steady stream of appends the message search
indexes crossed it again and again, and each time one group commit stalled with every request in it: most
of the single-append p99 on PostgreSQL (the README's benchmark table). Turning ``fastupdate`` off instead
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

import logging
import threading
from collections.abc import Callable
from typing import Any, Final

import psycopg
from psycopg import errors as pg_errors

from app.storage.postgres.dedicated import close_quietly, connect_dedicated
from app.storage.postgres.search_schema import PENDING_LIST_INDEXES

log = logging.getLogger(__name__)

APPLICATION_NAME: Final = "hermes-pending-lists"
BUSY_S: Final = 0.2
"""The pause between passes while the lists fill: a fraction of the time a list took to reach the default
limit under the append benchmark."""
IDLE_S: Final = 2.0
"""The longest pause, reached by doubling while passes find nothing to merge."""
RETRY_S: Final = 2.0
"""The pause after the database could not be reached."""

_CLEAN_SQL = "SELECT " + " + ".join(
    f"gin_clean_pending_list('{index}'::regclass)" for index in PENDING_LIST_INDEXES
)

Connect = Callable[[], psycopg.Connection[tuple[Any, ...]]]


class PendingListCleaner:
    """A thread that merges :data:`PENDING_LIST_INDEXES`' pending lists while ``is_leading()``."""

    def __init__(
        self,
        url: str,
        is_leading: Callable[[], bool],
        *,
        busy_s: float = BUSY_S,
        idle_s: float = IDLE_S,
        connect: Connect | None = None,
    ) -> None:
        self.is_leading = is_leading
        self.busy_s = busy_s
        self.idle_s = idle_s
        self._connect = connect or (lambda: connect_dedicated(url, APPLICATION_NAME))
        self._conn: psycopg.Connection[tuple[Any, ...]] | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="hermes-pending-lists", daemon=True)
        self.passes = 0
        """Passes made (each over every index)."""
        self.merged_pages = 0
        """Pending-list pages merged into the indexes so far."""

    def start(self) -> None:
        """Start the thread."""
        self._thread.start()

    def stop(self) -> None:
        """Stop the thread (a merge under way finishes first) and close its connection."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    @property
    def running(self) -> bool:
        """Whether the thread is still at work (it ends when stopped, or without the privilege)."""
        return self._thread.is_alive()

    def _run(self) -> None:
        wait = self.busy_s
        try:
            while not self._stop.wait(wait):
                if not self.is_leading():
                    wait = self.busy_s
                    continue
                try:
                    merged = self._pass()
                except pg_errors.InsufficientPrivilege as exc:
                    log.warning(
                        "search index pending lists are left to the writes (not their owner): %s", exc
                    )
                    return
                except psycopg.Error as exc:
                    log.debug("pending-list merge not done: %s", exc)
                    self._drop()
                    wait = RETRY_S
                    continue
                except Exception:
                    # Not foreseen: say so with the traceback, and keep the writes' stalls away next time.
                    log.exception("pending-list merge failed")
                    self._drop()
                    wait = RETRY_S
                    continue
                wait = self.next_wait(wait, merged)
        finally:
            self._drop()

    def next_wait(self, wait: float, merged: int) -> float:
        """The pause after a pass that merged ``merged`` pages: :attr:`busy_s` while there was something to
        merge, else twice the last pause, up to :attr:`idle_s`."""
        return self.busy_s if merged else min(self.idle_s, wait * 2)

    def _pass(self) -> int:
        """One merge of every index's pending list; the pages merged."""
        if self._conn is None or self._conn.closed:
            self._conn = self._connect()
        row = self._conn.execute(_CLEAN_SQL).fetchone()
        merged = int(row[0]) if row and row[0] is not None else 0
        self.passes += 1
        self.merged_pages += merged
        return merged

    def _drop(self) -> None:
        conn, self._conn = self._conn, None
        close_quietly(conn)
