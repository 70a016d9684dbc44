"""The writer's commit notices: published on the event loop after COMMIT, carrying exactly what the
committed jobs wrote (a job that rolled back adds nothing), and nothing for a commit that carried nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from app.domain.records import NewSession
from app.services.events import EventType, emit
from app.settings import Settings
from app.storage.commit_notice import CommitNotice
from app.storage.sqlite.store import Database
from app.storage.sqlite.tx import SqliteTx
from tests.conftest import TOKEN


def _session_and_turn(tx: SqliteTx) -> None:
    tx.sessions.insert_session("s1", NewSession(source="cli"))
    tx.messages.insert_messages("s1", [{"role": "user", "content": "hi"}])
    emit(tx, EventType.session_updated, "s1", {"session_id": "s1"})


def _emit_then_fail(tx: SqliteTx) -> None:
    emit(tx, EventType.session_updated, "s2", {"session_id": "s2"})
    tx.sessions.insert_session("s2", NewSession(source="cli"))
    raise ValueError("this job's writes roll back")


def test_notices_carry_what_committed_and_reach_the_loop(tmp_path: Path) -> None:
    db = Database(Settings(home=tmp_path, api_token=TOKEN, titles_auto=False)).open()
    try:
        notices = asyncio.run(_run(db))
        ids = db.read_sync(lambda tx: [r[0] for r in tx.conn.execute("SELECT id FROM hs_events ORDER BY id")])
    finally:
        db.close()
    assert len(notices) == 1, notices  # the job that only read produced no notice
    (notice,) = notices
    assert list(notice.event_ids) == ids and len(ids) == 1  # the failing job's event rolled back
    assert notice.message_sessions == {"s1"}
    assert not notice.fts_backlog


async def _run(db: Database) -> list[CommitNotice]:
    assert db.writer is not None
    seen: list[CommitNotice] = []
    loop = asyncio.get_running_loop()

    def on_commit(notice: CommitNotice) -> None:
        assert asyncio.get_running_loop() is loop
        seen.append(notice)

    unsubscribe = db.writer.subscribe(on_commit)
    writer_side: list[CommitNotice] = []
    db.writer.commit_hooks.append(writer_side.append)
    # One group commit: the failing job's event and session are rolled back to its savepoint.
    first = db.writer.submit(_session_and_turn, on_handle=True)
    failing = db.writer.submit(_emit_then_fail, on_handle=True)
    await asyncio.wrap_future(first)
    with pytest.raises(ValueError):
        await asyncio.wrap_future(failing)
    await db.write(lambda tx: tx.events.latest_id())  # a commit that wrote nothing
    await asyncio.sleep(0.05)
    unsubscribe()
    await db.write(_session_and_turn_two)
    await asyncio.sleep(0.05)
    assert len(writer_side) == 2  # hooks on the writer thread see every notice, the loop only subscribed ones
    return seen


def _session_and_turn_two(tx: SqliteTx) -> None:
    tx.sessions.insert_session("s3", NewSession(source="cli"))
    tx.messages.insert_messages("s3", [{"role": "user", "content": "hi"}])
