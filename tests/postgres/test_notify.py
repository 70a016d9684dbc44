"""Events across replicas: ids in commit order, announced on commit only, heard by every listener, and
caught up from the table after the listener's connection is killed."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from app.storage.commit_notice import CommitNotice
from app.storage.postgres.dedicated import connect_dedicated
from app.storage.postgres.notify import (
    APPLICATION_NAME,
    EventListener,
    insert_events,
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


def _event(n: int, session: str = "s1") -> tuple[str, str | None, str, float]:
    return ("message.created", session, f'{{"n":{n}}}', 1.0)


def _write(
    url: str, batches: list[int], commit_every: int, out: list[int], errors: list[BaseException]
) -> None:
    """One writer connection: a transaction per batch size, every ``commit_every``-th rolled back."""
    try:
        with psycopg.connect(url) as conn:
            for i, size in enumerate(batches):
                ids = insert_events(conn, [_event(i) for _ in range(size)])
                assert len(ids) == size
                if i % commit_every == commit_every - 1:
                    conn.rollback()
                else:
                    conn.commit()
                    out.extend(ids)
    except BaseException as exc:  # surfaced by the test thread
        errors.append(exc)


def test_events_are_refused_outside_a_transaction(events_url: str) -> None:
    with psycopg.connect(events_url, autocommit=True) as conn:
        with pytest.raises(ValueError, match="open transaction"):
            insert_events(conn, [_event(1)])
        assert conn.execute("SELECT count(*) FROM hs_events").fetchone() == (0,)
        with conn.transaction():
            assert list(insert_events(conn, [_event(2)])) == [1]


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
    """A second writer draws its ids only after the first committed, so no reader sees a later id first."""
    first = psycopg.connect(events_url)
    second_ids: list[range] = []
    errors: list[BaseException] = []
    try:
        mine = insert_events(first, [_event(1)])

        def second() -> None:
            try:
                with psycopg.connect(events_url, application_name="second-writer") as conn:
                    second_ids.append(insert_events(conn, [_event(2), _event(3)]))
                    conn.commit()
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
        first.commit()
        thread.join(timeout=30)
    finally:
        first.close()
    assert not errors
    assert second_ids[0].start > mine[-1]
    assert list(second_ids[0]) == [mine[-1] + 1, mine[-1] + 2]


def test_nothing_is_announced_for_a_transaction_that_rolls_back(
    events_url: str, listener: EventListener, heard: Heard
) -> None:
    with psycopg.connect(events_url) as conn:
        insert_events(conn, [_event(1)])
        conn.rollback()
        kept = list(insert_events(conn, [_event(2, session=None)]))
        # A job of a group commit that fails is rolled back to its savepoint; the rest commits.
        with pytest.raises(RuntimeError), conn.transaction():
            insert_events(conn, [_event(3), _event(4)])
            raise RuntimeError("the job failed")
        kept += insert_events(conn, [_event(5)])
        conn.commit()
    wait_for(lambda: len(heard.snapshot()) >= 2, 30, "the committed ids")
    assert heard.snapshot() == kept
    # The rolled-back transaction drew id 1 and the rolled-back savepoint ids 3 and 4.
    assert kept == [2, 5]


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
        with psycopg.connect(events_url) as conn:
            before = insert_events(conn, [_event(1), _event(2)])
            conn.commit()
            wait_for(lambda: len(heard.snapshot()) == 2, 30, "the first two ids")
            gate.clear()
            (pid,) = backend_pids(events_url, APPLICATION_NAME)
            terminate(events_url, pid)
            wait_for(
                lambda: not backend_pids(events_url, APPLICATION_NAME), 30, "the listener's session to end"
            )
            missed = list(insert_events(conn, [_event(3), _event(4), _event(5)]))
            conn.commit()
            insert_events(conn, [_event(6)])
            conn.rollback()
            missed += insert_events(conn, [_event(7)])
            conn.commit()
            gate.set()
            wait_for(lambda: len(heard.snapshot()) >= 6, 30, "the ids committed while disconnected")
            after = insert_events(conn, [_event(8)])
            conn.commit()
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
        with psycopg.connect(events_url) as conn:
            ids = insert_events(conn, [_event(1), _event(2, session="s2")])
            conn.commit()
        return ids

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
