"""Reference checks 11.1: journal mode rules, concurrent appends, a foreign lock seen through HTTP."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from app.storage.sqlite.connection import set_journal_mode
from app.storage.sqlite.driver import sqlite3
from tests.api.problem_assert import assert_problem
from tests.compat.legacy import adopt_file, fts_ok
from tests.conftest import TOKEN, LiveServer, start_live_server
from tests.reliability.appenders import Appenders

AUTH = {"Authorization": f"Bearer {TOKEN}"}


class _NoWal:
    """A connection whose filesystem refuses WAL, like NFS/SMB mounts do."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str) -> Any:
        if sql.replace(" ", "").upper() == "PRAGMAJOURNAL_MODE=WAL":
            raise sqlite3.OperationalError("locking protocol")
        return self.conn.execute(sql)


def test_wal_refused_falls_back_to_delete(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    conn = sqlite3.connect(tmp_path / "nfs.db")
    try:
        with caplog.at_level(logging.WARNING):
            mode = set_journal_mode(_NoWal(conn), "wal", "nfs.db")  # type: ignore[arg-type]
        assert mode == "delete"
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert len([r for r in caplog.records if "WAL unavailable" in r.getMessage()]) == 1
    finally:
        conn.close()


def test_existing_wal_file_is_never_switched(home: Path) -> None:
    path = home / "state.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.close()
    adopt_file(home)
    adopt_file(home)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def test_rollback_journal_file_keeps_its_mode(home: Path) -> None:
    # Newer agents keep new files in rollback mode on a SQLite with the WAL-reset bug: the file's owner
    # chose, and the server works in that mode.
    path = home / "state.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.execute("CREATE TABLE scratch (x)")
    conn.close()
    adopt_file(home)
    with TestClient(create_app(Settings(home=home, api_token=TOKEN)), headers=AUTH) as c:
        sid = c.post("/sessions", json={"source": "cli"}).json()["id"]
        assert c.post(f"/sessions/{sid}/messages", json={"role": "user", "content": "hi"}).status_code == 201
        assert c.get(f"/sessions/{sid}/messages").json()["items"][0]["content"] == "hi"
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    conn.close()
    assert not (home / "state.db-wal").exists()


@pytest.mark.parametrize(("configured", "expected"), [(None, "wal"), ("delete", "delete"), ("bogus", "wal")])
def test_a_new_file_follows_the_configured_journal_mode(
    home: Path, configured: str | None, expected: str
) -> None:
    if configured is not None:
        (home / "config.yaml").write_text(f"database:\n  journal_mode: {configured}\n")
    adopt_file(home)
    conn = sqlite3.connect(home / "state.db")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == expected
    conn.close()


def test_ten_threads_hundred_appends_each(live_server: LiveServer, home: Path) -> None:
    with live_server.client() as c:
        sessions = [c.post("/sessions", json={"source": "cli"}).json()["id"] for _ in range(10)]
    runs = [Appenders(live_server.base_url, sid, threads=1, limit=100).start() for sid in sessions]
    for run in runs:
        run.join()
    for run in runs:
        assert run.statuses == {201: 100}
    conn = sqlite3.connect(home / "state.db")
    try:
        counts = dict(
            conn.execute("SELECT session_id, COUNT(*) FROM messages GROUP BY session_id").fetchall()
        )
        recorded = dict(conn.execute("SELECT id, message_count FROM sessions").fetchall())
    finally:
        conn.close()
    assert counts == dict.fromkeys(sessions, 100)
    assert recorded == counts
    fts_ok(home / "state.db")


def test_foreign_lock_is_503_database_busy(home: Path) -> None:
    server = start_live_server(home, {"HERMES_WRITE_LOCK_BUDGET_S": "0.5", "HERMES_BUSY_TIMEOUT_MS": "100"})
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3,sys\n"
            f"c=sqlite3.connect({str(home / 'state.db')!r}, isolation_level=None)\n"
            # The lock is held until the test says so (a line on stdin).
            "c.execute('BEGIN IMMEDIATE'); print('locked', flush=True)\n"
            "sys.stdin.readline(); c.execute('COMMIT')",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    headers = {"Authorization": f"Bearer {TOKEN}"}
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        resp = httpx.post(f"{server.base_url}/sessions", json={}, headers=headers, timeout=10)

        assert_problem(resp, 503, "database_busy")
        assert int(resp.headers["retry-after"]) >= 1
        # Reads are not blocked by a writer.
        assert httpx.get(f"{server.base_url}/sessions", headers=headers, timeout=10).status_code == 200
        holder.communicate("release\n", timeout=10)
        assert holder.returncode == 0
        assert (
            httpx.post(f"{server.base_url}/sessions", json={}, headers=headers, timeout=10).status_code == 201
        )
    finally:
        if holder.poll() is None:
            holder.kill()
        server.stop()
