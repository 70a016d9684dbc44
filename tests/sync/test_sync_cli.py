"""``hermes sessions sync`` in-process (CliRunner over the app): exact copies, increments, idempotence, two
homes in one server, conflicts, search and events, and files refused before anything is sent."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import hermes_state
import httpx
import orjson
import pytest
from fastapi.testclient import TestClient
from typer.testing import Result

from app.cli.config import CliConfig
from app.cli.errors import ExitCode
from app.settings import Settings
from app.storage.sqlite.driver import sqlite3
from tests.cli.conftest import in_process_env, invoke
from tests.conftest import TOKEN, RawDatabase
from tests.sync.conftest import agent_file, bulk_fill, file_contents, server_contents, without_home

Sync = Callable[..., Result]


@pytest.fixture
def sync(client: TestClient, home: Path) -> Sync:
    """``sync("--from", path, ...)`` → the CliRunner result of ``hermes sessions sync``."""

    def _run(*args: str) -> Result:
        config = CliConfig(url="http://testserver", token=TOKEN, home=home)
        return invoke(in_process_env(config, client), "sessions", "sync", *args)

    return _run


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_server_holds_exactly_the_file_and_a_rerun_sends_nothing(
    sync: Sync, client: TestClient, tmp_path: Path
) -> None:
    path = agent_file(tmp_path / "laptop" / "state.db", sessions=4, messages=5)
    before = _digest(path)
    first = sync("--from", str(path), "--home", "laptop")
    assert first.exit_code == 0, first.output
    assert "4 new and 0 updated sessions, 20 new messages" in first.output
    held = server_contents(client)
    assert without_home(held) == file_contents(path)
    assert {entry["home"] for entry in held.values()} == {"laptop"}
    again = sync("--from", str(path), "--home", "laptop")
    assert again.exit_code == 0, again.output
    assert "0 new and 0 updated sessions, 0 new messages" in again.output
    assert without_home(server_contents(client)) == file_contents(path)
    assert _digest(path) == before  # read-only: the agent's file is untouched


def test_new_messages_and_changed_rows_follow(sync: Sync, client: TestClient, tmp_path: Path) -> None:
    path = agent_file(tmp_path / "laptop" / "state.db", sessions=2, messages=2)
    assert sync("--from", str(path), "--home", "laptop").exit_code == 0
    db = hermes_state.SessionDB(db_path=path)
    try:
        db.append_message("s0000", "user", "one more question")
        db.set_session_title("s0001", "Renamed at home")
        db.end_session("s0001", "user_exit")
        db.create_session("s0002", "cli", model="test-model")
        db.append_message("s0002", "user", "a new session")
    finally:
        db.close()
    result = sync("--from", str(path), "--home", "laptop")
    assert result.exit_code == 0, result.output
    assert "1 new and 2 updated sessions, 2 new messages" in result.output
    assert without_home(server_contents(client)) == file_contents(path)
    assert client.get("/sessions/s0001").json()["end_reason"] == "user_exit"


def test_each_changed_session_travels_with_its_first_messages(
    sync: Sync, client: TestClient, tmp_path: Path
) -> None:
    """A session and its messages reach the server in one batch (one transaction, indexed once), not the
    session first and empty; sessions without new messages follow on their own."""
    path = agent_file(tmp_path / "laptop" / "state.db", sessions=3, messages=2)
    db = hermes_state.SessionDB(db_path=path)
    try:
        db.create_session("empty", "cli")
        for sid in ("s0002", "s0000", "s0001"):  # later messages interleave the sessions
            db.append_message(sid, "user", f"later in {sid}")
    finally:
        db.close()
    batches: list[dict[str, Any]] = []

    def record(request: httpx.Request) -> None:
        if request.url.path == "/sync/batches":
            batches.append(orjson.loads(request.read()))

    client.event_hooks["request"].append(record)
    try:
        # One lane: the batches are the pages, in the file's order.
        result = sync("--from", str(path), "--home", "laptop", "--batch-size", "3", "--parallel", "1")
    finally:
        client.event_hooks["request"].remove(record)
    assert result.exit_code == 0, result.output
    sent: list[list[str]] = []
    for batch in batches:
        at = batch["messages"]["columns"].index("session_id")
        first_seen = list(dict.fromkeys(row[at] for row in batch["messages"]["rows"]))
        sessions = [row["id"] for row in batch["sessions"]]
        sent.append(sessions)
        if batch["messages"]["rows"]:
            assert set(sessions) <= set(first_seen)
    messages = [len(batch["messages"]["rows"]) for batch in batches]
    assert messages == [3, 3, 3, 0]
    assert sent == [["s0000", "s0001"], ["s0002"], [], ["empty"]]
    assert without_home(server_contents(client)) == file_contents(path)


def test_lineages_link_whatever_lane_carries_them(sync: Sync, client: TestClient, tmp_path: Path) -> None:
    """Batches in flight at once, a lineage's in one lane: every parent the file names is linked, and each
    session's messages keep the file's order, with small batches interleaving many sessions."""
    path = tmp_path / "laptop" / "state.db"
    path.parent.mkdir(parents=True)
    db = hermes_state.SessionDB(db_path=path)
    try:
        parents: dict[str, str | None] = {}
        for chain in range(6):
            parent = None
            for depth in range(3):
                sid = f"c{chain}-{depth}"
                db.create_session(sid, "cli", parent_session_id=parent)
                parents[sid] = parent
                parent = sid
        for turn in range(4):
            for sid in parents:
                db.append_message(sid, "user" if turn % 2 == 0 else "assistant", f"{sid} turn {turn}")
    finally:
        db.close()
    result = sync("--from", str(path), "--home", "laptop", "--batch-size", "5", "--parallel", "3")
    assert result.exit_code == 0, result.output
    for sid, parent in parents.items():
        assert client.get(f"/sessions/{sid}").json()["parent_session_id"] == parent, sid
        items = client.get(f"/sessions/{sid}/messages", params={"include_inactive": "true"}).json()["items"]
        assert [m["content"] for m in items] == [f"{sid} turn {turn}" for turn in range(4)]
    assert without_home(server_contents(client)) == file_contents(path)


def test_synced_messages_are_searchable_and_announced(
    sync: Sync, client: TestClient, settings: Settings, tmp_path: Path
) -> None:
    path = agent_file(tmp_path / "laptop" / "state.db", sessions=2, messages=3)
    bulk_fill(path, sessions=3, per_session=700)  # over one batch: indexed by the background indexer
    result = sync("--from", str(path), "--home", "laptop")
    assert result.exit_code == 0, result.output
    deadline = time.monotonic() + 60
    while client.get("/stats").json()["indexing"]["pending_messages"]:
        assert time.monotonic() < deadline, "the background indexer never indexed the synced messages"
        time.sleep(0.2)
    found = client.get("/search", params={"q": "message", "limit": 10, "home": "laptop"}).json()
    assert {r["session_id"] for r in found["results"]} == {"s0000", "s0001"}
    assert client.get("/search", params={"q": "message", "home": "elsewhere"}).json()["count"] == 0
    found_cjk = client.get("/search", params={"q": "中文", "limit": 10}).json()
    assert found_cjk["count"] == 2
    assert client.get("/search", params={"q": "bulk", "limit": 10, "home": "laptop"}).json()["count"] == 3
    raw = RawDatabase(settings)
    try:
        (events,) = raw.execute("SELECT COUNT(*) FROM hs_events WHERE type = 'message.created'").fetchone()
        (messages,) = raw.execute("SELECT COUNT(*) FROM messages").fetchone()
    finally:
        raw.close()
    assert events == messages == 2 * 3 + 3 * 700


def test_two_homes_meet_in_one_server_and_keep_their_identity(
    sync: Sync, client: TestClient, tmp_path: Path
) -> None:
    laptop = agent_file(tmp_path / "laptop" / "state.db", sessions=3, messages=2, prefix="lap")
    server = agent_file(tmp_path / "server" / "state.db", sessions=2, messages=2, prefix="srv")
    for path, prefix in ((laptop, "lap"), (server, "srv")):
        db = hermes_state.SessionDB(db_path=path)
        try:
            db.create_session("same-id", "cli")
            db.append_message("same-id", "user", f"same id in {path.parent.name}")
            db.set_session_title("same-id", f"Title of {path.parent.name}")
            assert db.set_session_title(f"{prefix}0000", "Daily notes")
        finally:
            db.close()
    assert sync("--from", str(laptop), "--home", "laptop").exit_code == 0
    result = sync("--from", str(server), "--home", "server")
    assert result.exit_code == 0, result.output
    assert "1 sessions and 1 messages not taken" in result.output

    on_laptop = server_contents(client, home="laptop")
    on_server = server_contents(client, home="server")
    assert without_home(on_laptop) == file_contents(laptop)
    expected = file_contents(server)
    del expected["same-id"]  # the id is the laptop's here: the server's session of that id is not taken
    expected["srv0000"]["title"] = "Daily notes [server]"  # the laptop's session holds the title
    assert without_home(on_server) == expected
    assert set(server_contents(client)) == set(on_laptop) | set(on_server)

    found = client.get("/search", params={"q": "message", "limit": 10, "home": "server"}).json()
    assert {r["session_id"] for r in found["results"]} == {"srv0000", "srv0001"}
    browse = client.get("/search", params={"home": "laptop", "limit": 10}).json()
    assert {r["session_id"] for r in browse["results"]} == set(on_laptop)


def test_prune_and_archive_filter_by_home(sync: Sync, client: TestClient, tmp_path: Path) -> None:
    laptop = agent_file(tmp_path / "laptop" / "state.db", sessions=2, messages=1, prefix="lap")
    other = agent_file(tmp_path / "other" / "state.db", sessions=2, messages=1, prefix="oth")
    for path, prefix in ((laptop, "lap"), (other, "oth")):
        db = hermes_state.SessionDB(db_path=path)
        try:
            for s in range(2):
                db.end_session(f"{prefix}{s:04d}", "user_exit")
        finally:
            db.close()
        assert sync("--from", str(path), "--home", path.parent.name).exit_code == 0
    dry = client.post("/maintenance/prune", json={"home": "laptop", "older_than_days": 0, "dry_run": True})
    assert sorted(dry.json()["ids"]) == ["lap0000", "lap0001"]


@pytest.mark.parametrize(
    ("make", "code", "words"),
    [
        (lambda p: None, ExitCode.NOT_FOUND, "does not exist"),
        (lambda p: p.write_bytes(b"SQLite? no." * 500), ExitCode.BAD_SOURCE, "is not a SQLite database"),
        (lambda p: _damage(agent_file(p)), ExitCode.BAD_SOURCE, "is damaged"),
        (lambda p: _stranger(agent_file(p)), ExitCode.BAD_SOURCE, "trigger stranger"),
        (
            lambda p: sqlite3.connect(p).execute("CREATE TABLE t (x)").connection.close(),
            ExitCode.BAD_SOURCE,
            "not a Hermes agent state file",
        ),
    ],
    ids=["missing", "not-sqlite", "corrupt", "unknown-shape", "not-an-agent-file"],
)
def test_a_bad_file_is_refused_before_anything_is_sent(
    sync: Sync,
    client: TestClient,
    home: Path,
    tmp_path: Path,
    make: Callable[[Path], object],
    code: ExitCode,
    words: str,
) -> None:
    path = tmp_path / "agent" / "state.db"
    path.parent.mkdir()
    make(path)
    result = sync("--from", str(path), "--home", "laptop")
    assert result.exit_code == code, result.output
    assert words in result.output and "Nothing was sent" in result.output
    assert client.get("/stats").json()["sessions"] == 0
    assert not (home / "sync").exists()


def _damage(path: Path) -> None:
    bulk_fill(path, sessions=50, per_session=40)
    data = bytearray(path.read_bytes())
    for offset in range(4096 * 5, 4096 * 9):
        data[offset] = (offset * 7) & 0xFF
    path.write_bytes(bytes(data))


def _stranger(path: Path) -> None:
    """A file of a version we do not know, with a trigger no agent build we know writes."""
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE schema_version SET version = 31")
        conn.execute("CREATE TRIGGER stranger AFTER INSERT ON messages BEGIN SELECT 1; END")


def test_a_session_deleted_on_the_server_comes_back_with_a_full_resync(
    sync: Sync, client: TestClient, home: Path, tmp_path: Path
) -> None:
    path = agent_file(tmp_path / "laptop" / "state.db", sessions=2, messages=3)
    assert sync("--from", str(path), "--home", "laptop").exit_code == 0
    assert client.delete("/sessions/s0000").status_code == 204
    assert sync("--from", str(path), "--home", "laptop").exit_code == 0  # the cursor: nothing new to send
    assert "s0000" not in server_contents(client)
    for cursor in (home / "sync").iterdir():
        cursor.unlink()
    result = sync("--from", str(path), "--home", "laptop")
    assert "1 new and 1 updated sessions, 3 new messages, 3 already there" in result.output
    assert without_home(server_contents(client)) == file_contents(path)


def test_a_later_sync_checks_the_whole_file_on_request(
    sync: Sync, client: TestClient, tmp_path: Path
) -> None:
    path = agent_file(tmp_path / "laptop" / "state.db", sessions=1, messages=1)
    assert sync("--from", str(path), "--home", "laptop").exit_code == 0
    _damage(path)
    checked = sync("--from", str(path), "--home", "laptop", "--full-check")
    assert checked.exit_code == ExitCode.BAD_SOURCE, checked.output
    assert "is damaged" in checked.output and "Nothing was sent" in checked.output
    assert client.get("/stats").json()["messages"] == 1
