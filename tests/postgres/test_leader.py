"""Leader election among replicas: one leader at a time, takeover within 30 s of a leader's ``kill -9``, and
a leader cut off from its session steps down before anyone else's jobs start."""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import psycopg
import pytest

from app.storage.leadership import ALWAYS_LEADER, supervise
from app.storage.postgres.leader import APPLICATION_NAME, AdvisoryLeader, LeaderTiming
from tests.postgres.leader_candidate import LOG_DDL
from tests.postgres.replicas import terminate, wait_for

ROOT = Path(__file__).resolve().parents[2]
FAST = LeaderTiming(retry_s=0.2, check_s=0.1, lease_s=0.5, settle_s=0.8, poll_s=0.05)
TAKEOVER_S = 30.0


# -- the supervisor, without a database ---------------------------------------------------------------


def test_the_job_runs_only_during_terms_and_restarts_on_the_next() -> None:
    standing = {"leading": False}
    started: list[int] = []
    cancelled: list[int] = []

    async def job() -> None:
        started.append(len(started))
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.append(len(cancelled))
            raise

    async def scenario() -> None:
        supervisor = asyncio.create_task(supervise(lambda: standing["leading"], job, 0.01))
        await asyncio.sleep(0.05)
        assert started == []
        standing["leading"] = True
        await _until(lambda: started == [0])
        standing["leading"] = False
        await _until(lambda: cancelled == [0])
        standing["leading"] = True
        await _until(lambda: started == [0, 1])
        supervisor.cancel()
        with pytest.raises(asyncio.CancelledError):
            await supervisor
        assert cancelled == [0, 1]

    asyncio.run(scenario())


def test_a_job_that_ends_ends_the_supervisor_with_its_outcome() -> None:
    async def fails() -> None:
        raise RuntimeError("boom")

    async def scenario() -> None:
        with pytest.raises(RuntimeError, match="boom"):
            await supervise(lambda: True, fails, 0.01)
        ran: list[bool] = []

        async def once() -> None:
            ran.append(True)

        await ALWAYS_LEADER.while_leading(once)
        assert ran == [True] and ALWAYS_LEADER.leading

    asyncio.run(scenario())


def test_timings_that_could_let_two_leaders_overlap_are_refused() -> None:
    with pytest.raises(ValueError, match="settle_s"):
        LeaderTiming(lease_s=3.0, settle_s=3.0)
    with pytest.raises(ValueError, match="check_s"):
        LeaderTiming(check_s=3.0, lease_s=3.0)


async def _until(check: object, timeout: float = 10.0) -> None:
    assert callable(check)
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.01)


# -- candidates in this process ----------------------------------------------------------------------


@pytest.fixture
def pair(pg_url: str) -> Iterator[tuple[AdvisoryLeader, AdvisoryLeader]]:
    a, b = AdvisoryLeader(pg_url, timing=FAST), AdvisoryLeader(pg_url, timing=FAST)
    a.start()
    b.start()
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()


def test_one_of_two_candidates_leads_and_the_other_takes_over_when_it_stops(
    pair: tuple[AdvisoryLeader, AdvisoryLeader],
) -> None:
    first = wait_for(lambda: next((c for c in pair if c.leading), None), 30, "a leader")
    other = pair[1] if first is pair[0] else pair[0]
    assert not other.holds_lock and not other.leading
    first.stop()
    assert not first.leading
    wait_for(lambda: other.leading, 30, "the other candidate to take over")
    assert other.terms == 1


def test_a_leader_whose_session_is_terminated_steps_down(
    pg_url: str, pair: tuple[AdvisoryLeader, AdvisoryLeader]
) -> None:
    first = wait_for(lambda: next((c for c in pair if c.leading), None), 30, "a leader")
    terminate(pg_url, _lock_holder(pg_url))
    wait_for(lambda: not first.holds_lock, 30, "the cut-off leader to notice")
    wait_for(lambda: any(c.leading for c in pair), 30, "a leader again")
    assert sum(c.terms for c in pair) == 2


def _lock_holder(url: str) -> int:
    """The server pid of the session holding the leader's advisory lock."""
    with psycopg.connect(url, autocommit=True) as conn:
        row = wait_for(
            lambda: conn.execute(
                "SELECT a.pid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
                " WHERE l.locktype = 'advisory' AND l.granted AND a.application_name = %s"
                " AND a.datname = current_database()",
                (APPLICATION_NAME,),
            ).fetchone(),
            30,
            "the lock holder",
        )
    return int(row[0])


# -- candidates in separate processes, with the default timing ----------------------------------------


@pytest.mark.timeout(240)
def test_kill_9_of_the_leader_hands_the_jobs_over_within_30s_and_terms_never_overlap(pg_url: str) -> None:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(LOG_DDL)
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.postgres.leader_candidate", pg_url, f"c{n}"],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        for n in range(3)
    ]
    try:
        with psycopg.connect(pg_url, autocommit=True) as conn:
            ((first_pid, _),) = wait_for(lambda: _starts(conn, after=None), 60, "a first leader")
            wait_for(lambda: _beats(conn, first_pid) >= 3, 30, "the first leader's job to run")

            # kill -9: the kernel closes its socket, the server ends its session and its lock.
            killed_at = _now(conn)
            os.kill(first_pid, signal.SIGKILL)
            ((second_pid, second_at),) = wait_for(
                lambda: _starts(conn, after=killed_at), TAKEOVER_S, "a new leader after kill -9"
            )
            assert second_pid != first_pid
            assert (second_at - killed_at).total_seconds() < TAKEOVER_S
            wait_for(lambda: _beats(conn, second_pid) >= 3, 30, "the second leader's job to run")

            # The leader's process lives on but its session is gone: it must stop before anyone starts.
            cut_at = _now(conn)
            terminate(pg_url, _lock_holder(pg_url))
            wait_for(lambda: _starts(conn, after=cut_at), TAKEOVER_S, "a leader after the session was cut")
            wait_for(
                lambda: conn.execute(
                    "SELECT 1 FROM leader_log WHERE pid = %s AND kind = 'stop'", (second_pid,)
                ).fetchone(),
                30,
                "the cut-off leader to record that its job stopped",
            )
            terms = conn.execute(
                "SELECT pid, term, min(at) FILTER (WHERE kind = 'start'), max(at) FROM leader_log"
                " GROUP BY pid, term ORDER BY 3"
            ).fetchall()
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
            proc.wait(timeout=30)
    assert len(terms) == 3
    for (pid, _, _, end), (next_pid, _, next_start, _) in itertools.pairwise(terms):
        assert next_start > end, f"term of {next_pid} started before the term of {pid} ended"


def _now(conn: psycopg.Connection[Any]) -> datetime:
    row = conn.execute("SELECT clock_timestamp()").fetchone()
    assert row is not None
    return row[0]


def _starts(conn: psycopg.Connection[Any], after: datetime | None) -> list[tuple[int, datetime]]:
    """Terms started (after ``after``): ``(pid, at)``."""
    return conn.execute(
        "SELECT pid, at FROM leader_log WHERE kind = 'start' AND (%s::timestamptz IS NULL OR at > %s)",
        (after, after),
    ).fetchall()


def _beats(conn: psycopg.Connection[Any], pid: int) -> int:
    row = conn.execute("SELECT count(*) FROM leader_log WHERE pid = %s AND kind = 'beat'", (pid,)).fetchone()
    return int(row[0]) if row else 0


class _Stallable(psycopg.Connection[Any]):
    """A connection whose liveness checks hang while :attr:`stalled` is set, like a half-dead peer's."""

    stalled = threading.Event()
    released = threading.Event()

    def execute(self, query: Any, *args: Any, **kwargs: Any) -> Any:
        if query == "SELECT 1" and self.stalled.is_set():
            self.released.wait(30)
        return super().execute(query, *args, **kwargs)


def test_a_stuck_leader_stops_leading_before_the_next_one_starts(pg_url: str) -> None:
    """The old leader's thread hangs on its check while the server has already freed its lock: its lease
    runs out before the new leader's settling time does, so at no instant do both lead."""
    stuck = AdvisoryLeader(
        pg_url,
        timing=FAST,
        connect=lambda: _Stallable.connect(pg_url, autocommit=True, application_name=APPLICATION_NAME),
    )
    _Stallable.stalled.clear()
    _Stallable.released.clear()
    stuck.start()
    other: AdvisoryLeader | None = None
    try:
        wait_for(lambda: stuck.leading, 30, "the first leader")
        _Stallable.stalled.set()
        terminate(pg_url, _lock_holder(pg_url))
        other = AdvisoryLeader(pg_url, timing=FAST)
        other.start()
        while True:
            # In this order: the other one only ever starts leading here, the stuck one only stops.
            other_leads = other.leading
            stuck_leads = stuck.leading
            if other_leads:
                break
            time.sleep(0.005)
        assert not stuck_leads
        assert other.terms == 1 and stuck.terms == 1
    finally:
        _Stallable.released.set()
        stuck.stop()
        if other is not None:
            other.stop()
