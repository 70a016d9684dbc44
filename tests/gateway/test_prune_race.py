"""The start-up prune against a route of the same chat committed while it runs, on both backends.

A router (here a raw connection standing for another lane or replica) holds the chat's entry, pointing it
at a new live session, while the prune judges that entry by its ended session. The prune must judge the
entry as the router left it: the new session and its entry stay.
"""

from __future__ import annotations

import json
import threading
import time

from fastapi.testclient import TestClient

from app.settings import Settings
from app.storage.sqlite.driver import sqlite3
from tests.gateway.conftest import gateway_of, route

LIVE = "20990101_000000_00c0ffee"
HELD_S = 1.0


def test_a_route_committed_while_prune_runs_keeps_its_entry_and_session(
    client: TestClient, raw: sqlite3.Connection, settings: Settings
) -> None:
    first = route(client, chat_id="7")
    key = first["session_key"]
    raw.execute(
        "UPDATE sessions SET ended_at = ?, end_reason = 'user_exit' WHERE id = ?",
        (time.time(), first["session_id"]),
    )
    (stored,) = raw.execute("SELECT entry_json FROM gateway_routing WHERE session_key = ?", (key,)).fetchone()
    entry = {**json.loads(stored), "session_id": LIVE}

    raw.execute("BEGIN" if settings.database_url else "BEGIN IMMEDIATE")
    raw.execute("UPDATE gateway_routing SET entry_json = ? WHERE session_key = ?", (json.dumps(entry), key))
    raw.execute(
        "INSERT INTO sessions (id, source, user_id, session_key, chat_id, chat_type, started_at,"
        " message_count) VALUES (?, 'telegram', ?, ?, '7', 'dm', ?, 0)",
        (LIVE, first["entry"]["origin"].get("user_id"), key, time.time()),
    )
    pruned: list[int] = []
    assert client.portal is not None
    portal = client.portal
    prune = threading.Thread(target=lambda: pruned.append(portal.call(gateway_of(client).prune_stale)))
    prune.start()
    time.sleep(HELD_S)  # the prune has read the ended entry and waits on the router's key
    raw.execute("COMMIT")
    prune.join(30)

    assert pruned == [0]
    (now,) = raw.execute("SELECT entry_json FROM gateway_routing WHERE session_key = ?", (key,)).fetchone()
    assert json.loads(now)["session_id"] == LIVE
    (end,) = raw.execute("SELECT end_reason FROM sessions WHERE id = ?", (LIVE,)).fetchone()
    assert end is None
