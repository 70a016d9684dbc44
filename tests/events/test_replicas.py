"""What replicas need from the services: another process's commit, known only by its event ids, wakes the
hub's streams at once; background jobs run only while their process leads."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

from app.services import events as svc
from app.settings import Settings
from app.storage.commit_notice import CommitNotice
from app.storage.leadership import Job, supervise
from app.storage.sqlite.store import Database
from app.storage.sqlite.tx import SqliteTx


class Toggle:
    """A leadership the test hands out and takes back."""

    def __init__(self) -> None:
        self.on = False

    @property
    def leading(self) -> bool:
        return self.on

    async def while_leading(self, job: Job) -> None:
        await supervise(lambda: self.on, job, 0.01)


def _emit(n: int) -> Callable[[SqliteTx], range]:
    def write(tx: SqliteTx) -> range:
        for i in range(n):
            svc.emit(tx, svc.EventType.session_updated, "s1", {"i": i})
        last = tx.events.latest_id()
        return range(last - n + 1, last + 1)

    return write


async def _frame_ids(gen: AsyncIterator[bytes], count: int, timeout: float) -> list[int]:
    ids: list[int] = []
    while len(ids) < count:
        chunk = await asyncio.wait_for(gen.__anext__(), timeout)
        ids += [int(line[4:]) for line in chunk.decode().splitlines() if line.startswith("id: ")]
    return ids


def test_a_commit_heard_from_another_replica_wakes_the_streams(settings: Settings) -> None:
    async def scenario() -> tuple[list[int], range]:
        db = Database(settings).open()
        other = Database(settings).open()  # another server on the same data: its commits notify nobody here
        # The poll would find the events too, but only after a minute: the notice must do it.
        hub = svc.EventHub(db, poll_s=60)
        await hub.start()
        try:
            gen = svc.stream(db, hub, session_id="s1", last_id=None, keepalive_s=30)
            await gen.__anext__()  # subscribed
            # One local event, received: the stream has read its replay and now waits for live frames.
            await db.write(_emit(1))
            await _frame_ids(gen, 1, timeout=10)
            ids = await other.write(_emit(3))
            hub.on_commit(CommitNotice.of_events(ids))
            received = await _frame_ids(gen, 3, timeout=10)
            await gen.aclose()
            return received, ids
        finally:
            await hub.stop()
            other.close()
            db.close()

    received, ids = asyncio.run(scenario())
    assert received == list(ids)


def test_the_event_prune_runs_only_while_its_process_leads(settings: Settings) -> None:
    async def scenario() -> tuple[int, int, int]:
        db = Database(settings).open()
        leadership = Toggle()
        pruner = svc.EventPruner(db, retention_days=30, max_rows=1, interval_s=0.02, leadership=leadership)
        try:
            await db.write(_emit(5))
            pruner.start()
            await asyncio.sleep(0.3)
            while_following = pruner.dropped
            leadership.on = True
            async with asyncio.timeout(10):
                while pruner.dropped < 4:
                    await asyncio.sleep(0.01)
            leadership.on = False
            await asyncio.sleep(0.1)  # the supervisor cancels the loop on its next look
            await db.write(_emit(3))
            await asyncio.sleep(0.3)
            left = len(await db.read(lambda tx: tx.events.after(0, None, 100)))
            return while_following, pruner.dropped, left
        finally:
            await pruner.stop()
            db.close()

    while_following, dropped, left = asyncio.run(scenario())
    assert while_following == 0
    assert dropped == 4
    assert left == 4  # the newest of the first five, and the three written after leadership was lost
