"""POST /maintenance/prune and VACUUM — reference checks 11.13 (131–134, 138) and file shrinking."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.services import maintenance
from app.settings import Settings
from tests.conftest import LiveServer, count_rows
from tests.lifecycle.helpers import agent_db, make_session, rows, stored_ids, stored_rows


def _searchable(client: TestClient, q: str) -> set[str]:
    """The sessions whose messages a search for ``q`` finds."""
    r = client.get("/search", params={"q": q, "limit": 50})
    assert r.status_code == 200, r.text
    return {hit["session_id"] for hit in r.json()["results"]}


def test_prune_only_old_ended_sessions(home: Path, client: TestClient, settings: Settings) -> None:
    db = agent_db(home)
    make_session(db, "A", age_days=100)
    make_session(db, "B", age_days=10)
    make_session(db, "C", age_days=200, ended=False)  # open: never pruned however old
    db.close()
    assert _searchable(client, "question") == {"A", "B", "C"}
    r = client.post("/maintenance/prune", json={"older_than_days": 90})
    assert r.status_code == 200, r.text
    assert r.json()["pruned"] == 1 and r.json()["ids"] is None
    assert stored_ids(settings) == ["B", "C"]
    assert count_rows(settings, "messages", "session_id = 'A'") == 0
    assert _searchable(client, "question") == {"B", "C"}  # A's messages are no longer found
    if settings.database_url is None:
        fts = rows(
            home / "state.db", "SELECT COUNT(*) AS n FROM messages_fts WHERE messages_fts MATCH 'question'"
        )
        assert fts == [{"n": 2}]  # A's FTS rows went with its messages


def test_prune_default_is_90_days_and_source_filter(
    home: Path, client: TestClient, settings: Settings
) -> None:
    db = agent_db(home)
    make_session(db, "tg", source="telegram", age_days=100)
    make_session(db, "cli", source="cli", age_days=100)
    db.close()
    assert client.post("/maintenance/prune", json={"source": "telegram"}).json()["pruned"] == 1
    assert stored_ids(settings) == ["cli"]
    assert client.post("/maintenance/prune").json()["pruned"] == 1  # no body: 90 days, every source


def test_prune_chain_orphans_surviving_children(home: Path, client: TestClient, settings: Settings) -> None:
    db = agent_db(home)
    make_session(db, "A", age_days=200)
    make_session(db, "B", parent="A", age_days=150)
    make_session(db, "C", parent="B", age_days=5)
    make_session(db, "D", parent="C", age_days=1)
    db.close()
    assert client.post("/maintenance/prune", json={"older_than_days": 90}).json()["pruned"] == 2
    parents = {
        r["id"]: r["parent_session_id"]
        for r in stored_rows(settings, "SELECT id, parent_session_id FROM sessions")
    }
    assert parents == {"C": None, "D": "C"}


def test_prune_whole_chain_when_all_old(home: Path, client: TestClient, settings: Settings) -> None:
    db = agent_db(home)
    make_session(db, "A", age_days=200)
    make_session(db, "B", parent="A", age_days=150)
    make_session(db, "C", parent="B", age_days=120)
    db.close()
    assert client.post("/maintenance/prune", json={"older_than_days": 90}).json()["pruned"] == 3
    assert stored_ids(settings) == []


def test_dry_run_lists_candidates_and_deletes_nothing(
    home: Path, client: TestClient, settings: Settings
) -> None:
    db = agent_db(home)
    make_session(db, "A", age_days=100, messages=5)
    make_session(db, "B", age_days=100, ended=False)
    db.close()
    body = client.post("/maintenance/prune", json={"older_than_days": 90, "dry_run": True}).json()
    assert body["dry_run"] and body["pruned"] == 1 and body["ids"] == ["A"] and body["messages"] == 5
    assert body["reclaimable_bytes"] > 0
    assert stored_ids(settings) == ["A", "B"]
    assert count_rows(settings, "messages", "session_id = 'A'") == 5


def test_prune_in_small_batches(
    home: Path, client: TestClient, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(maintenance, "PRUNE_BATCH_MESSAGES", 4)
    db = agent_db(home)
    make_session(db, "big", age_days=100, messages=13)  # a job of its own, never split
    for i in range(5):
        make_session(db, f"s{i}", age_days=100, messages=2)
    make_session(db, "keep", age_days=1)
    db.close()
    commits = client.app.state.db.writer.commits  # type: ignore[attr-defined]
    body = client.post("/maintenance/prune", json={"older_than_days": 90}).json()
    assert body["pruned"] == 6 and body["messages"] == 23
    # [big], [s0, s1], [s2, s3], [s4]: whole sessions per job, within the budget unless one is bigger.
    assert client.app.state.db.writer.commits - commits >= 4  # type: ignore[attr-defined]
    assert stored_ids(settings) == ["keep"]
    assert count_rows(settings, "messages") == 3


def test_prune_then_vacuum_shrinks_the_file(
    home: Path, client: TestClient, sqlite_file_operation: None
) -> None:
    db = agent_db(home)
    long_text = " ".join(f"mot{i} 東京{i}" for i in range(400))
    for i in range(40):
        sid = make_session(db, f"s{i:02d}", age_days=100 if i < 36 else 0, messages=0)
        for j in range(10):
            db.append_message(sid, "user", content=f"{long_text} {i} {j}")
    db.close()
    client.post("/maintenance/optimize")
    before = os.path.getsize(home / "state.db")
    fts_before = client.get("/stats", params={"include_fts": "true"}).json()["fts_bytes"]
    assert client.post("/maintenance/prune", json={"older_than_days": 90}).json()["pruned"] == 36
    assert client.get("/stats").json()["freelist_bytes"] > 0
    r = client.post("/maintenance/vacuum")
    assert r.status_code == 200, r.text
    after = os.path.getsize(home / "state.db")
    assert after < before / 3, (before, after)
    assert r.json()["wal_bytes"] == 0
    stats = client.get("/stats", params={"include_fts": "true"}).json()
    assert stats["freelist_bytes"] == 0 and stats["fts_bytes"] < fts_before / 3
    # Writer and readers survived the VACUUM.
    hits = rows(
        home / "state.db",
        "SELECT COUNT(*) AS n FROM messages_fts_trigram WHERE messages_fts_trigram MATCH '東京3'",
    )
    assert hits[0]["n"] == 40
    assert client.get("/stats").json()["sessions"] == 4


def test_backup_is_a_consistent_copy(home: Path, client: TestClient, sqlite_file_operation: None) -> None:
    db = agent_db(home)
    make_session(db, "s1", messages=4)
    db.close()
    r = client.post("/maintenance/backup")
    assert r.status_code == 200, r.text
    body = r.json()
    path = home / "backups" / body["name"]
    assert path.exists() and body["bytes"] == path.stat().st_size
    assert rows(path, "SELECT COUNT(*) AS n FROM messages") == [{"n": 4}]
    assert agent_db(home).get_session("s1") is not None


def test_writes_and_reads_keep_working_around_vacuum(
    home: Path, client: TestClient, sqlite_file_operation: None
) -> None:
    db = agent_db(home)
    for i in range(20):
        make_session(db, f"s{i:02d}", messages=10, age_days=100 if i < 15 else 0)
    db.close()
    client.post("/maintenance/prune", json={"older_than_days": 90})
    database = client.app.state.db  # type: ignore[attr-defined]
    stop = threading.Event()
    written: list[int] = []

    def writer() -> None:
        n = 0
        while not stop.is_set():
            n += 1
            database.write_sync(
                lambda tx, n=n: tx.conn.execute("INSERT OR REPLACE INTO state_meta VALUES ('hs_t', ?)", (n,))
            )
            written.append(n)

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        assert client.post("/maintenance/vacuum").status_code == 200
        assert client.post("/maintenance/vacuum").status_code == 200
    finally:
        stop.set()
        thread.join()
    assert written and rows(home / "state.db", "SELECT value FROM state_meta WHERE key = 'hs_t'") == [
        {"value": str(written[-1])}
    ]
    assert client.get("/stats").json()["sessions"] == 5


def test_live_server_streams_the_export(live_server: LiveServer) -> None:
    db = agent_db(live_server.home)
    for i in range(3):
        make_session(db, f"s{i}", messages=4)
    db.close()
    with live_server.client() as http, http.stream("GET", "/export.jsonl") as resp:
        assert resp.status_code == 200
        assert resp.headers.get("transfer-encoding") == "chunked"
        body = b"".join(resp.iter_bytes())
    assert body.count(b"\n") == 3
