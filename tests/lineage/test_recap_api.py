"""GET /sessions/{id}/recap over messages the agent wrote (reference §3.7; checks 157–162)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from app.storage.sqlite.driver import sqlite3
from tests.lineage.conftest import create


def test_recap_of_agent_messages(client: TestClient, agent: Any, raw: sqlite3.Connection) -> None:
    session = create(client, source="cli")
    sid = session["id"]
    agent.append_message(sid, "system", "You are Hermes.")
    for i in range(25):
        agent.append_message(sid, "user", f"question {i}")
        agent.append_message(sid, "assistant", f"answer {i}")
    calls = [{"id": str(i), "function": {"name": n, "arguments": "{}"}} for i, n in enumerate("abacde")]
    agent.append_message(
        sid, "assistant", "<REASONING_SCRATCHPAD>plan</REASONING_SCRATCHPAD>", tool_calls=calls
    )
    agent.append_message(sid, "tool", "result", tool_call_id="0")
    agent.append_message(
        sid, "user", [{"type": "text", "text": "see"}, {"type": "image_url", "image_url": {}}]
    )
    agent.append_message(sid, "assistant", "l1\nl2\nl3\nl4\nl5")
    body = client.get(f"/sessions/{sid}/recap").json()
    assert body["omitted"] == 33
    assert len(body["entries"]) == 20
    assert body["entries"][-3:] == [
        {"role": "assistant", "text": "[6 tool calls: a, b, c, d, ...]"},
        {"role": "user", "text": "see [image]"},
        {"role": "assistant", "text": "l1\nl2\nl3 ..."},
    ]
    small = client.get(f"/sessions/{sid}/recap", params={"exchanges": 1}).json()
    assert small == {
        "entries": [
            {"role": "user", "text": "see [image]"},
            {"role": "assistant", "text": "l1\nl2\nl3 ..."},
        ],
        "omitted": 51,
    }
    # Rewound messages are not recapped.
    raw.execute("UPDATE messages SET active = 0 WHERE session_id = ? AND content LIKE 'l1%'", (sid,))
    assert (
        client.get(f"/sessions/{sid}/recap", params={"exchanges": 1}).json()["entries"][-1]["role"] == "user"
    )


def test_recap_empty_missing_and_bounds(client: TestClient) -> None:
    session = create(client, source="cli")
    assert client.get(f"/sessions/{session['id']}/recap").json() == {"entries": [], "omitted": 0}
    missing = client.get("/sessions/nope/recap")
    assert (missing.status_code, missing.json()["code"]) == (404, "session_not_found")
    for exchanges in (0, 101):
        assert (
            client.get(f"/sessions/{session['id']}/recap", params={"exchanges": exchanges}).status_code == 422
        )
