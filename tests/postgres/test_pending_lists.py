"""The leader merges the message search indexes' pending lists (``app.storage.postgres.pending_lists``):
what appends leave pending is merged off their path, only while leading, and a cleaner without the
privilege stops and leaves the merging to the writes."""

from __future__ import annotations

import logging
import time
from typing import Any, cast

import psycopg
import pytest
from psycopg import errors as pg_errors

from app.storage.postgres import leader_loop
from app.storage.postgres.pending_lists import PendingListCleaner
from app.storage.postgres.search_schema import PENDING_LIST_INDEXES


def _append_rows(url: str, count: int) -> None:
    """``count`` messages written as appends write them: their entries go to the indexes' pending lists."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("INSERT INTO sessions (id, source, started_at) VALUES ('pending', 'cli', 0)")
        conn.execute(
            "INSERT INTO messages (session_id, role, content, timestamp)"
            " SELECT 'pending', 'user', 'pending list word ' || g || ' 文件内容', g"
            " FROM generate_series(1, %s) g",
            (count,),
        )


def _still_pending(url: str) -> dict[str, int]:
    """Each index's pending-list pages, merged by this very call (so it answers once)."""
    pending: dict[str, int] = {}
    with psycopg.connect(url, autocommit=True) as conn:
        for index in PENDING_LIST_INDEXES:
            row = conn.execute("SELECT gin_clean_pending_list(%s::regclass)", (index,)).fetchone()
            assert row is not None  # the function answers one row
            pending[index] = int(row[0])
    return pending


def _wait_for(condition: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_the_leader_merges_what_appends_leave_pending(pg_migrated_url: str) -> None:
    _append_rows(pg_migrated_url, 300)
    cleaner = PendingListCleaner(pg_migrated_url, lambda: True, busy_s=0.02)
    cleaner.start()
    try:
        _wait_for(lambda: cleaner.done > 0)
        passes = cleaner.passes
        _wait_for(lambda: cleaner.passes > passes)  # a pass after the merge: nothing was left
    finally:
        cleaner.stop()
    assert not cleaner.running
    assert _still_pending(pg_migrated_url) == dict.fromkeys(PENDING_LIST_INDEXES, 0)
    with psycopg.connect(pg_migrated_url, autocommit=True) as conn:
        found = conn.execute(
            "SELECT count(*) FROM messages WHERE search_vector @@ to_tsquery('hs_search', 'pending & list')"
        ).fetchone()
    assert found == (300,)


def test_a_replica_that_does_not_lead_leaves_the_lists_alone(pg_migrated_url: str) -> None:
    _append_rows(pg_migrated_url, 50)
    cleaner = PendingListCleaner(pg_migrated_url, lambda: False, busy_s=0.02)
    cleaner.start()
    time.sleep(0.3)
    cleaner.stop()
    assert cleaner.passes == 0
    assert all(pages > 0 for pages in _still_pending(pg_migrated_url).values())


def test_a_lost_connection_is_made_again(pg_migrated_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(leader_loop, "RETRY_S", 0.05)
    attempts: list[int] = []

    def flaky() -> psycopg.Connection[tuple[Any, ...]]:
        attempts.append(1)
        if len(attempts) == 1:
            raise psycopg.OperationalError("connection refused")
        return psycopg.connect(pg_migrated_url, autocommit=True)

    _append_rows(pg_migrated_url, 50)
    cleaner = PendingListCleaner(pg_migrated_url, lambda: True, busy_s=0.02, connect=flaky)
    cleaner.start()
    try:
        _wait_for(lambda: cleaner.done > 0)
    finally:
        cleaner.stop()
    assert len(attempts) == 2


class _NotOwner:
    closed = False

    def execute(self, *args: Any) -> Any:
        raise pg_errors.InsufficientPrivilege("must be owner of index idx_messages_search_vector")

    def close(self) -> None:
        self.closed = True


def test_without_the_privilege_the_cleaner_says_so_and_stops(caplog: pytest.LogCaptureFixture) -> None:
    connection = _NotOwner()
    # A stand-in with only what the loop calls on its connection (execute, close).
    stand_in = cast(psycopg.Connection[tuple[Any, ...]], connection)
    cleaner = PendingListCleaner("postgresql://unused", lambda: True, busy_s=0.01, connect=lambda: stand_in)
    with caplog.at_level(logging.WARNING, logger=leader_loop.__name__):
        cleaner.start()
        _wait_for(lambda: not cleaner.running)
    assert cleaner.passes == 0 and connection.closed
    assert "left to the writes" in caplog.text


def test_the_pause_backs_off_while_nothing_is_pending() -> None:
    cleaner = PendingListCleaner("postgresql://unused", lambda: True, busy_s=0.2, idle_s=2.0)
    assert cleaner.next_wait(1.6, 40) == 0.2  # something merged: come back soon
    assert cleaner.next_wait(0.2, 0) == 0.4
    assert cleaner.next_wait(1.6, 0) == 2.0  # up to idle_s
