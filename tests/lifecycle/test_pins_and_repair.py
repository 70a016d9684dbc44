"""Pins (our own table, honoured by prune, auto-prune and archive) and ``POST /maintenance/repair``."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from app.settings import Settings
from app.storage.sqlite.driver import sqlite3
from tests.api.problem_assert import assert_problem
from tests.lifecycle.helpers import agent_db, make_session, rows, stored_ids, stored_rows


def _three_old(home: Path) -> None:
    db = agent_db(home)
    for sid in ("keep", "drop", "other"):
        make_session(db, sid, messages=2, age_days=200, title=f"old {sid}")
    db.close()


def _pins(settings: Settings) -> list[str]:
    return [r["session_id"] for r in stored_rows(settings, "SELECT session_id FROM hs_session_pins")]


def test_pin_lives_in_our_table_and_shows_on_the_session(
    home: Path, client: TestClient, settings: Settings
) -> None:
    _three_old(home)
    assert client.get("/sessions/keep").json()["pinned"] is False
    before = stored_rows(settings, "SELECT * FROM sessions WHERE id = 'keep'")
    r = client.put("/sessions/keep/pin")
    assert r.status_code == 200 and r.json()["pinned"] is True and r.headers["ETag"]
    assert client.put("/sessions/keep/pin").json()["pinned"] is True  # idempotent
    assert client.get("/sessions/keep").json()["pinned"] is True
    assert client.get("/sessions/drop").json()["pinned"] is False
    listed = {i["id"]: i["pinned"] for i in client.get("/sessions").json()["items"]}
    assert listed == {"keep": True, "drop": False, "other": False}
    assert stored_rows(settings, "SELECT * FROM sessions WHERE id = 'keep'") == before  # no agent column
    assert _pins(settings) == ["keep"]
    assert client.delete("/sessions/keep/pin").json()["pinned"] is False
    assert client.delete("/sessions/keep/pin").status_code == 200
    assert _pins(settings) == []
    assert_problem(client.put("/sessions/nope/pin"), 404, "session_not_found", extra=("session_id",))
    assert_problem(client.delete("/sessions/nope/pin"), 404, "session_not_found", extra=("session_id",))


def test_prune_and_archive_never_touch_a_pinned_session(
    home: Path, client: TestClient, settings: Settings
) -> None:
    _three_old(home)
    client.put("/sessions/keep/pin")
    dry = client.post("/maintenance/prune", json={"dry_run": True}).json()
    assert dry["ids"] == ["drop", "other"]
    assert (
        client.post("/maintenance/prune", json={"title": "old", "session_ids": ["keep"]}).json()["pruned"]
        == 0
    )
    archived = client.post("/maintenance/archive", json={"title": "old"}).json()
    assert archived["ids"] == ["drop", "other"]
    assert client.get("/sessions/keep").json()["archived"] is False
    pruned = client.post("/maintenance/prune", json={"older_than_days": 1}).json()
    assert pruned["pruned"] == 2
    assert stored_ids(settings) == ["keep"]
    assert _pins(settings) == ["keep"]


def test_archive_leaves_a_pinned_member_of_the_lineage(
    home: Path, client: TestClient, settings: Settings
) -> None:
    db = agent_db(home)
    make_session(db, "root", messages=2, age_days=30, ended=False)
    db.end_session("root", "compression")
    make_session(db, "tip", messages=2, age_days=29, parent="root")
    db.close()
    client.put("/sessions/root/pin")
    assert client.post("/maintenance/archive", json={"older_than": "1d"}).json()["ids"] == ["tip"]
    archived = {r["id"]: r["archived"] for r in stored_rows(settings, "SELECT id, archived FROM sessions")}
    assert archived == {"root": 0, "tip": 1}


def test_deleting_a_session_removes_its_pin(home: Path, client: TestClient, settings: Settings) -> None:
    _three_old(home)
    for sid in ("keep", "drop"):
        client.put(f"/sessions/{sid}/pin")
    assert client.delete("/sessions/keep").status_code == 204
    assert _pins(settings) == ["drop"]
    if settings.database_url is None:
        # The agent deletes through its own connection (foreign keys on): the pin row goes too.
        db = agent_db(home)
        assert db.delete_session("drop")
        db.close()
    else:  # the agent never writes the PostgreSQL database: only the API deletes there
        assert client.delete("/sessions/drop").status_code == 204
    assert _pins(settings) == []


def test_repair_check_only_reports_a_healthy_store(
    home: Path, client: TestClient, sqlite_file_operation: None
) -> None:
    _three_old(home)
    r = client.post("/maintenance/repair", json={"check_only": True})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["healthy"] is True and body["problems"] == [] and body["strategy"] == "already_healthy"
    assert body["sessions"] == 3 and body["path"] == str(home / "state.db")
    assert client.post("/maintenance/repair").json()["repaired"] is False  # nothing to do, no backup
    assert not (home / "backups").exists() or not list((home / "backups").iterdir())


def _damage_fts(home: Path) -> None:
    """Drop one message from the word index and leave a stale row of a deleted message in the trigram one."""
    conn = sqlite3.connect(home / "state.db")
    with conn:
        first = conn.execute("SELECT MIN(id) FROM messages").fetchone()[0]
        conn.execute("DELETE FROM messages_fts WHERE rowid = ?", (first,))
        conn.execute("INSERT INTO messages_fts_trigram(rowid, content) VALUES (999999, 'ghost words')")
    conn.close()


def test_repair_finds_and_fixes_fts_drift_after_a_backup(
    home: Path, client: TestClient, sqlite_file_operation: None
) -> None:
    _three_old(home)
    messages = rows(home / "state.db", "SELECT * FROM messages ORDER BY id")
    _damage_fts(home)
    check = client.post("/maintenance/repair", json={"check_only": True}).json()
    assert check["healthy"] is False and check["repaired"] is False and check["backup_path"] is None
    assert check["problems"] == [
        "messages_fts: 1 message(s) missing from the search index",
        "messages_fts_trigram: 1 index row(s) of deleted messages",
    ]
    fixed = client.post("/maintenance/repair", json={}).json()
    assert fixed["repaired"] is True and fixed["error"] is None
    assert fixed["strategy"] == "index_missing:messages_fts, drop_orphans:messages_fts_trigram"
    backup = Path(fixed["backup_path"])
    assert backup.parent == home / "backups" and backup.stat().st_mode & 0o777 == 0o600
    assert rows(backup, "SELECT COUNT(*) AS n FROM messages_fts")[0]["n"] == len(messages) - 1  # before
    assert client.post("/maintenance/repair", json={"check_only": True}).json()["healthy"] is True
    assert rows(home / "state.db", "SELECT * FROM messages ORDER BY id") == messages
    hits = client.get("/search", params={"q": "question"}).json()
    assert hits["count"] >= 1


def test_repair_without_backup_and_busy(home: Path, client: TestClient, sqlite_file_operation: None) -> None:
    _three_old(home)
    _damage_fts(home)
    fixed = client.post("/maintenance/repair", json={"backup": False}).json()
    assert fixed["repaired"] is True and fixed["backup_path"] is None
    assert_problem(client.post("/maintenance/repair", json={"check": True}), 422)
