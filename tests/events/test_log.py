"""The event log itself: one row per effect, in the effect's transaction, and bounded retention."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, cast
from urllib.parse import quote

import orjson
import pytest
from fastapi.testclient import TestClient

from app.services.events import EventPruner
from app.settings import Settings
from app.storage.commit_notice import Changes
from app.storage.repos.events import Events
from app.storage.sqlite.driver import sqlite3
from app.storage.sqlite.store import Database
from tests.conftest import RawDatabase


@pytest.fixture
def raw(client: TestClient, settings: Settings) -> Iterator[sqlite3.Connection]:
    """A plain connection on the server's store (either backend)."""
    with RawDatabase(settings) as conn:
        yield cast(sqlite3.Connection, conn)


def _events(raw: sqlite3.Connection) -> list[tuple[str, str | None, Any]]:
    rows = raw.execute("SELECT type, session_id, data FROM hs_events ORDER BY id").fetchall()
    return [(t, s, orjson.loads(d)) for t, s, d in rows]


def _session(client: TestClient, **body: Any) -> str:
    response = client.post("/sessions", json={"source": "cli", **body})
    assert response.status_code == 201
    return str(response.json()["id"])


def test_one_compact_row_per_appended_message(client: TestClient, raw: sqlite3.Connection) -> None:
    sid = _session(client)
    batch = [{"role": "user", "content": "x" * 5000}, {"role": "assistant", "content": "y"}]
    items = client.post(f"/sessions/{sid}/messages", json={"messages": batch}).json()["items"]
    assert _events(raw) == [
        ("message.created", sid, {"session_id": sid, "message_id": items[0]["id"], "role": "user"}),
        ("message.created", sid, {"session_id": sid, "message_id": items[1]["id"], "role": "assistant"}),
    ]


def test_session_id_with_quotes_is_valid_json(client: TestClient, raw: sqlite3.Connection) -> None:
    # The agent accepts ids our API would refuse (its create_session is this INSERT); their events must
    # still be valid JSON.
    sid = 'we"ird\\id ✓'
    raw.execute("INSERT INTO sessions (id, source, started_at) VALUES (?, 'cli', ?)", (sid, time.time()))
    response = client.post(f"/sessions/{quote(sid, safe='')}/messages", json={"role": "user", "content": "r"})
    assert response.status_code == 201, response.text
    assert _events(raw)[0][2]["session_id"] == sid


def test_refused_append_leaves_no_event(client: TestClient, raw: sqlite3.Connection) -> None:
    sid = _session(client)
    client.post(f"/sessions/{sid}/end", json={"end_reason": "cli_close"})
    before = _events(raw)
    assert (
        client.post(f"/sessions/{sid}/messages", json={"role": "user", "content": "late"}).status_code == 409
    )
    assert _events(raw) == before
    # Appending with reopen records the reopening and the message, in that order.
    client.post(f"/sessions/{sid}/messages?reopen=true", json={"role": "user", "content": "back"})
    assert [e[0] for e in _events(raw)[len(before) :]] == ["session.updated", "message.created"]


def test_session_changes(client: TestClient, raw: sqlite3.Connection) -> None:
    sid = _session(client)
    client.patch(f"/sessions/{sid}", json={"title": "named", "archived": True})
    client.patch(f"/sessions/{sid}", json={"end_reason": "user_exit"})
    client.post(f"/sessions/{sid}/end", json={"end_reason": "again"})  # already ended: no event
    client.post(f"/sessions/{sid}/reopen")
    assert _events(raw) == [
        ("session.updated", sid, {"session_id": sid, "fields": ["archived", "title"]}),
        ("session.ended", sid, {"session_id": sid, "end_reason": "user_exit"}),
        ("session.updated", sid, {"session_id": sid, "fields": ["end_reason", "ended_at"]}),
    ]


def test_failed_patch_leaves_no_event(client: TestClient, raw: sqlite3.Connection) -> None:
    _session(client, title="taken")
    sid = _session(client)
    assert client.patch(f"/sessions/{sid}", json={"title": "taken"}).status_code == 409
    assert _events(raw) == []


def _fill(log: Events, ages_days: Sequence[float]) -> None:
    now = time.time()
    for age in ages_days:
        log.insert("message.created", "s", "{}", now - age * 86400)


def _memory_log() -> Events:
    conn = sqlite3.connect(":memory:")
    conn.executescript(
        "CREATE TABLE hs_events (id INTEGER PRIMARY KEY AUTOINCREMENT, type TEXT NOT NULL, "
        "session_id TEXT, data TEXT NOT NULL, created_at REAL NOT NULL)"
    )
    return Events(conn, Changes())


def _ids(log: Events) -> list[int]:
    return [r[0] for r in log.after(0, None, 1000)]


def test_prune_by_age_and_row_cap() -> None:
    log = _memory_log()
    _fill(log, [10, 9, 8, 3, 2, 1, 0])
    assert log.prune(older_than=time.time() - 7 * 86400, max_rows=100) == 3
    assert _ids(log) == [4, 5, 6, 7]
    assert log.prune(older_than=time.time() - 7 * 86400, max_rows=100) == 0
    assert log.prune(older_than=0, max_rows=2) == 2
    assert _ids(log) == [6, 7]
    # Everything old: the log empties, and ids keep growing afterwards (AUTOINCREMENT).
    assert log.prune(older_than=time.time() + 1, max_rows=100) == 2
    assert log.prune(older_than=time.time() + 1, max_rows=100) == 0
    _fill(log, [0])
    assert log.latest_id() == 8


def test_prune_works_in_chunks() -> None:
    log = _memory_log()
    _fill(log, [9] * 25 + [0] * 5)
    assert log.prune(older_than=time.time() - 86400, max_rows=100, chunk=10) == 10
    assert log.prune(older_than=time.time() - 86400, max_rows=100, chunk=10) == 10
    assert log.prune(older_than=time.time() - 86400, max_rows=100, chunk=10) == 5
    assert log.prune(older_than=time.time() - 86400, max_rows=100, chunk=10) == 0
    assert _ids(log) == list(range(26, 31))
    assert log.prune(older_than=0, max_rows=2, chunk=10) == 3
    assert _ids(log) == [29, 30]


def test_event_pruner_runs_through_the_writer(home: Path) -> None:
    db = Database(Settings(home=home, api_token="t")).open()
    try:
        db.write_sync(lambda tx: _fill(tx.events, [30, 20, 1, 0]))
        pruner = EventPruner(db, retention_days=7, max_rows=1, interval_s=3600)
        assert asyncio.run(pruner.run_once(chunk=1)) == 3  # one write job per chunk, until none is left
        assert db.read_sync(lambda tx: [r[0] for r in tx.events.after(0, None, 10)]) == [4]
    finally:
        db.close()
