"""GET, end, reopen, usage and PATCH of a session (reference checks 11.3, 11.5 via the API)."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from app.storage.sqlite.driver import sqlite3
from tests.sessions.conftest import create


def test_get_and_missing(client: TestClient) -> None:
    created = create(client, id="g1", system_prompt="SP")
    got = client.get("/sessions/g1")
    assert got.status_code == 200 and got.json() == created
    assert "system_prompt" not in got.json()
    with_prompt = client.get("/sessions/g1", params={"include": "system_prompt"})
    assert with_prompt.json()["system_prompt"] == "SP"
    assert with_prompt.headers["etag"] == got.headers["etag"]
    missing = client.get("/sessions/nope")
    assert missing.status_code == 404
    assert missing.json()["code"] == "session_not_found"
    assert missing.json()["detail"] == "Session not found: nope"


def test_first_end_wins_and_reopen(client: TestClient, agent: Any) -> None:
    create(client, id="e1", title="Kept")
    before = time.time()
    ended = client.post("/sessions/e1/end", json={"end_reason": "user_exit"}).json()
    assert ended["end_reason"] == "user_exit" and ended["ended_at"] >= before - 1
    again = client.post("/sessions/e1/end", json={"end_reason": "compression"}).json()
    assert again["end_reason"] == "user_exit" and again["ended_at"] == ended["ended_at"]
    assert again["title"] == "Kept"
    reopened = client.post("/sessions/e1/reopen").json()
    assert reopened["ended_at"] is None and reopened["end_reason"] is None
    assert (
        client.post("/sessions/e1/end", json={"end_reason": "cli_close"}).json()["end_reason"] == "cli_close"
    )
    assert agent.get_session("e1")["end_reason"] == "cli_close"
    assert client.post("/sessions/none/end", json={"end_reason": "x"}).status_code == 404
    assert client.post("/sessions/none/reopen").status_code == 404


def test_agent_end_respects_our_end(client: TestClient, agent: Any) -> None:
    create(client, id="e2")
    client.post("/sessions/e2/end", json={"end_reason": "user_exit"})
    agent.end_session("e2", "compression")
    assert client.get("/sessions/e2").json()["end_reason"] == "user_exit"


def test_usage_increment_absolute_and_model_fill(
    client: TestClient, agent: Any, raw: sqlite3.Connection
) -> None:
    create(client, id="u1")
    for _ in range(2):
        body = client.post(
            "/sessions/u1/usage",
            json={"input_tokens": 100, "output_tokens": 50, "api_call_count": 1, "model": "x"},
        ).json()
    assert (body["input_tokens"], body["output_tokens"], body["api_call_count"]) == (200, 100, 2)
    assert body["model"] == "x"
    usage_rows = raw.execute(
        "SELECT model, input_tokens, api_call_count FROM session_model_usage WHERE session_id = 'u1'"
    ).fetchall()
    assert [tuple(r) for r in usage_rows] == [("x", 200, 2)]
    absolute = client.post(
        "/sessions/u1/usage", json={"mode": "absolute", "input_tokens": 7, "estimated_cost_usd": 0.5}
    ).json()
    assert absolute["input_tokens"] == 7 and absolute["output_tokens"] == 0
    assert absolute["estimated_cost_usd"] == 0.5
    create(client, id="u2", model="y")
    assert client.post("/sessions/u2/usage", json={"input_tokens": 1, "model": "z"}).json()["model"] == "y"
    # The agent keeps counting on top of ours.
    agent.update_token_counts("u1", input_tokens=3)
    assert client.get("/sessions/u1").json()["input_tokens"] == 10
    assert client.post("/sessions/ghost/usage", json={"input_tokens": 1}).status_code == 404


def test_patch_fields(client: TestClient, raw: sqlite3.Connection) -> None:
    create(client, id="p1")
    body = client.patch(
        "/sessions/p1",
        json={"title": "  My   Project \n", "model": "m", "model_config": {"k": "v"}, "archived": True},
    ).json()
    assert body["title"] == "My Project" and body["model"] == "m"
    assert body["model_config"] == {"k": "v"} and body["archived"] is True
    assert raw.execute("SELECT archived FROM sessions WHERE id='p1'").fetchone()[0] == 1
    cleared = client.patch("/sessions/p1", json={"title": None, "archived": False}).json()
    assert cleared["title"] is None and cleared["archived"] is False
    ended = client.patch("/sessions/p1", json={"end_reason": "done"}).json()
    assert ended["end_reason"] == "done" and ended["ended_at"] is not None
    unknown = client.patch("/sessions/p1", json={"colour": "red"})
    assert unknown.status_code == 422
    assert client.patch("/sessions/ghost", json={"title": "x"}).status_code == 404


def test_etag_and_if_match(client: TestClient, agent: Any) -> None:
    create(client, id="t1")
    etag = client.get("/sessions/t1").headers["etag"]
    assert client.get("/sessions/t1").headers["etag"] == etag
    agent.append_message("t1", "user", "hello")
    new_etag = client.get("/sessions/t1").headers["etag"]
    assert new_etag != etag
    stale = client.patch("/sessions/t1", json={"title": "A"}, headers={"If-Match": etag})
    assert stale.status_code == 412 and stale.json()["code"] == "precondition_failed"
    assert client.get("/sessions/t1").json()["title"] is None
    ok = client.patch("/sessions/t1", json={"title": "A"}, headers={"If-Match": new_etag})
    assert ok.status_code == 200 and ok.headers["etag"] != new_etag
    assert client.patch("/sessions/t1", json={"title": "B"}, headers={"If-Match": "*"}).status_code == 200
    weak = client.patch("/sessions/t1", json={"title": "C"}, headers={"If-Match": f"W/{ok.headers['etag']}"})
    assert weak.status_code == 412
    gone = client.delete("/sessions/t1", headers={"If-Match": etag})
    assert gone.status_code == 412
    current = client.get("/sessions/t1").headers["etag"]
    assert client.delete("/sessions/t1", headers={"If-Match": current}).status_code == 204
