"""kill -9 mid-stream: every acknowledged message survives, the file and both FTS indexes stay sound."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import httpx
import pytest

from app.storage.sqlite.driver import sqlite3
from tests.compat.legacy import fts_ok
from tests.conftest import TOKEN, start_live_server
from tests.reliability.appenders import Appenders


def _stored_ids(path: Path, session_id: str) -> set[int]:
    conn = sqlite3.connect(path)
    try:
        return {r[0] for r in conn.execute("SELECT id FROM messages WHERE session_id = ?", (session_id,))}
    finally:
        conn.close()


def _counter_consistent(path: Path) -> None:
    conn = sqlite3.connect(path)
    try:
        bad = conn.execute(
            "SELECT s.id, s.message_count, COUNT(m.id) FROM sessions s LEFT JOIN messages m"
            " ON m.session_id = s.id GROUP BY s.id HAVING s.message_count != COUNT(m.id)"
        ).fetchall()
    finally:
        conn.close()
    assert bad == []


@pytest.mark.slow
def test_kill_dash_nine_loses_no_acknowledged_message(home: Path) -> None:
    server = start_live_server(home)
    headers = {"Authorization": f"Bearer {TOKEN}"}
    created = httpx.post(f"{server.base_url}/sessions", json={"source": "cli"}, headers=headers, timeout=10)
    assert created.status_code == 201, created.text
    session_id = created.json()["id"]
    acked_total: set[int] = set()
    try:
        for _cycle in range(3):
            appenders = Appenders(server.base_url, session_id, threads=4).start()
            time.sleep(1.5)
            server.stop(signal.SIGKILL)
            appenders.join()
            assert set(appenders.statuses) <= {201}, appenders.statuses
            assert appenders.acked, "the appenders got nothing acknowledged before the kill"
            acked_total |= appenders.acked
            server = start_live_server(home)
            path = home / "state.db"
            missing = acked_total - _stored_ids(path, session_id)
            assert not missing, f"{len(missing)} acknowledged messages lost"
            fts_ok(path)
            _counter_consistent(path)
    finally:
        server.stop()
