"""The event hub reads the log once for all its streams, and a stream that falls behind loses nothing."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

from app.services import events as svc
from app.settings import Settings
from app.storage.sqlite.store import Database
from app.storage.sqlite.tx import SqliteTx

T = TypeVar("T")


class CountingDatabase(Database):
    """Counts the reads that happen while ``counting`` is set."""

    counting = False
    reads = 0

    async def read(self, fn: Callable[[SqliteTx], T]) -> T:
        if self.counting:
            self.reads += 1
        return await super().read(fn)


def _emit(n: int, session_id: str | None = None) -> Callable[[SqliteTx], None]:
    def write(tx: SqliteTx) -> None:
        for i in range(n):
            svc.emit(tx, svc.EventType.session_updated, session_id, {"i": i})

    return write


async def _frames(gen: AsyncIterator[bytes], count: int) -> list[int]:
    ids: list[int] = []
    while len(ids) < count:
        chunk = await asyncio.wait_for(gen.__anext__(), 5)
        ids += [int(line[4:]) for line in chunk.decode().splitlines() if line.startswith("id: ")]
    return ids


def test_many_streams_cost_one_read_per_look(settings: Settings) -> None:
    async def scenario() -> tuple[int, list[list[int]]]:
        db = CountingDatabase(settings)
        db.open()
        hub = svc.EventHub(db, poll_s=60)
        await hub.start()
        try:
            streams = [svc.stream(db, hub, session_id=None, last_id=None, keepalive_s=30) for _ in range(50)]
            for gen in streams:
                await gen.__anext__()  # subscribed: the "retry" frame
            await db.write(_emit(1))
            for gen in streams:
                await _frames(gen, 1)  # each stream has read its (empty) replay and now waits live
            db.counting = True
            await db.write(_emit(3))
            received = [await _frames(gen, 3) for gen in streams]
            reads = db.reads
            for gen in streams:
                await gen.aclose()
            return reads, received
        finally:
            await hub.stop()
            db.close()

    reads, received = asyncio.run(scenario())
    assert all(ids == received[0] for ids in received) and len(received[0]) == 3
    # One tail read of the log, plus at most one empty look that ends the fan-out loop; never one per stream.
    assert reads <= 2, reads


def test_a_stream_that_falls_behind_resyncs_from_the_log(settings: Settings) -> None:
    async def scenario() -> tuple[list[int], int, list[int]]:
        db = Database(settings).open()
        hub = svc.EventHub(db, poll_s=60, queue_events=4)
        await hub.start()
        try:
            slow = svc.stream(db, hub, session_id=None, last_id=None, keepalive_s=30)
            await slow.__anext__()
            for _ in range(5):  # more than the slow stream's queue holds while it reads nothing
                await db.write(_emit(3))
                await asyncio.sleep(svc.FAN_OUT_WINDOW_MIN_S * 3)
            expected: list[int] = await db.read(
                lambda tx: [r[0] for r in tx.conn.execute("SELECT id FROM hs_events ORDER BY id")]
            )
            got = await _frames(slow, len(expected))
            await slow.aclose()
            return got, hub.dropped_total, expected
        finally:
            await hub.stop()
            db.close()

    got, dropped, expected = asyncio.run(scenario())
    assert got == expected and len(expected) == 15
    assert dropped > 0


def test_a_session_stream_gets_only_its_session(settings: Settings) -> None:
    async def scenario() -> list[Any]:
        db = Database(settings).open()
        hub = svc.EventHub(db, poll_s=60)
        await hub.start()
        try:
            gen = svc.stream(db, hub, session_id="mine", last_id=None, keepalive_s=30)
            await gen.__anext__()
            await db.write(_emit(2, "other"))
            await db.write(_emit(1, "mine"))
            chunk = (await asyncio.wait_for(gen.__anext__(), 5)).decode()
            await gen.aclose()
            return [line for line in chunk.splitlines() if line.startswith("data: ")]
        finally:
            await hub.stop()
            db.close()

    assert asyncio.run(scenario()) == ['data: {"i":0}']
