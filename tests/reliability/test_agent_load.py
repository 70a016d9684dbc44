"""The real agent's ``SessionDB`` writes state.db from its own process under load while the server takes
appends and batches from several clients: the heavier sibling of tests/compat/test_concurrent_writers.py.

The only error either side may see is 503 ``database_busy`` (retried); every write either side was told
succeeded must be in the file, and the file must pass every integrity check.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from tests.conftest import LiveServer
from tests.reliability.appenders import Appenders, start_agent_writer
from tests.reliability.soundness import assert_sound, connect
from tests.sizes import sized

# The agent side: its own sessions (created, titled, counted, ended) and replies into the server's session.
# It prints every message id the agent was handed back, with its content, once it is done.
AGENT_SCRIPT = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path
    import hermes_state

    path, shared, count = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    db = hermes_state.SessionDB(db_path=path)
    acked, titles, own = {}, {}, []
    print("ready", flush=True)
    for i in range(count):
        if i % 40 == 0:
            own.append(db.create_session(f"agent-{i}", "cli", model="agent-model"))
        sid = own[-1]
        content = f"agent {i} narwhal"
        acked[db.append_message(sid, "user", content)] = [sid, content]
        if i % 3 == 0:
            reply = f"agent reply {i} narwhal"
            acked[db.append_message(shared, "assistant", reply)] = [shared, reply]
        if i % 20 == 5:
            titles[sid] = f"agent title {i}"
            db.set_session_title(sid, titles[sid])
            db.update_token_counts(sid, input_tokens=3, output_tokens=4)
        if i % 40 == 39:
            db.end_session(sid, "user_exit")
    db.close()
    print(json.dumps({"acked": acked, "titles": titles, "own": own}), flush=True)
    """
)
AGENT_COUNT = sized(400, 4000)
SINGLE_THREADS, BATCH_THREADS, BATCH = 3, 2, 25
PER_THREAD = sized(150, 1500)


def test_agent_and_server_under_load_lose_nothing(live_server: LiveServer, home: Path) -> None:
    shared, agent = start_agent_writer(live_server, AGENT_SCRIPT, AGENT_COUNT, title="Shared under load")
    path = home / "state.db"
    clients = [
        Appenders(live_server.base_url, shared, threads=SINGLE_THREADS, limit=PER_THREAD, retry_busy=True),
        Appenders(
            live_server.base_url,
            shared,
            threads=BATCH_THREADS,
            limit=PER_THREAD,
            batch=BATCH,
            retry_busy=True,
        ),
    ]
    for appenders in clients:
        appenders.start()
    for appenders in clients:
        appenders.join()
    out, err = agent.communicate(timeout=300)
    assert agent.returncode == 0, err
    report = json.loads(out.strip().splitlines()[-1])

    for appenders in clients:
        assert set(appenders.statuses) == {201}, appenders.statuses
    http_acked = {mid: text for a in clients for mid, text in a.contents.items()}
    assert len(http_acked) == SINGLE_THREADS * PER_THREAD + BATCH_THREADS * PER_THREAD
    agent_acked = {int(mid): tuple(pair) for mid, pair in report["acked"].items()}
    assert not set(http_acked) & set(agent_acked), "one message id handed to both writers"

    assert_sound(path)
    conn = connect(path)
    try:
        stored = {r["id"]: (r["session_id"], r["content"]) for r in conn.execute("SELECT * FROM messages")}
        sessions = {r["id"]: r for r in conn.execute("SELECT * FROM sessions")}
    finally:
        conn.close()
    lost_http = [m for m, text in http_acked.items() if stored.get(m) != (shared, text)]
    lost_agent = [m for m, want in agent_acked.items() if stored.get(m) != want]
    assert not lost_http and not lost_agent, (lost_http[:5], lost_agent[:5])
    assert sessions[shared]["message_count"] == len(http_acked) + sum(
        1 for sid, _ in agent_acked.values() if sid == shared
    )
    for sid, title in report["titles"].items():
        assert sessions[sid]["title"] == title
        assert sessions[sid]["input_tokens"] > 0
    assert all(sessions[sid]["ended_at"] is not None for sid in report["own"][:-1])
    with live_server.client() as c:
        assert c.get(f"/sessions/{shared}").json()["message_count"] == sessions[shared]["message_count"]
