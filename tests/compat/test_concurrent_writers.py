"""The agent's own process and the live server append to the same file at the same time."""

from __future__ import annotations

import textwrap
from pathlib import Path

from app.storage.sqlite.driver import sqlite3
from tests.compat.legacy import fts_ok
from tests.conftest import LiveServer
from tests.reliability.appenders import Appenders, start_agent_writer

AGENT_SCRIPT = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    import hermes_state

    path, shared, count = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    db = hermes_state.SessionDB(db_path=path)
    db.create_session("agent-own", "cli")
    print("ready", flush=True)
    for i in range(count):
        db.append_message("agent-own", "user", f"agent message {i} narwhal")
        if i % 2 == 0:
            db.append_message(shared, "assistant", f"agent reply {i} narwhal")
    db.close()
    print("done", flush=True)
    """
)
AGENT_COUNT = 120
HTTP_THREADS = 4
HTTP_PER_THREAD = 30


def test_agent_process_and_server_write_together(live_server: LiveServer, home: Path) -> None:
    shared, agent = start_agent_writer(live_server, AGENT_SCRIPT, AGENT_COUNT, title="Shared")
    path = home / "state.db"
    appenders = Appenders(live_server.base_url, shared, threads=HTTP_THREADS, limit=HTTP_PER_THREAD).start()
    appenders.join()
    out, err = agent.communicate(timeout=120)
    assert agent.returncode == 0, err
    assert "done" in out

    assert appenders.statuses == {201: HTTP_THREADS * HTTP_PER_THREAD}
    agent_shared = (AGENT_COUNT + 1) // 2
    conn = sqlite3.connect(path)
    try:
        counts = dict(
            conn.execute("SELECT session_id, COUNT(*) FROM messages GROUP BY session_id").fetchall()
        )
        recorded = dict(conn.execute("SELECT id, message_count FROM sessions").fetchall())
    finally:
        conn.close()
    assert counts == {"agent-own": AGENT_COUNT, shared: HTTP_THREADS * HTTP_PER_THREAD + agent_shared}
    assert recorded["agent-own"] == AGENT_COUNT
    assert recorded[shared] == counts[shared]
    assert appenders.acked <= _ids(path, shared)
    fts_ok(path)
    with live_server.client() as c:
        assert c.get(f"/sessions/{shared}").json()["message_count"] == counts[shared]


def _ids(path: Path, session_id: str) -> set[int]:
    conn = sqlite3.connect(path)
    try:
        return {r[0] for r in conn.execute("SELECT id FROM messages WHERE session_id = ?", (session_id,))}
    finally:
        conn.close()
