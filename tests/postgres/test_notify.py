"""Events across replicas: ids in commit order, announced on commit only, heard by every listener, and
caught up from the table after the listener's connection is killed."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from app.storage.commit_notice import CommitNotice
from app.storage.postgres.connection import configure
from app.storage.postgres.dedicated import connect_dedicated
from app.storage.postgres.notify import (
    APPLICATION_NAME,
    EVENT_ORDER_LOCK_KEY,
    EventListener,
    insert_events_and_commit,
    parse_payload,
    relay_to_loop,
)
from tests.postgres.replicas import backend_pids, create_events_table, terminate, wait_for


class Heard:
    """What a listener delivered, in delivery order."""

    def __init__(self) -> None:
        self.ids: list[int] = []
        self._lock = threading.Lock()

    def __call__(self, ids: range) -> None:
        with self._lock:
            self.ids.extend(ids)

    def snapshot(self) -> list[int]:
        with self._lock:
            return list(self.ids)


@pytest.fixture
def events_url(pg_url: str) -> str:
    create_events_table(pg_url)
    return pg_url


@pytest.fixture
def heard() -> Heard:
    return Heard()


@pytest.fixture
def listener(events_url: str, heard: Heard) -> Iterator[EventListener]:
    listening = EventListener(events_url, heard, check_s=0.5)
    listening.start()
    try:
        yield listening
    finally:
        listening.stop()


def _event(n: int, session: str | None = "s1") -> tuple[str, str | None, str, float]:
    return ("message.created", session, f'{{"n":{n}}}', 1.0)


def _commit(conn: psycopg.Connection[Any], rows: list[tuple[str, str | None, str, float]]) -> range:
    """One transaction, opened as the store opens its own, that commits ``rows`` as events."""
    conn.execute("BEGIN")
    return insert_events_and_commit(conn, rows)


def _draw_and_lose_id(conn: psycopg.Connection[Any]) -> int:
    """An event id drawn by a transaction that never commits (a COMMIT that failed): a gap in the log. Drawn
    under the event-order lock, as every event insert draws its ids."""
    conn.execute("BEGIN")
    conn.execute("SELECT pg_advisory_xact_lock(%s)", (EVENT_ORDER_LOCK_KEY,))
    row = conn.execute("SELECT nextval(pg_get_serial_sequence('hs_events', 'id'))").fetchone()
    conn.execute("ROLLBACK")
    assert row is not None
    return int(row[0])


def _write(
    url: str, batches: list[int], lose_every: int, out: list[int], errors: list[BaseException]
) -> None:
    """One writer connection: a transaction per batch size; every ``lose_every``-th batch's ids are
    drawn and lost instead."""
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            for i, size in enumerate(batches):
                if i % lose_every == lose_every - 1:
                    _draw_and_lose_id(conn)
                    continue
                ids = _commit(conn, [_event(i) for _ in range(size)])
                assert len(ids) == size
                out.extend(ids)
    except BaseException as exc:  # surfaced by the test thread
        errors.append(exc)


def test_events_are_refused_outside_a_transaction(events_url: str) -> None:
    with psycopg.connect(events_url, autocommit=True) as conn:
        with pytest.raises(ValueError, match="open transaction"):
            insert_events_and_commit(conn, [_event(1)])
        assert conn.execute("SELECT count(*) FROM hs_events").fetchone() == (0,)
        assert list(_commit(conn, [_event(2)])) == [1]
        assert conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE


def test_event_rows_are_stored_exactly(events_url: str) -> None:
    # The arrays bind in binary: quotes, backslashes, braces, NUL and non-ASCII text, a missing session and
    # an integer time all arrive as given (NUL through the store's NUL-safe dumpers, read back by its loader).
    rows = [
        ("session.created", 's"1\\{,}', '{"q":"a\\"b","t":"\\u0000 é 数"}', 1),
        ("message.created", None, "{}", 2.5),
        ("handoff.requested", "s\x00nul", '{"x":[1,2]}', 1.7e9),
    ]
    with psycopg.connect(events_url, autocommit=True) as conn:
        configure(conn)
        ids = _commit(conn, rows)
        stored = conn.execute(
            "SELECT type, session_id, data, created_at FROM hs_events WHERE id BETWEEN %s AND %s ORDER BY id",
            (ids[0], ids[-1]),
        ).fetchall()
    assert stored == [(t, s, d, float(c)) for t, s, d, c in rows]


def test_payload_is_a_range_of_ids_and_anything_else_is_ignored() -> None:
    assert parse_payload("7-9") == range(7, 10)
    assert parse_payload("12-12") == range(12, 13)
    for noise in ("", "7", "9-7", "a-b", "-3-4", "1-2-3"):
        assert parse_payload(noise) is None


def test_every_committed_id_is_heard_once_in_order_and_no_rolled_back_one(
    events_url: str, listener: EventListener, heard: Heard
) -> None:
    committed: list[list[int]] = [[], []]
    errors: list[BaseException] = []
    writers = [
        threading.Thread(target=_write, args=(events_url, [1, 3, 2] * 10, 3, committed[n], errors))
        for n in range(2)
    ]
    for w in writers:
        w.start()
    for w in writers:
        w.join(timeout=60)
    assert not errors
    expected = sorted(committed[0] + committed[1])
    assert len(expected) == 2 * (1 + 3) * 10
    wait_for(lambda: len(heard.snapshot()) >= len(expected), 30, "every committed id")
    assert heard.snapshot() == expected
    assert listener.caught_up == 0
    with psycopg.connect(events_url) as conn:
        stored = [r[0] for r in conn.execute("SELECT id FROM hs_events ORDER BY id").fetchall()]
    assert stored == expected


def test_event_writers_commit_in_id_order(events_url: str) -> None:
    """While one transaction holds the event-order lock (from its insert to its COMMIT), a second writer
    waits before drawing ids, so no reader sees a later id first."""
    first = psycopg.connect(events_url, autocommit=True)
    second_ids: list[range] = []
    errors: list[BaseException] = []
    try:
        first.execute("BEGIN")
        first.execute("SELECT pg_advisory_xact_lock(%s)", (EVENT_ORDER_LOCK_KEY,))

        def second() -> None:
            try:
                with psycopg.connect(events_url, autocommit=True, application_name="second-writer") as conn:
                    second_ids.append(_commit(conn, [_event(2), _event(3)]))
            except BaseException as exc:
                errors.append(exc)

        thread = threading.Thread(target=second)
        thread.start()
        with psycopg.connect(events_url, autocommit=True) as watcher:
            wait_for(
                lambda: watcher.execute(
                    "SELECT 1 FROM pg_stat_activity WHERE application_name = 'second-writer'"
                    " AND wait_event_type = 'Lock' AND wait_event = 'advisory'"
                ).fetchone(),
                30,
                "the second writer to wait for the event-order lock",
            )
            assert watcher.execute("SELECT count(*) FROM hs_events").fetchone() == (0,)
        mine = insert_events_and_commit(first, [_event(1)])
        thread.join(timeout=30)
    finally:
        first.close()
    assert not errors
    assert list(mine) == [1]
    assert list(second_ids[0]) == [2, 3]


def test_nothing_is_announced_for_ids_that_never_commit(
    events_url: str, listener: EventListener, heard: Heard
) -> None:
    with psycopg.connect(events_url, autocommit=True) as conn:
        lost = [_draw_and_lose_id(conn)]
        kept = list(_commit(conn, [_event(2, session=None)]))
        # A batch the table refuses fails with its COMMIT: the transaction is left for the caller to roll
        # back, and its ids are never announced.
        with pytest.raises(psycopg.errors.NotNullViolation):
            _commit(conn, [("message.created", "s1", None, 1.0)])  # type: ignore[list-item]
        assert conn.info.transaction_status == psycopg.pq.TransactionStatus.INERROR
        conn.execute("ROLLBACK")
        kept += _commit(conn, [_event(5)])
    wait_for(lambda: len(heard.snapshot()) >= 2, 30, "the committed ids")
    assert heard.snapshot() == kept
    assert lost == [1] and kept[0] == 2 and kept[1] > kept[0] + 1


def test_listener_catches_up_from_the_table_after_its_connection_is_killed(
    events_url: str, heard: Heard
) -> None:
    gate = threading.Event()
    gate.set()

    def connect() -> psycopg.Connection[Any]:
        # The test holds reconnection back until it has committed while nobody listened.
        gate.wait(30)
        return connect_dedicated(events_url, APPLICATION_NAME)

    listening = EventListener(events_url, heard, check_s=0.5, connect=connect)
    listening.start()
    try:
        with psycopg.connect(events_url, autocommit=True) as conn:
            before = _commit(conn, [_event(1), _event(2)])
            wait_for(lambda: len(heard.snapshot()) == 2, 30, "the first two ids")
            gate.clear()
            (pid,) = backend_pids(events_url, APPLICATION_NAME)
            terminate(events_url, pid)
            wait_for(
                lambda: not backend_pids(events_url, APPLICATION_NAME), 30, "the listener's session to end"
            )
            missed = list(_commit(conn, [_event(3), _event(4), _event(5)]))
            _draw_and_lose_id(conn)
            missed += _commit(conn, [_event(7)])
            gate.set()
            wait_for(lambda: len(heard.snapshot()) >= 6, 30, "the ids committed while disconnected")
            after = _commit(conn, [_event(8)])
            wait_for(lambda: len(heard.snapshot()) >= 7, 30, "a live id after the reconnection")
    finally:
        gate.set()
        listening.stop()
    # The catch-up reports up to the newest id, so the rolled-back id 6 between 5 and 7 is part of it (the
    # hub reads the rows, and there is none for 6); nothing committed is missed and nothing is repeated.
    assert heard.snapshot() == [*before, *range(missed[0], missed[-1] + 1), *after]
    assert listening.connections == 2
    assert listening.caught_up == missed[-1] - missed[0] + 1


def test_relayed_ids_reach_the_event_loop_as_commit_notices(events_url: str) -> None:
    def commit_two() -> range:
        with psycopg.connect(events_url, autocommit=True) as conn:
            return _commit(conn, [_event(1), _event(2, session="s2")])

    async def scenario() -> tuple[list[tuple[CommitNotice, int]], range, int]:
        got: list[tuple[CommitNotice, int]] = []
        arrived = asyncio.Event()

        def deliver(notice: CommitNotice) -> None:
            got.append((notice, threading.get_ident()))
            arrived.set()

        listening = relay_to_loop(events_url, asyncio.get_running_loop(), deliver)
        await asyncio.to_thread(listening.start)
        try:
            ids = await asyncio.to_thread(commit_two)
            await asyncio.wait_for(arrived.wait(), 30)
        finally:
            await asyncio.to_thread(listening.stop)
        return got, ids, threading.get_ident()

    got, ids, loop_thread = asyncio.run(scenario())
    assert [(notice.event_ids, thread) for notice, thread in got] == [(ids, loop_thread)]
    assert got[0][0] == CommitNotice(0, ids, frozenset(), False)


def test_stop_wakes_a_listener_in_its_wait_and_ids_still_flow_to_the_others(
    events_url: str, heard: Heard
) -> None:
    """Stopping sends an empty notification: the listener's wait ends at once instead of after ``check_s``
    (60 s here), and another listener takes it for noise and goes on hearing real ids."""
    other = Heard()
    staying = EventListener(events_url, other, check_s=0.5)
    staying.start()
    leaving = EventListener(events_url, heard, check_s=60)
    leaving.start()
    try:
        started = time.monotonic()
        leaving.stop()
        assert time.monotonic() - started < 30  # far below check_s: woken, not timed out
        with psycopg.connect(events_url, autocommit=True) as conn:
            ids = _commit(conn, [_event(1)])
        wait_for(lambda: other.snapshot() == list(ids), 30, "the id after the wake-up")
    finally:
        staying.stop()
    assert heard.snapshot() == []
