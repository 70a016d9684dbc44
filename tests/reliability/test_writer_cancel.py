"""A caller cancelled while its write is queued must not kill the writer thread."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from app.settings import Settings
from app.storage.sqlite.driver import sqlite3
from app.storage.sqlite.store import Database


def test_cancelled_queued_write_is_skipped_and_writer_survives(tmp_path: Path) -> None:
    db = Database(Settings(home=tmp_path, api_token="t")).open()
    gate = threading.Event()
    try:

        def slow(conn: sqlite3.Connection) -> None:
            gate.wait(5)

        def insert(conn: sqlite3.Connection) -> None:
            conn.execute("INSERT INTO state_meta(key, value) VALUES ('cancelled', 'x')")

        async def scenario() -> None:
            blocker = asyncio.ensure_future(db.write(lambda tx: slow(tx.conn)))
            await asyncio.sleep(0.05)  # the writer is now inside ``slow``
            victim = asyncio.ensure_future(db.write(lambda tx: insert(tx.conn)))
            await asyncio.sleep(0.05)
            victim.cancel()
            # The cancellation reaches the writer's future on the next loop iteration; let it land before the
            # writer moves on (a cancel that arrives after the job started is correctly ignored).
            await asyncio.sleep(0.05)
            gate.set()
            await blocker
            after = db.write(
                lambda tx: tx.conn.execute("INSERT INTO state_meta(key, value) VALUES ('after', 'y')")
            )
            await asyncio.wait_for(after, timeout=5)  # a dead writer would hang here forever

        asyncio.run(scenario())
        assert db.writer is not None and db.writer.alive
        keys = db.read_sync(lambda tx: [r[0] for r in tx.conn.execute("SELECT key FROM state_meta")])
        assert "after" in keys and "cancelled" not in keys
    finally:
        gate.set()
        db.close()
