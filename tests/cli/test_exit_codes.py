"""The exit-code table: every code it documents, produced by a real `hermes` process against a real server."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

import hermes_state

from app.cli.errors import EXIT_CODES_HELP, ExitCode
from app.domain.handoff import CANCELLED_ERROR
from app.storage.sqlite.driver import sqlite3
from tests.cli.conftest import Run
from tests.conftest import ROOT, TOKEN, LiveServer, free_port, start_live_server
from tests.handoff.conftest import configure, new_session


def _start(*args: str, url: str, home: Path, token: str = TOKEN, **extra_env: str) -> subprocess.Popen[str]:
    env = {**os.environ, "HERMES_URL": url, "HERMES_API_TOKEN": token, "HERMES_HOME": str(home), **extra_env}
    return subprocess.Popen(
        [sys.executable, "-m", "app.cli.main", *args],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _exit(*args: str, url: str, home: Path, token: str = TOKEN, **extra_env: str) -> int:
    proc = _start(*args, url=url, home=home, token=token, **extra_env)
    proc.communicate(timeout=60)
    return proc.returncode


def _read_only_exit(home: Path) -> int:
    """A rename against a server whose agent file holds a trigger no agent build we know writes."""
    path = home / "state.db"
    db = hermes_state.SessionDB(db_path=path)
    db.create_session("s1", source="cli")
    db.close()
    conn = sqlite3.connect(path)
    conn.execute("CREATE TRIGGER stranger AFTER INSERT ON sessions BEGIN SELECT 1; END")
    conn.commit()
    conn.close()
    server = start_live_server(home)
    try:
        return _exit("sessions", "rename", "s1", "new title", url=server.base_url, home=home)
    finally:
        server.stop()


def test_every_documented_exit_code_comes_from_a_real_command(
    live_server: LiveServer, tmp_path: Path
) -> None:
    url, home = live_server.base_url, live_server.home
    nothing_to_continue = _exit("-c", url=url, home=home)  # before any CLI session exists
    with live_server.client() as http:
        configure(http)  # telegram enabled with a home channel, so a handoff can be asked for
        taken = http.post("/sessions", json={"source": "api_server", "title": "taken"}).json()["id"]
        mine = new_session(http, title="mine")

    not_sqlite = home / "not-a-database.db"
    not_sqlite.write_bytes(b"this is not SQLite" * 100)
    # Each command is a process of its own and none changes what another sees: they run side by side.
    commands: dict[ExitCode, Callable[[], int]] = {
        ExitCode.OK: partial(_exit, "sessions", "list", url=url, home=home),
        ExitCode.USAGE: partial(_exit, "sessions", "list", "--limit", "0", url=url, home=home),
        ExitCode.NOT_FOUND: partial(_exit, "-r", "no-such-session", url=url, home=home),
        ExitCode.AUTH: partial(_exit, "sessions", "list", url=url, home=home, token="wrong"),
        ExitCode.CONFLICT: partial(_exit, "sessions", "rename", mine, "taken", url=url, home=home),
        ExitCode.UNREACHABLE: partial(
            _exit, "sessions", "list", url=f"http://127.0.0.1:{free_port()}", home=home
        ),
        # No gateway claims it: the wait times out and the handoff is failed.
        ExitCode.HANDOFF_FAILED: partial(
            _exit, "handoff", "telegram", mine, "--claim-timeout", "0.5", url=url, home=home
        ),
        ExitCode.BAD_SOURCE: partial(
            _exit, "sessions", "sync", "--from", str(not_sqlite), url=url, home=home
        ),
        # Nothing listens on that port: the start is refused before the server listens.
        ExitCode.STORE_UNREACHABLE: partial(
            _exit,
            "serve",
            url=url,
            home=home,
            HERMES_DATABASE_URL=f"postgresql://hermes@127.0.0.1:{free_port()}/hermes",
        ),
        ExitCode.READ_ONLY: partial(_read_only_exit, tmp_path),
    }
    waiting = _start("handoff", "telegram", taken, url=url, home=home)
    with ThreadPoolExecutor(max_workers=len(commands)) as pool:
        futures = {code: pool.submit(command) for code, command in commands.items()}
        produced = {code: future.result() for code, future in futures.items()}
    produced[ExitCode.ERROR] = nothing_to_continue
    with live_server.client() as http:
        deadline = time.monotonic() + 30
        while http.get(f"/handoff/{taken}").json().get("state") != "pending":
            assert time.monotonic() < deadline, "the handoff was never queued"
            time.sleep(0.1)
    waiting.send_signal(signal.SIGINT)  # it is now waiting for a gateway
    waiting.communicate(timeout=30)
    produced[ExitCode.INTERRUPTED] = waiting.returncode

    assert produced == {code: int(code) for code in ExitCode}
    # Ctrl-C withdrew the handoff no gateway had taken: no gateway takes it later, and it can be asked again.
    with live_server.client() as http:
        state = http.get(f"/handoff/{taken}").json()
        assert (state["state"], state["error"]) == ("failed", CANCELLED_ERROR)
        assert http.post("/handoff", json={"session_id": taken, "platform": "telegram"}).status_code == 202
    documented = {int(line.split()[0]) for line in EXIT_CODES_HELP.splitlines()[1:]}
    assert documented == {int(code) for code in ExitCode}


def test_the_exit_code_table_lines_up(run: Run) -> None:
    rows = run("exit-codes").stdout.splitlines()[1:]
    assert len(rows) == len(ExitCode)
    # Numbers right-aligned, so every meaning starts in the same column (1, 2 and 3 digits alike).
    starts = [re.match(r"\s*\d+\s+", row) for row in rows]
    assert {len(m.group()) if m else None for m in starts} == {7}
