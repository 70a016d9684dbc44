"""``hermes sessions sync`` as real processes against a real server over loopback: ``--watch`` following the
real agent while it writes, and a sync killed with SIGKILL mid-run, then resumed."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import hermes_state
import pytest

from app.cli.sync_cursor import cursor_path
from app.settings import Settings
from tests.conftest import ROOT, LiveServer, start_live_server
from tests.sync.conftest import (
    agent_file,
    bulk_fill,
    file_contents,
    run_sync,
    server_contents,
    server_env,
    sync_command,
    sync_env,
    without_home,
)


@pytest.fixture
def server(settings: Settings) -> Iterator[LiveServer]:
    """A real server on its own home (the agent's home is another directory), on each backend."""
    live = start_live_server(settings.home, server_env(settings))
    try:
        yield live
    finally:
        live.stop()


def _cursor_position(path: Path) -> int:
    try:
        return int(json.loads(path.read_text())["last_message_id"])
    except (OSError, ValueError):
        return 0


def test_watch_follows_the_agent_while_it_writes(server: LiveServer, tmp_path: Path) -> None:
    agent_home = tmp_path / "agent-home"
    db = hermes_state.SessionDB(db_path=agent_home / "state.db")
    watcher = subprocess.Popen(
        sync_command(
            "--watch", "--interval", "0.1", "--home", "laptop", url=server.base_url, home=agent_home
        ),
        cwd=ROOT,
        env=sync_env(agent_home),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for s in range(8):
            sid = f"live{s}"
            db.create_session(sid, "cli", model="test-model")
            for i in range(12):
                if i % 3 == 2:
                    calls = [
                        {"id": f"c{i}", "type": "function", "function": {"name": "grep", "arguments": "{}"}}
                    ]
                    db.append_message(sid, "assistant", None, tool_calls=calls)
                    db.append_message(sid, "tool", f"result {i}", tool_call_id=f"c{i}", tool_name="grep")
                else:
                    db.append_message(sid, "user" if i % 2 == 0 else "assistant", f"turn {s}.{i}")
                time.sleep(0.005)
            db.set_session_title(sid, f"Live session {s}")
            if s % 2:
                db.end_session(sid, "user_exit")
        expected = file_contents(agent_home / "state.db")
        deadline = time.monotonic() + 60
        with server.client() as http:
            while without_home(held := server_contents(http, home="laptop")) != expected:
                assert watcher.poll() is None, watcher.communicate()
                assert time.monotonic() < deadline, "the watching sync never caught up with the agent"
                time.sleep(0.2)
        assert {entry["home"] for entry in held.values()} == {"laptop"}
        assert sum(len(e["messages"]) for e in expected.values()) == 8 * 16
    finally:
        db.close()
        watcher.send_signal(signal.SIGINT)
        out, err = watcher.communicate(timeout=30)
    assert watcher.returncode == 0, err
    assert out.strip().splitlines()[-1].startswith("Synced laptop to ")


def test_kill_9_mid_run_then_a_rerun_leaves_exactly_the_file(server: LiveServer, tmp_path: Path) -> None:
    agent_home = tmp_path / "agent-home"
    path = agent_file(agent_home / "state.db", sessions=3, messages=4)
    bulk_fill(path, sessions=40, per_session=500)
    expected = file_contents(path)
    total = sum(len(e["messages"]) for e in expected.values())
    cursor = cursor_path(agent_home, "laptop", server.base_url)

    proc = subprocess.Popen(
        sync_command("--home", "laptop", "--batch-size", "100", url=server.base_url, home=agent_home),
        cwd=ROOT,
        env=sync_env(agent_home),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while _cursor_position(cursor) < 2000:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the sync made no progress"
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    killed_at = _cursor_position(cursor)
    assert 0 < killed_at < total, "the sync finished before it was killed"

    with server.client() as http:
        assert http.get("/stats").json()["messages"] < total
        done = run_sync("--home", "laptop", "--batch-size", "100", url=server.base_url, home=agent_home)
        assert done.returncode == 0, done.stderr
        held = server_contents(http, home="laptop")
        assert without_home(held) == expected
        assert http.get("/stats").json()["messages"] == total
        again = run_sync("--home", "laptop", url=server.base_url, home=agent_home)
        assert "0 new messages" in again.stdout
        assert http.get("/stats").json()["messages"] == total


def test_concurrent_syncs_of_one_file_leave_the_server_at_its_final_state(
    server: LiveServer, tmp_path: Path
) -> None:
    """Syncs of one file sharing a cursor, started while the agent writes, then once more each: the server
    holds the file's final state (they take turns on the cursor's lock)."""
    agent_home = tmp_path / "agent-home"
    path = agent_file(agent_home / "state.db", sessions=4, messages=2)
    args = ("--from", str(path), "--home", "laptop")

    def start() -> list[subprocess.Popen[str]]:
        return [
            subprocess.Popen(
                sync_command(*args, url=server.base_url, home=agent_home),
                cwd=ROOT,
                env=sync_env(agent_home),
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(3)
        ]

    running = start()
    db = hermes_state.SessionDB(db_path=path)
    try:
        for i in range(8):
            db.set_session_title(f"s{i % 4:04d}", f"title {i}")
            db.append_message(f"s{i % 4:04d}", "user", f"during {i}")
            time.sleep(0.05)
    finally:
        db.close()
    finishing = start()  # once more each, after the agent's last write
    for process in [*running, *finishing]:
        _, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
    held = server_contents(server.client())
    assert {sid: (e["title"], e["messages"]) for sid, e in held.items()} == {
        sid: (e["title"], e["messages"]) for sid, e in file_contents(path).items()
    }
