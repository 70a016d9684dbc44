"""Two stores on one PostgreSQL database, as two replicas are: each hears the other's events, and exactly
one of them leads the background jobs."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from app.settings import Settings
from app.storage.commit_notice import CommitNotice
from app.storage.postgres.store import PgStore
from app.storage.protocols import Tx
from tests.conftest import TOKEN


def _store(url: str, home: Path) -> PgStore:
    return PgStore(Settings(home=home, api_token=TOKEN, titles_auto=False, database_url=url)).open()


def test_a_replica_hears_the_events_another_commits(pg_migrated_url: str, tmp_path: Path) -> None:
    a, b = _store(pg_migrated_url, tmp_path / "a"), _store(pg_migrated_url, tmp_path / "b")
    try:

        async def scenario() -> list[int]:
            heard: list[int] = []
            got = asyncio.Event()

            def on_commit(notice: CommitNotice) -> None:
                heard.extend(notice.event_ids)
                if heard:
                    got.set()

            b.subscribe(on_commit)

            def add(tx: Tx) -> None:
                tx.events.insert_many([("session.created", None, "{}", time.time())] * 3)

            await a.write(add)
            await asyncio.wait_for(got.wait(), timeout=10)
            return heard

        heard = asyncio.run(scenario())
        assert len(heard) == 3 and heard == sorted(heard)
    finally:
        a.close()
        b.close()


def test_exactly_one_replica_leads(pg_migrated_url: str, tmp_path: Path) -> None:
    a, b = _store(pg_migrated_url, tmp_path / "a"), _store(pg_migrated_url, tmp_path / "b")
    try:
        deadline = time.monotonic() + 20
        while not (a.leadership.holds_lock or b.leadership.holds_lock) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert a.leadership.holds_lock != b.leadership.holds_lock
        leader, other = (a, b) if a.leadership.holds_lock else (b, a)
        leader.close()
        deadline = time.monotonic() + 30
        while not other.leadership.holds_lock and time.monotonic() < deadline:
            time.sleep(0.2)
        assert other.leadership.holds_lock
    finally:
        for store in (a, b):
            store.close()
