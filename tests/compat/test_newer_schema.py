"""A state.db with objects we do not know (here: FTS triggers of no agent build we know): served read-only,
every write refused with 503 ``agent_file_read_only``, and the file left byte-identical."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.errors import AgentFileReadOnly
from app.main import create_app
from app.services.events import EventPruner
from app.settings import Settings
from app.storage.sqlite import migrate
from app.storage.sqlite.connection import open_connection
from app.storage.sqlite.driver import sqlite3
from app.storage.sqlite.store import Database
from tests.compat.newer import NEWER_VERSION, file_digest, migrate_to_newer, write_with_agent
from tests.conftest import TOKEN


@pytest.fixture(params=["adopted_before", "never_adopted"])
def newer_home(request: pytest.FixtureRequest, home: Path, settings: Settings) -> tuple[Path, str]:
    """A HERMES_HOME whose state.db is at schema 30: either served by us at 22 first (our tables and indexes
    are in it), or migrated by the newer agent before we ever saw it (none of ours are)."""
    sid = write_with_agent(home / "state.db")
    if request.param == "adopted_before":
        Database(settings).open().close()
    migrate_to_newer(home / "state.db")
    return home, sid


@pytest.fixture
def ro_client(newer_home: tuple[Path, str], home: Path) -> Iterator[TestClient]:
    """The app on the newer file, with every background job that writes switched on."""
    (home / "config.yaml").write_text("sessions:\n  auto_prune: true\n  retention_days: 1\n")
    settings = Settings(home=home, api_token=TOKEN, titles_auto=True)
    with TestClient(create_app(settings), headers={"Authorization": f"Bearer {TOKEN}"}) as c:
        yield c


def _assert_too_new(response_status: int, body: dict[str, object], content_type: str) -> None:
    assert response_status == 503, body
    assert content_type.startswith("application/problem+json")
    assert body["code"] == "agent_file_read_only"
    detail = str(body["detail"])
    # It names what we do not know and what still works, and gives no advice to upgrade: there is none.
    assert str(NEWER_VERSION) in detail and "trigger messages_fts_insert" in detail
    assert "searching" in detail and "Upgrade" not in detail


def test_reads_work_and_writes_are_refused_and_the_file_is_untouched(
    newer_home: tuple[Path, str], home: Path
) -> None:
    db_file = home / "state.db"
    before = file_digest(db_file)
    (home / "config.yaml").write_text("sessions:\n  auto_prune: true\n  retention_days: 1\n")
    settings = Settings(home=home, api_token=TOKEN, titles_auto=True)
    _, sid = newer_home
    with TestClient(create_app(settings), headers={"Authorization": f"Bearer {TOKEN}"}) as c:
        ready = c.get("/readyz")
        assert ready.status_code == 200
        assert ready.json()["status"] == "read_only"
        assert ready.json()["agent_schema_version"] == NEWER_VERSION
        assert ready.json()["checks"]["schema_supported"] is False
        assert "read-only" in ready.json()["reason"]

        listed = c.get("/sessions")
        assert listed.status_code == 200, listed.text
        assert [s["id"] for s in listed.json()["items"]] == [sid]
        assert c.get(f"/sessions/{sid}").json()["title"] == "from the agent"
        messages = c.get(f"/sessions/{sid}/messages")
        assert messages.status_code == 200, messages.text
        assert [m["content"] for m in messages.json()["items"]] == [
            "where is the marmalade",
            "in the pantry",
            "tool output",
        ]
        hits = c.get("/search", params={"q": "marmalade"})
        assert hits.status_code == 200, hits.text
        assert [h["session_id"] for h in hits.json()["results"]] == [sid]
        export = c.get("/export.jsonl")
        assert export.status_code == 200 and "marmalade" in export.text
        # The newer agent's columns are carried through (export reads every column the file has).
        assert '"display_kind":"text"' in export.text.replace(" ", "")
        assert "system_prompt_hash" in export.text

        writes = [
            ("POST", "/sessions", {"source": "cli"}),
            ("POST", f"/sessions/{sid}/messages", {"role": "user", "content": "hi"}),  # the fast path
            ("POST", f"/sessions/{sid}/messages", {"messages": [{"role": "user", "content": "hi"}]}),
            ("PATCH", f"/sessions/{sid}", {"title": "renamed"}),
            ("POST", f"/sessions/{sid}/end", {"end_reason": "x"}),
            ("POST", f"/sessions/{sid}/fork", {}),
            ("POST", "/maintenance/prune", {"older_than_days": 0}),
            ("POST", "/maintenance/vacuum", None),
            ("POST", "/maintenance/optimize", None),
            ("POST", "/maintenance/backup", None),
        ]
        for method, path, body in writes:
            r = c.request(method, path, json=body)
            _assert_too_new(r.status_code, r.json(), r.headers["content-type"])
        r = c.post("/sessions", json={"source": "cli"}, headers={"Idempotency-Key": "k1"})
        _assert_too_new(r.status_code, r.json(), r.headers["content-type"])
        r = c.delete(f"/sessions/{sid}")
        _assert_too_new(r.status_code, r.json(), r.headers["content-type"])
        r = c.post("/import", content=b'{"id": "x", "source": "cli"}\n')
        _assert_too_new(r.status_code, r.json(), r.headers["content-type"])
    assert file_digest(db_file) == before
    conn = sqlite3.connect(db_file)
    try:
        assert conn.execute("SELECT version FROM schema_version").fetchone()[0] == NEWER_VERSION
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()


def test_background_jobs_are_refused(newer_home: tuple[Path, str], settings: Settings) -> None:
    db = Database(settings).open()
    try:
        assert db.read_only and db.writer is None and db.checkpointer is None
        with pytest.raises(AgentFileReadOnly):
            db.write_sync(lambda tx: tx.conn.execute("SELECT 1"))
        pruner = EventPruner(db, retention_days=0.0, max_rows=1, interval_s=60)
        with pytest.raises(AgentFileReadOnly):
            asyncio.run(pruner.run_once())
    finally:
        db.close()


def test_our_migrations_refuse_a_newer_file_under_the_lock(newer_home: tuple[Path, str], home: Path) -> None:
    db_file = home / "state.db"
    before = file_digest(db_file)
    conn = open_connection(db_file)
    try:
        with pytest.raises(AgentFileReadOnly):
            migrate.upgrade(conn, db_file)
        assert not conn.in_transaction
    finally:
        conn.close()
    assert file_digest(db_file) == before


def test_a_non_wal_newer_file_keeps_its_journal_mode(home: Path, settings: Settings) -> None:
    db_file = home / "state.db"
    write_with_agent(db_file)
    migrate_to_newer(db_file)
    conn = sqlite3.connect(db_file)
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.close()
    before = file_digest(db_file)
    with TestClient(create_app(settings), headers={"Authorization": f"Bearer {TOKEN}"}) as c:
        assert c.get("/sessions").status_code == 200
    assert file_digest(db_file) == before
    conn = sqlite3.connect(db_file)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    finally:
        conn.close()
