"""kill -9 during a big prune never leaves half a session: each one is fully present or fully gone, and a
real prune reports the messages it deleted (the number its dry run announced)."""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from app.settings import Settings
from app.storage.sqlite.driver import sqlite3
from tests.compat.legacy import fts_ok
from tests.conftest import TOKEN, count_rows, start_live_server
from tests.lifecycle.helpers import agent_db
from tests.sizes import SOAK

SESSIONS = 30
MESSAGES_PER_SESSION = 300
OLD = 1_500_000_000.0  # 2017: older than any prune age
# Seconds into the prune at which the server is killed: early, mid-way and late; `make soak` kills at more.
KILL_DELAYS = (0.3, 0.6, 0.9, 1.2) if SOAK else (0.3, 0.9)


def _plant_ended_sessions(path: Path, count: int, per_session: int, prefix: str) -> None:
    """Old ended sessions with ``per_session`` messages each, written straight into the file."""
    conn = sqlite3.connect(path)
    try:
        for i in range(count):
            sid = f"{prefix}_{i:04d}"
            conn.execute(
                "INSERT INTO sessions (id, source, started_at, ended_at, end_reason, message_count)"
                " VALUES (?, 'cli', ?, ?, 'user_exit', ?)",
                (sid, OLD + i, OLD + i + 60, per_session),
            )
            conn.executemany(
                "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)",
                [
                    (sid, "assistant" if n % 2 else "user", f"old words {n} of {sid}", OLD + i + n / 1e3)
                    for n in range(per_session)
                ],
            )
        conn.commit()
    finally:
        conn.close()


def _half_deleted(path: Path) -> list[tuple[str, int, int]]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(
            "SELECT s.id, s.message_count, COUNT(m.id) FROM sessions s LEFT JOIN messages m"
            " ON m.session_id = s.id GROUP BY s.id HAVING s.message_count != COUNT(m.id)"
        ).fetchall()
        return [(str(r[0]), int(r[1]), int(r[2])) for r in rows]
    finally:
        conn.close()


def _prune_in_background(base_url: str) -> threading.Thread:
    def run() -> None:
        with contextlib.suppress(httpx.HTTPError):  # the server is killed under it
            httpx.post(
                f"{base_url}/maintenance/prune",
                json={"older_than_days": 30, "dry_run": False},
                headers={"Authorization": f"Bearer {TOKEN}"},
                timeout=60,
            )

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


@pytest.mark.slow
def test_kill_dash_nine_during_prune_leaves_no_half_deleted_session(home: Path) -> None:
    server = start_live_server(home)
    server.stop()
    path = home / "state.db"
    try:
        for cycle, delay in enumerate(KILL_DELAYS):
            _plant_ended_sessions(path, SESSIONS, MESSAGES_PER_SESSION, f"cycle{cycle}")
            server = start_live_server(home)
            prune = _prune_in_background(server.base_url)
            time.sleep(delay)
            server.stop(signal.SIGKILL)
            prune.join(timeout=60)
            assert _half_deleted(path) == [], f"cycle {cycle}: half-deleted sessions after kill -9"
            fts_ok(path)
    finally:
        server.stop()


def test_real_prune_reports_the_messages_its_dry_run_announced(
    client: TestClient, home: Path, settings: Settings
) -> None:
    agent_db(home).close()  # the agent's schema (on SQLite the server made the file already)
    _plant_ended_sessions(home / "state.db", 3, 500, "big")
    body = {"older_than_days": 30}
    dry = client.post("/maintenance/prune", json={**body, "dry_run": True})
    assert dry.status_code == 200, dry.text
    assert dry.json()["messages"] == 1500
    real = client.post("/maintenance/prune", json={**body, "dry_run": False})
    assert real.status_code == 200, real.text
    assert real.json()["pruned"] == 3
    assert real.json()["messages"] == 1500
    assert count_rows(settings, "sessions") == 0 and count_rows(settings, "messages") == 0
