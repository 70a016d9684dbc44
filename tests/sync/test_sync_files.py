"""Sync knows its files: a replaced, a restored and a copied agent file each sync as a generation of the home,
with nothing skipped and nothing collided; rows the server sets aside are reported while the rest goes on;
no source file gives a traceback; runs of one cursor take turns."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import hermes_state
import pytest
from fastapi.testclient import TestClient
from typer.testing import Result

from app.cli.config import CliConfig
from app.cli.errors import ExitCode
from app.cli.sync_cursor import cursor_lock, cursor_path
from app.storage.sqlite.driver import sqlite3
from tests.cli.conftest import in_process_env, invoke
from tests.conftest import TOKEN
from tests.sync.conftest import agent_file, file_contents, server_contents

Sync = Callable[..., Result]
Messages = dict[str, list[tuple[Any, ...]]]


def _syncer(client: TestClient, cursor_home: Path) -> Sync:
    def run(*args: str) -> Result:
        config = CliConfig(url="http://testserver", token=TOKEN, home=cursor_home)
        return invoke(in_process_env(config, client), "sessions", "sync", *args)

    return run


@pytest.fixture
def sync(client: TestClient, home: Path) -> Sync:
    """``hermes sessions sync ARGS`` in-process, its cursor under ``home``."""
    return _syncer(client, home)


def _messages(contents: dict[str, dict[str, Any]]) -> Messages:
    return {sid: entry["messages"] for sid, entry in contents.items()}


def _union(*files: Messages) -> Messages:
    """Each session's messages of every file, a message the files share once, in the order they came."""
    out: Messages = {}
    for held in files:
        for sid, messages in held.items():
            merged = out.setdefault(sid, [])
            merged += [m for m in messages if m not in merged]
    return out


def _remove(path: Path) -> None:
    for sidecar in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        sidecar.unlink(missing_ok=True)


def _append(path: Path, *rows: tuple[str, str]) -> None:
    db = hermes_state.SessionDB(db_path=path)
    try:
        for sid, text in rows:
            db.append_message(sid, "user", text)
    finally:
        db.close()


def test_a_replaced_file_is_a_new_generation(sync: Sync, client: TestClient, tmp_path: Path) -> None:
    path = agent_file(tmp_path / "laptop" / "state.db", sessions=3, messages=4)
    assert sync("--from", str(path), "--home", "laptop").exit_code == 0
    before = _messages(file_contents(path))
    _remove(path)
    # The new file starts its ids over, and reuses a session id of the old one.
    agent_file(path, sessions=2, messages=3, prefix="t")
    _append(path, ("t0000", "more"))
    db = hermes_state.SessionDB(db_path=path)
    try:
        db.create_session("s0000", "cli", model="test-model")
        db.append_message("s0000", "user", "a new s0000 message")
    finally:
        db.close()
    result = sync("--from", str(path), "--home", "laptop")
    assert result.exit_code == 0, result.output
    assert "new generation" in result.output
    assert _messages(server_contents(client)) == _union(before, _messages(file_contents(path)))


def test_a_restored_file_sends_what_was_written_after_the_restore(
    sync: Sync, client: TestClient, tmp_path: Path
) -> None:
    path = agent_file(tmp_path / "laptop" / "state.db", sessions=2, messages=3)
    assert sync("--from", str(path), "--home", "laptop").exit_code == 0
    backup = tmp_path / "backup.db"
    shutil.copyfile(path, backup)
    _append(path, ("s0000", "after the backup"), ("s0001", "also after the backup"))
    assert sync("--from", str(path), "--home", "laptop").exit_code == 0
    lost = _messages(file_contents(path))
    # Restored in place (same inode): its ids 7 and 8 are handed out again, to other messages.
    shutil.copyfile(backup, path)
    _append(path, ("s0001", "after the restore"), ("s0000", "second after the restore"))
    result = sync("--from", str(path), "--home", "laptop")
    assert result.exit_code == 0, result.output
    assert "new generation" in result.output, result.output
    assert _messages(server_contents(client)) == _union(lost, _messages(file_contents(path)))
    again = sync("--from", str(path), "--home", "laptop")
    assert "0 new messages" in again.output
    assert _messages(server_contents(client)) == _union(lost, _messages(file_contents(path)))


def test_a_copied_file_on_another_machine_under_the_same_label(client: TestClient, tmp_path: Path) -> None:
    first = agent_file(tmp_path / "one" / "state.db", sessions=2, messages=2)
    second = tmp_path / "two" / "state.db"
    second.parent.mkdir()
    shutil.copyfile(first, second)
    _append(first, ("s0000", "only on the first machine"))
    _append(second, ("s0000", "only on the second machine"), ("s0001", "and this"))
    one, two = _syncer(client, tmp_path / "home-one"), _syncer(client, tmp_path / "home-two")
    for run, path in ((one, first), (two, second), (one, first), (two, second)):
        result = run("--from", str(path), "--home", "laptop:/home/me/.hermes/state.db")
        assert result.exit_code == 0, result.output
    expected = _union(_messages(file_contents(first)), _messages(file_contents(second)))
    assert _messages(server_contents(client)) == expected
    assert sum(len(m) for m in expected.values()) == 4 + 1 + 2  # the shared history once


def test_a_poisoned_row_is_set_aside_and_the_rest_of_the_home_goes_on(
    sync: Sync, client: TestClient, tmp_path: Path
) -> None:
    path = agent_file(tmp_path / "laptop" / "state.db", sessions=3, messages=2)
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE messages SET timestamp = 1e308 WHERE id = 2")
        conn.execute("UPDATE sessions SET started_at = 'yesterday' WHERE id = 's0002'")
    conn.close()
    result = sync("--from", str(path), "--home", "laptop")
    assert result.exit_code == 0, result.output
    assert "rows set aside" in result.output
    held = server_contents(client)
    assert sorted(held) == ["s0000", "s0001"]
    assert len(held["s0000"]["messages"]) == 1 and len(held["s0001"]["messages"]) == 2
    report = sync("--from", str(path), "--home", "laptop", "--report")
    assert report.exit_code == 0
    assert "session s0000, message 2: timestamp timestamp_out_of_range" in report.output
    assert "session s0002: started_at timestamp_out_of_range" in report.output
    assert "session s0002, message 5: session_id session_refused" in report.output
    # The home goes on: new messages pass, and a fixed session row is sent again.
    _append(path, ("s0001", "later"))
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE sessions SET started_at = 1767600000.0 WHERE id = 's0002'")
    conn.close()
    later = sync("--from", str(path), "--home", "laptop")
    assert later.exit_code == 0, later.output
    # s0002 arrives with the two messages set aside with it before; s0001's new one follows.
    assert "1 new and 1 updated sessions, 3 new messages" in later.output
    held = server_contents(client)
    assert (len(held["s0001"]["messages"]), len(held["s0002"]["messages"])) == (3, 2)
    assert "session s0002:" not in sync("--from", str(path), "--home", "laptop", "--report").output


def test_a_message_set_aside_and_fixed_at_home_is_sent_again(
    sync: Sync, client: TestClient, tmp_path: Path
) -> None:
    path = agent_file(tmp_path / "laptop" / "state.db", sessions=1, messages=7)
    # Past the rows the file's mark keeps, so fixing it leaves the file the same file (no new generation).
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE messages SET timestamp = -1 WHERE id = 5")
    conn.close()
    assert "1 rows set aside" in sync("--from", str(path), "--home", "laptop").output
    assert len(server_contents(client)["s0000"]["messages"]) == 6
    # Still broken: not sent again (the row is as it was refused), and still reported.
    _append(path, ("s0000", "later"))
    again = sync("--from", str(path), "--home", "laptop")
    assert "1 new messages" in again.output and "set aside" not in again.output, again.output
    assert "message 5: timestamp" in sync("--from", str(path), "--home", "laptop", "--report").output
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE messages SET timestamp = 1767600000.5 WHERE id = 5")
    conn.close()
    fixed = sync("--from", str(path), "--home", "laptop")
    assert fixed.exit_code == 0, fixed.output
    assert "1 new messages" in fixed.output and "set aside" not in fixed.output, fixed.output
    held = server_contents(client)["s0000"]["messages"]
    assert len(held) == 8 and (held[-1][1], held[-1][2]) == ("s message 0.4 中文", 1767600000.5)
    report = sync("--from", str(path), "--home", "laptop", "--report")
    assert "Nothing of laptop is set aside" in report.output, report.output


def test_flipped_bytes_in_the_schema_exit_8_without_a_traceback(sync: Sync, tmp_path: Path) -> None:
    path = agent_file(tmp_path / "laptop" / "state.db", sessions=1, messages=1)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA writable_schema = ON")
    with conn:
        # A lead byte without its continuation in the schema's own text, as a flipped bit leaves it.
        conn.execute(
            "UPDATE sqlite_master SET name = CAST(x'e5' || CAST(name AS BLOB) AS TEXT)"
            " WHERE name = (SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL LIMIT 1)"
        )
    conn.close()
    result = sync("--from", str(path), "--home", "laptop")
    assert result.exit_code == ExitCode.BAD_SOURCE, result.output
    assert isinstance(result.exception, SystemExit)
    assert "damaged" in result.output


def test_runs_of_one_cursor_take_turns(sync: Sync, client: TestClient, tmp_path: Path, home: Path) -> None:
    path = agent_file(tmp_path / "laptop" / "state.db", sessions=2, messages=2)
    outcome: list[Result] = []
    with cursor_lock(cursor_path(home, "laptop", "http://testserver")):
        runner = threading.Thread(
            target=lambda: outcome.append(sync("--from", str(path), "--home", "laptop"))
        )
        runner.start()
        runner.join(timeout=1.0)
        assert runner.is_alive()  # waiting for the lock
        assert client.get("/stats").json()["messages"] == 0
        # The file changes while the run waits: what it sends is the file as it is once it runs.
        _append(path, ("s0000", "while waiting"))
    runner.join(timeout=60)
    assert outcome and outcome[0].exit_code == 0, outcome
    assert _messages(server_contents(client)) == _messages(file_contents(path))


def test_a_session_pruned_on_the_server_and_continued_at_home_comes_back_whole(
    sync: Sync, client: TestClient, tmp_path: Path
) -> None:
    path = agent_file(tmp_path / "laptop" / "state.db", sessions=2, messages=4)
    assert sync("--from", str(path), "--home", "laptop").exit_code == 0
    assert client.delete("/sessions/s0000").status_code in (200, 204)  # as a prune deletes it
    _append(path, ("s0000", "continued at home"), ("s0000", "and again"))
    result = sync("--from", str(path), "--home", "laptop")
    assert result.exit_code == 0, result.output
    held, home = server_contents(client), file_contents(path)
    assert held["s0000"]["messages"] == home["s0000"]["messages"]  # the earlier ones back, in order
    assert held["s0000"]["message_count"] == home["s0000"]["message_count"] == 6
    assert _messages(held) == _messages(home)
