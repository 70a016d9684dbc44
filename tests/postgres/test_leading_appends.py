"""Leading appends on PostgreSQL: the appends that start a group of write jobs are made in one statement
ahead of the jobs, with exactly the outcome of each job making its own in turn (rows, ids in job order,
counters, events, the session guard), and a job that had one made for it and did not make it writes
nothing."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

import pytest
from psycopg import errors as pg_errors

from app.errors import SessionEnded
from app.services import messages as message_service
from app.storage.postgres import store as store_module
from app.storage.postgres.group_commit import Job as GroupJob
from app.storage.postgres.group_commit import JobFailed
from app.storage.postgres.repos import messages as pg_messages
from app.storage.postgres.repos.messages import LeadingAppendNotMade
from app.storage.postgres.store import PgStore
from app.storage.postgres.tx import PgTx
from app.storage.protocols import AppendJob, Tx
from app.storage.rows import MessageQuery
from tests.postgres.conftest import new_session

Job = tuple[Callable[[Tx], Any], AppendJob[Any] | None]

_TOOL_CALLS = [{"id": "c1", "type": "function", "function": {"name": "terminal", "arguments": "{}"}}]


def _append(session_id: str, messages: list[dict[str, Any]], *, reopen: bool = False) -> Job:
    """The append use case's writer job, and the append the store makes ahead for it."""
    job = message_service.append_job(session_id, messages, reopen=reopen)
    return job, job


def _sessions(store: PgStore, *ids: str, ended: tuple[str, ...] = ()) -> None:
    for sid in ids:
        new_session(store, sid)
    for sid in ended:
        store.write_sync(partial(_end_session, sid))


def _end_session(sid: str, tx: PgTx) -> None:
    tx.sessions.end_session(sid, "user_exit")


def _group(store: PgStore, jobs: list[Job], *, ahead: bool = True) -> list[Any]:
    fns = [fn for fn, _ in jobs]
    return store._run_group(fns, [lead for _, lead in jobs] if ahead else [])


def _state(store: PgStore, sid: str) -> tuple[int, int, float | None, list[tuple[str, Any, Any]]]:
    def read(tx: Tx) -> tuple[int, int, float | None, list[tuple[str, Any, Any]]]:
        row = tx.sessions.fetch_session(sid)
        assert row is not None
        page = tx.messages.to_messages(tx.messages.page(MessageQuery(sid)))
        shown = [(m["role"], m["content"], m["tool_calls"]) for m in page]
        return row["message_count"], row["tool_call_count"], row["ended_at"], shown

    result: tuple[int, int, float | None, list[tuple[str, Any, Any]]] = store.read_sync(read)
    return result


def _events(store: PgStore, sid: str) -> list[str]:
    return [kind for _, kind, _ in store.read_sync(lambda tx: tx.events.after(0, sid, 100))]


def _mixed_group(prefix: str) -> list[Job]:
    """Two sessions appended to twice (one with a batch holding tool calls) and an ended one reopened."""
    a, b, ended = f"{prefix}a", f"{prefix}b", f"{prefix}ended"
    return [
        _append(a, [{"role": "user", "content": "first"}]),
        _append(b, [{"role": "user", "content": "other"}]),
        _append(
            a,
            [
                {"role": "assistant", "content": "", "tool_calls": _TOOL_CALLS},
                {"role": "tool", "content": "ok"},
            ],
        ),
        _append(ended, [{"role": "user", "content": "again"}], reopen=True),
        _append(b, [{"role": "user", "content": "last"}]),
    ]


def test_leading_appends_give_what_each_job_gives_in_turn(
    store: PgStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    for prefix in ("lead-", "turn-"):
        _sessions(store, f"{prefix}a", f"{prefix}b", f"{prefix}ended", ended=(f"{prefix}ended",))
    one_by_one = _group(store, _mixed_group("turn-"), ahead=False)

    statements: list[str] = []
    written = pg_messages._written

    def counting(*args: Any) -> list[int]:
        statements.append(args[2])
        return written(*args)

    monkeypatch.setattr(pg_messages, "_written", counting)
    together = _group(store, _mixed_group("lead-"))
    # Only the reopened session's append, which its job makes after reopening, ran its own statement.
    assert [row["session_id"] for row in together[3]] == ["lead-ended"] and statements == ["lead-ended"]

    ahead = [row["id"] for i, rows in enumerate(together) if i != 3 for row in rows]
    assert ahead == sorted(ahead)  # numbered in the jobs' order
    assert len({row["id"] for rows in together for row in rows}) == 6
    assert [[(m["role"], m["content"]) for m in rows] for rows in together] == [
        [(m["role"], m["content"]) for m in rows] for rows in one_by_one
    ]
    for name in ("a", "b", "ended"):
        assert _state(store, f"lead-{name}") == _state(store, f"turn-{name}")
        assert _events(store, f"lead-{name}") == _events(store, f"turn-{name}")
    count, calls, _, shown = _state(store, "lead-a")
    assert (count, calls) == (3, 1) and shown[1][2] == _TOOL_CALLS


def test_only_the_appends_that_start_a_group_are_made_ahead(store: PgStore) -> None:
    """A job placed before an append may end its session: that append meets the ended session in turn."""
    _sessions(store, "x", "y")

    def end_x(tx: Tx) -> bool:
        return tx.sessions.end_session("x", "user_exit")

    jobs: list[Job] = [
        _append("x", [{"role": "user", "content": "before"}]),
        _append("y", [{"role": "user", "content": "beside"}]),
        (end_x, None),
        _append("x", [{"role": "user", "content": "after the end"}]),
    ]
    with pytest.raises(JobFailed) as failed:
        _group(store, jobs)
    assert failed.value.index == 3 and isinstance(failed.value.error, SessionEnded)
    assert _state(store, "x")[0] == 0  # the group rolled back whole

    results = _group(store, jobs[:3])
    assert [[m["content"] for m in rows] for rows in results[:2]] == [["before"], ["beside"]]
    assert [content for _, content, _ in _state(store, "x")[3]] == ["before"] and _state(store, "x")[
        2
    ] is not None


def test_a_missing_session_gets_nothing_written_and_its_error(store: PgStore) -> None:
    _sessions(store, "here")
    jobs = [_append("here", [{"role": "user", "content": "kept"}]), _append("gone", [{"role": "user"}])]
    with pytest.raises(JobFailed) as failed:
        _group(store, jobs)
    assert failed.value.index == 1 and type(failed.value.error).__name__ == "SessionNotFound"
    assert _state(store, "here")[0] == 0


def test_a_job_that_does_not_make_its_declared_append_gets_none_of_it(store: PgStore) -> None:
    _sessions(store, "p", "q")

    def other_work(tx: Tx) -> None:
        tx.sessions.set_model("q", "changed")

    jobs: list[Job] = [
        _append("p", [{"role": "user", "content": "fine"}]),
        (
            other_work,
            message_service.append_job("q", [{"role": "user", "content": "never asked for"}], reopen=False),
        ),
    ]
    with pytest.raises(JobFailed) as failed:
        _group(store, jobs)
    assert failed.value.index == 1 and isinstance(failed.value.error, LeadingAppendNotMade)
    assert _state(store, "p")[0] == 0 and _state(store, "q")[0] == 0

    # Through the lanes the job then runs alone, without the append made for it, and the rest regroup.
    store._lanes._commit([GroupJob(fn, lead) for fn, lead in jobs])
    assert _state(store, "p")[3] == [("user", "fine", None)] and _state(store, "q")[0] == 0
    q = store.read_sync(lambda tx: tx.sessions.fetch_session("q"))
    assert q is not None and q["model"] == "changed"


def test_appends_queued_through_the_lanes_are_made_together(
    store: PgStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Many clients' single appends, queued while both lanes are busy, go in as groups: every message once,
    in its session in the order it was answered, with its counters and its event. The store finds each
    job's append in the job itself (an ``AppendJob``), and makes a group's together."""
    sessions = [f"c{i}" for i in range(12)]
    _sessions(store, *sessions)
    made = store_module.make_leading_appends
    made_together: list[int] = []

    def counting(pg: Any, leads: Any) -> Any:
        made_together.append(len(leads))
        return made(pg, leads)

    monkeypatch.setattr(store_module, "make_leading_appends", counting)
    targets = [*sessions, *sessions[:6], *sessions]
    release = threading.Event()
    holding = threading.Semaphore(0)

    def hold(tx: Tx) -> None:
        holding.release()
        release.wait(60)

    with ThreadPoolExecutor(max_workers=len(targets) + 2) as pool:
        holders = []
        for _ in range(2):  # one at a time: a lane takes every job waiting
            holders.append(pool.submit(store.write_sync, hold))
            assert holding.acquire(timeout=10)
        futures = []
        for i, sid in enumerate(targets):
            fn, _ = _append(sid, [{"role": "user", "content": f"m{i}"}])
            futures.append(pool.submit(store.write_sync, fn))
        deadline = time.monotonic() + 10
        while store.writer_status().queue_depth < len(targets) and time.monotonic() < deadline:
            time.sleep(0.01)
        release.set()
        for holder in holders:
            holder.result(10)
        answered = [future.result(30) for future in futures]

    assert max(store.writer_status().batch_sizes) > 1
    assert made_together  # groups whose appends went in with one statement each
    ids = [rows[0]["id"] for rows in answered]
    assert len(set(ids)) == len(targets)
    for sid in sessions:
        # In the order the appends were numbered (the pool's threads may queue them in any order).
        mine = sorted(
            (rows[0]["id"], rows[0]["content"]) for rows in answered if rows[0]["session_id"] == sid
        )
        expected = [content for _, content in mine]
        assert sorted(expected) == sorted(f"m{i}" for i, target in enumerate(targets) if target == sid)
        count, _, _, shown = _state(store, sid)
        assert [content for _, content, _ in shown] == expected and count == len(expected)
        assert _events(store, sid).count("message.created") == len(expected)


def test_a_failing_leading_statement_leaves_the_jobs_to_run_again(
    store: PgStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The statement fails for no one job (a lock waited on past the group's bound): the first job runs
    alone and the others group again, and every append is answered and stored once."""
    sessions = ["f1", "f2", "f3", "f4"]
    _sessions(store, *sessions)
    made = store_module.make_leading_appends
    failures: list[tuple[Any, ...]] = []

    def once(*args: Any) -> Any:
        if not failures:
            failures.append(args)
            raise pg_errors.LockNotAvailable("canceling statement due to lock timeout")
        return made(*args)

    monkeypatch.setattr(store_module, "make_leading_appends", once)
    jobs = [_append(sid, [{"role": "user", "content": sid}]) for sid in sessions]
    with pytest.raises(JobFailed) as failed:
        _group(store, jobs)
    assert failed.value.index == 0 and isinstance(failed.value.error, pg_errors.LockNotAvailable)

    failures.clear()
    store._lanes._commit([GroupJob(fn, lead) for fn, lead in jobs])
    for sid in sessions:
        assert [content for _, content, _ in _state(store, sid)[3]] == [sid]
    assert len(failures) == 1  # the first group failed; the regrouped rest made theirs together
