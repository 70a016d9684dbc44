"""Deferred FTS indexing of big imports: the backlog, the background indexer, the agent's triggers meanwhile,
``wait_for_index`` and what search and stats report while messages wait.

Both backends defer a big import's indexing: SQLite suspends the agent's FTS triggers and queues id runs
in ``hs_fts_backlog`` (the tests on :func:`db` look inside the file), PostgreSQL stores the rows with
``hs_search_ready = 0`` (``app/storage/postgres/repos/indexing.py``); the reports, ``wait_for_index``, search
and stats are checked on both."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.services import transfer
from app.services.fts_indexer import FtsIndexer
from app.settings import Settings
from app.storage.backends import open_store
from app.storage.repos.fts_backlog import FtsBacklog
from app.storage.sqlite.driver import sqlite3
from app.storage.sqlite.store import Database
from tests.conftest import TOKEN, count_rows
from tests.lifecycle.helpers import agent_db

FTS = ("messages_fts", "messages_fts_trigram")


def jsonl(sessions: int, per_session: int, tag: str = "") -> bytes:
    """``sessions`` sessions of ``per_session`` messages; every message carries a unique searchable word."""
    lines = []
    for s in range(sessions):
        messages = [
            {
                "role": "user" if m % 2 == 0 else "assistant",
                "content": f"word{tag}s{s}m{m} shared 東京 text",
                "timestamp": 1_700_000_000.0 + s * 100 + m,
            }
            for m in range(per_session)
        ]
        lines.append({"id": f"imp{tag}-{s}", "source": "cli", "started_at": 1.7e9 + s, "messages": messages})
    return b"".join(orjson.dumps(x) + b"\n" for x in lines)


def fts_state(path: Path) -> dict[str, Any]:
    """Both FTS indexes pass integrity-check; rows each, and messages missing from or extra in each."""
    conn = sqlite3.connect(path)
    try:
        out: dict[str, Any] = {}
        for table in FTS:
            conn.execute(f"INSERT INTO {table}({table}) VALUES('integrity-check')")
            out[f"{table}_rows"] = conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
            out[f"{table}_missing"] = conn.execute(
                f"SELECT COUNT(*) FROM messages WHERE id NOT IN (SELECT rowid FROM {table})"
            ).fetchone()[0]
            out[f"{table}_extra"] = conn.execute(
                f"SELECT COUNT(*) FROM {table} WHERE rowid NOT IN (SELECT id FROM messages)"
            ).fetchone()[0]
        out["messages"] = conn.execute("SELECT COUNT(*) FROM messages").fetchone()[0]
        out["backlog"] = conn.execute("SELECT COUNT(*) FROM hs_fts_backlog").fetchone()[0]
        out["triggers"] = sorted(
            r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        )
        return out
    finally:
        conn.close()


def complete(state: dict[str, Any], messages: int) -> bool:
    """Every message indexed exactly once in both tables and nothing queued."""
    return (
        state["messages"] == messages
        and state["backlog"] == 0
        and all(
            state[f"{t}_rows"] == messages and state[f"{t}_missing"] == 0 and state[f"{t}_extra"] == 0
            for t in FTS
        )
    )


@pytest.fixture
def db(settings: Settings, sqlite_only: None) -> Iterator[Database]:
    """The SQLite store opened without a server (so no indexer runs unless a test runs one): the backlog
    and its indexer are SQLite's."""
    database = Database(settings).open()
    try:
        yield database
    finally:
        database.close()


def _import(db: Database, body: bytes) -> transfer.ImportReport:
    return asyncio.run(transfer.import_stream(db, io.BytesIO(body), transfer.ImportRun("skip", False)))


def test_a_big_import_queues_exact_runs_and_leaves_the_triggers(db: Database) -> None:
    before = fts_state(db.path)
    report = _import(db, jsonl(60, 25))  # 1,500 messages: more than one writer job indexes inline
    assert report.messages == 1500 and report.index_pending == 1500
    state = fts_state(db.path)
    assert state["triggers"] == before["triggers"]  # the agent's six FTS triggers are all back
    assert state["messages_fts_rows"] == 0 and state["messages_fts_trigram_rows"] == 0
    conn = sqlite3.connect(db.path)
    runs = conn.execute("SELECT first_id, last_id FROM hs_fts_backlog ORDER BY first_id").fetchall()
    ids = [r[0] for r in conn.execute("SELECT id FROM messages ORDER BY id")]
    conn.close()
    assert sum(last - first + 1 for first, last in runs) == 1500
    assert [i for first, last in runs for i in range(first, last + 1)] == ids


def test_a_small_import_is_indexed_inline(db: Database) -> None:
    report = _import(db, jsonl(10, 10))
    assert report.index_pending == 0
    assert complete(fts_state(db.path), 100)


def test_the_indexer_drains_the_backlog_in_slices(db: Database) -> None:
    _import(db, jsonl(40, 50))

    async def drain() -> None:
        await FtsIndexer(db, slice_messages=300).drain()

    asyncio.run(drain())
    assert complete(fts_state(db.path), 2000)


def test_agent_delete_and_update_before_indexing_are_harmless(db: Database, home: Path) -> None:
    _import(db, jsonl(30, 40))  # 1,200 messages, none indexed yet
    agent = agent_db(home)
    assert agent.delete_session("imp-3")
    first_user = agent.get_messages("imp-7")[4]["id"]
    assert agent.rewind_to_message("imp-7", first_user)["rewound_count"] == 36  # UPDATE trigger indexes these
    agent.append_message("imp-9", "user", content="appended by the agent meanwhile")
    agent.close()
    state = fts_state(db.path)
    assert state["messages_fts_rows"] == 37  # the 36 updated rows and the agent's new one
    asyncio.run(FtsIndexer(db).drain())
    assert complete(fts_state(db.path), 1200 - 40 + 1)
    agent = agent_db(home)
    hits = agent.search_messages("words7m2")  # kept active by the rewind, indexed by our indexer
    assert [h["session_id"] for h in hits] == ["imp-7"]
    agent.close()


def test_replacing_an_imported_session_before_it_is_indexed(db: Database) -> None:
    _import(db, jsonl(30, 40))
    again = asyncio.run(
        transfer.import_stream(db, io.BytesIO(jsonl(30, 40)), transfer.ImportRun("replace", False))
    )
    assert again.replaced == 30
    asyncio.run(FtsIndexer(db).drain())
    assert complete(fts_state(db.path), 1200)


def test_dry_run_queues_nothing(db: Database) -> None:
    report = asyncio.run(
        transfer.import_stream(db, io.BytesIO(jsonl(30, 40)), transfer.ImportRun("skip", True))
    )
    assert report.messages == 1200 and report.index_pending == 0
    assert fts_state(db.path)["backlog"] == 0


def _client(settings: Settings) -> TestClient:
    return TestClient(create_app(settings), headers={"Authorization": f"Bearer {TOKEN}"})


def _post(client: TestClient, body: bytes, **params: str) -> dict:
    r = client.post("/import", params=params, content=body, headers={"content-type": "application/jsonl"})
    assert r.status_code == 200, r.text
    return r.json()


def test_wait_for_index_answers_search_ready(settings: Settings) -> None:
    with _client(settings) as client:
        report = _post(client, jsonl(50, 30), wait_for_index="true")
        assert report["messages"] == 1500 and report["index_pending"] == 0
        found = client.get("/search", params={"q": "words49m29"}).json()
        assert [r["session_id"] for r in found["results"]] == ["imp-49"]
        assert "indexing" not in found
        assert client.get("/stats").json()["indexing"] == {"pending_messages": 0}
    assert count_rows(settings, "messages") == 1500
    if settings.database_url is None:
        assert complete(fts_state(settings.db_path), 1500)


def test_search_and_stats_report_pending_messages(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(FtsIndexer, "start", lambda self: None)  # hold the backlog still
    pending = 1500
    with _client(settings) as client:
        report = _post(client, jsonl(50, 30))
        assert report["index_pending"] == pending
        assert client.get("/stats").json()["indexing"] == {"pending_messages": pending}
        before = client.get("/search", params={"q": "words49m29"}).json()
        assert before["results"] == [] and before["indexing"] == {"pending_messages": pending}
        indexer: FtsIndexer = client.app.state.fts_indexer  # type: ignore[attr-defined]
        assert client.portal is not None
        client.portal.call(indexer.drain)
        found = client.get("/search", params={"q": "words49m29"}).json()
        assert [r["session_id"] for r in found["results"]] == ["imp-49"] and "indexing" not in found
        assert client.get("/stats").json()["indexing"] == {"pending_messages": 0}


def test_the_server_indexes_a_backlog_left_by_an_earlier_run(settings: Settings, db: Database) -> None:
    _import(db, jsonl(40, 50))
    db.close()
    with _client(settings) as client:
        for _ in range(200):
            if client.get("/stats").json()["indexing"]["pending_messages"] == 0:
                break
            asyncio.run(asyncio.sleep(0.05))
        assert client.get("/stats").json()["indexing"] == {"pending_messages": 0}
    assert complete(fts_state(settings.db_path), 2000)


def test_a_failing_slice_is_retried_at_the_next_drain(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    _import(db, jsonl(30, 40))
    real = FtsBacklog.index_next_slice

    def broken(self: FtsBacklog, max_messages: int) -> int | None:
        raise sqlite3.OperationalError("database is locked")

    indexer = FtsIndexer(db)
    monkeypatch.setattr(FtsBacklog, "index_next_slice", broken)
    asyncio.run(indexer.drain())  # logged, not raised
    assert fts_state(db.path)["backlog"] > 0
    monkeypatch.setattr(FtsBacklog, "index_next_slice", real)
    asyncio.run(indexer.drain())
    assert complete(fts_state(db.path), 1200)


@pytest.mark.parametrize(("sessions", "per_session", "pending"), [(50, 30, 1500), (10, 20, 0)])
def test_an_import_reports_what_it_left_to_the_indexer(
    settings: Settings, sessions: int, per_session: int, pending: int
) -> None:
    """On each backend: a big import leaves its messages to the indexer and says how many, a small one is
    indexed when it answers; a dry run leaves nothing."""
    store = open_store(settings)
    try:
        body = jsonl(sessions, per_session, tag="x")
        dry = asyncio.run(transfer.import_stream(store, io.BytesIO(body), transfer.ImportRun("skip", True)))
        assert (dry.index_pending, store.read_sync(lambda tx: tx.indexing.pending_messages())) == (0, 0)
        report = asyncio.run(
            transfer.import_stream(store, io.BytesIO(body), transfer.ImportRun("skip", False))
        )
        assert report.messages == sessions * per_session and report.index_pending == pending
        assert store.read_sync(lambda tx: tx.indexing.pending_messages()) == pending
    finally:
        store.close()
