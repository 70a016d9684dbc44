"""Events across replicas: the writing transaction announces its event ids with ``NOTIFY``, and every
replica's listener hands them to its event hub, which reads the rows from ``hs_events``.

**Ids in commit order.** Streams and ``Last-Event-ID`` read the log by ``id > last``, which misses nothing
only if no event can commit with an id below one already visible. Sequence values are handed out at
insert, not at commit, so :func:`insert_events_and_commit` takes a transaction-scoped advisory lock before
drawing ids: event-writing transactions commit one after the other from that point, and ids appear in
commit order on every replica. The cost is small because a transaction that notifies already takes
PostgreSQL's own commit lock on the notification queue; emitting events as the transaction's last step
keeps the lock's window short (and avoids waiting for row locks while holding it).

**Payload.** ``'<first_id>-<last_id>'``, ids only: a few bytes, far below the 8000-byte limit, and no event
data leaves the table. Notifications are delivered only when the transaction commits, never for one that
rolls back.

**Resilience.** A listener that loses its connection reconnects, ``LISTEN``\\s again, and then reports
everything committed after the last id it had reported, read from the table: notifications sent while it
was away are lost by PostgreSQL, the rows are not.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any, Final

import psycopg
from psycopg.pq import TransactionStatus

from app.storage.commit_notice import CommitNotice
from app.storage.postgres.connection import kept_cursor
from app.storage.postgres.dedicated import advisory_key, close_quietly, connect_dedicated
from app.storage.rows import NewEvent

log = logging.getLogger(__name__)

EVENTS_CHANNEL: Final = "hermes_events"
EVENT_ORDER_LOCK_KEY: Final = advisory_key("hermes-sessions:event-order")
"""The transaction-scoped advisory lock that puts event ids in commit order."""

APPLICATION_NAME: Final = "hermes-events-listener"

# One round trip: the rows to insert are read through the lock's CTE, so the lock is held before the
# first id is drawn (the lock is held until commit, and every statement after it extends that wait). The
# arrays bind in binary: in text, psycopg quotes every element of JSON text with a regular expression,
# which cost more than the rest of a sync batch's event insert.
_INSERT = (
    "WITH ordered AS MATERIALIZED (SELECT pg_advisory_xact_lock(%s)),"
    " ins AS ("
    " INSERT INTO hs_events (type, session_id, data, created_at)"
    " SELECT e.* FROM ordered, unnest(%b::text[], %b::text[], %b::text[], %b::float8[]) AS e"
    " RETURNING id)"
    " SELECT min(id), max(id), pg_notify(%s, min(id) || '-' || max(id)) FROM ins"
)


def _insert_params(rows: Sequence[NewEvent]) -> tuple[Any, ...]:
    types, sessions, data, created = (list(column) for column in zip(*rows, strict=True))
    # A binary array holds one type: an integer time among floats would not bind.
    return (EVENT_ORDER_LOCK_KEY, types, sessions, data, [float(t) for t in created], EVENTS_CHANNEL)


def _ids(row: tuple[Any, ...] | None) -> range:
    if row is None or row[0] is None:
        raise psycopg.DataError("hs_events insert returned no ids")
    return range(int(row[0]), int(row[1]) + 1)


def _require_transaction(conn: psycopg.Connection[Any]) -> None:
    # Without autocommit psycopg opens the transaction with the statement itself.
    if conn.autocommit and conn.info.transaction_status != TransactionStatus.INTRANS:
        raise ValueError("events need an open transaction (the ordering lock would end with its statement)")


def insert_events_and_commit(
    conn: psycopg.Connection[Any], rows: Sequence[NewEvent], *, lift_lock_timeout: bool = False
) -> range:
    """Append ``rows`` to ``hs_events`` in ``conn``'s open transaction (opened with a plain ``BEGIN``) and
    COMMIT it in one round trip; the ids given (consecutive). Every replica hears of them once committed.
    Raises ``ValueError`` outside a transaction.

    The ordering lock is held from the insert to the COMMIT. Sent together in a pipeline, the two run back
    to back on the server: the window never includes this thread waiting for the interpreter between them,
    which under many concurrent writers was most of it.

    ``lift_lock_timeout``: the transaction set a ``lock_timeout`` (a group commit's, against deadlocks), and
    waiting for the ordering lock cannot deadlock (its holder is committing and waits on nothing), so that
    wait has none."""
    _require_transaction(conn)
    cur = kept_cursor(conn, _INSERT)
    with conn.pipeline():
        if lift_lock_timeout:
            conn.execute("SET LOCAL lock_timeout = 0")
        cur.execute(_INSERT, _insert_params(rows))
        kept_cursor(conn, "COMMIT").execute("COMMIT")
    return _ids(cur.fetchone())


def parse_payload(payload: str) -> range | None:
    """The ids of a ``'<first>-<last>'`` payload, ``None`` for anything else (another sender's noise)."""
    first, sep, last = payload.partition("-")
    if not sep or not first.isdigit() or not last.isdigit() or int(last) < int(first):
        return None
    return range(int(first), int(last) + 1)


Deliver = Callable[[range], None]
Connect = Callable[[], psycopg.Connection[tuple[Any, ...]]]


class EventListener:
    """One replica's ``LISTEN hermes_events``: a thread with its own connection that calls ``deliver(ids)``
    (on that thread) for every committed event id, once, in order, across reconnections."""

    def __init__(
        self,
        url: str,
        deliver: Deliver,
        *,
        check_s: float = 1.0,
        retry_s: tuple[float, float] = (0.1, 2.0),
        connect: Connect | None = None,
    ) -> None:
        self.deliver = deliver
        self.check_s = check_s
        self.retry_min_s, self.retry_max_s = retry_s
        self._connect = connect or (lambda: connect_dedicated(url, APPLICATION_NAME))
        self._conn: psycopg.Connection[tuple[Any, ...]] | None = None
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="hermes-events-listener", daemon=True)
        self.last_id: int | None = None
        """The newest id reported (``None`` until the first connection read where the log stood)."""
        self.connections = 0
        """Connections made so far (more than one: it reconnected)."""
        self.caught_up = 0
        """Events reported from the table after a reconnection rather than from a notification."""

    def start(self, timeout: float = 30.0) -> None:
        """Start listening; returns once the first ``LISTEN`` is in place (or after ``timeout``), so every
        commit from then on is reported."""
        self._thread.start()
        self._ready.wait(timeout)

    def stop(self) -> None:
        """Stop listening and close the connection: at once while connected (see :meth:`_wake`), else
        within ``check_s``."""
        self._stop.set()
        if self._thread.is_alive():
            if self._conn is not None:
                self._wake()
            self._thread.join()

    def _wake(self) -> None:
        # The thread waits up to check_s at a time for a notification: an empty one (noise to every
        # listener, this replica's and the others') ends the wait now. Without it each stop took a second.
        try:
            with self._connect() as conn:
                conn.execute(f"NOTIFY {EVENTS_CHANNEL}")
        except psycopg.Error as exc:
            log.debug("events listener not woken (it stops within check_s): %s", exc)

    def _run(self) -> None:
        backoff = self.retry_min_s
        while not self._stop.is_set():
            try:
                self._listen()
                self._serve()
                backoff = self.retry_min_s
            except psycopg.Error as exc:
                log.warning("events listener reconnecting: %s", exc)
                self._stop.wait(backoff)
                backoff = min(self.retry_max_s, backoff * 2)
            finally:
                self._close()

    def _listen(self) -> None:
        """Connect, ``LISTEN``, then report what committed while no ``LISTEN`` was in place."""
        conn = self._conn = self._connect()
        self.connections += 1
        conn.execute(f"LISTEN {EVENTS_CHANNEL}")
        # Read after LISTEN: a commit in between is in the table and notified; the report skips repeats.
        row = conn.execute("SELECT coalesce(max(id), 0) FROM hs_events").fetchone()
        newest = int(row[0]) if row else 0
        if self.last_id is None:
            self.last_id = newest
        elif newest > self.last_id:
            self.caught_up += newest - self.last_id
            self._report(range(self.last_id + 1, newest + 1))
        self._ready.set()

    def _serve(self) -> None:
        conn = self._conn
        assert conn is not None
        while not self._stop.is_set():
            heard = False
            for note in conn.notifies(timeout=self.check_s):
                heard = True
                ids = parse_payload(note.payload)
                if ids is not None:
                    self._report(ids)
                if self._stop.is_set():
                    return
            if not heard:
                # Quiet for a while: make sure the session is still there (a half-dead peer stays silent).
                conn.execute("SELECT 1")

    def _report(self, ids: range) -> None:
        last = self.last_id or 0
        fresh = range(max(ids.start, last + 1), ids.stop)
        if not fresh:
            return
        self.last_id = fresh[-1]
        try:
            self.deliver(fresh)
        except Exception:  # a failing consumer must not end the listener; the hub's poll still catches up
            log.exception("events listener: delivering ids %d-%d failed", fresh.start, fresh[-1])

    def _close(self) -> None:
        conn, self._conn = self._conn, None
        close_quietly(conn)


def relay_to_loop(
    url: str, loop: asyncio.AbstractEventLoop, deliver: Callable[[CommitNotice], None]
) -> EventListener:
    """A listener (not started) whose ids reach ``deliver`` on ``loop`` as :meth:`CommitNotice.of_events`
    notices: what the store's ``subscribe`` hands the event hub for other replicas' commits."""

    def hand_over(ids: range) -> None:
        with contextlib.suppress(RuntimeError):  # the loop closed during shutdown
            loop.call_soon_threadsafe(deliver, CommitNotice.of_events(ids))

    return EventListener(url, hand_over)
