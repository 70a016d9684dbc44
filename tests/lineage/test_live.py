"""Compression and resolve over a real server on loopback: headers, raw UTF-8 bodies, the agent after."""

from __future__ import annotations

import hermes_state

from tests.conftest import LiveServer


def test_compress_then_resume_over_http(live_server: LiveServer) -> None:
    with live_server.client() as http:
        root = http.post("/sessions", json={"source": "cli", "title": "Café ☕"}).json()
        response = http.post(
            f"/sessions/{root['id']}/continuations",
            json={"messages": [{"role": "user", "content": "résumé"}]},
            headers={"Idempotency-Key": "k1"},
        )
        assert response.status_code == 201
        child = response.json()
        assert response.headers["location"] == f"/sessions/{child['id']}"
        assert "Café ☕ #2".encode() in response.content
        resolved = http.get("/sessions/resolve", params={"ref": "Café ☕"})
        assert resolved.json()["id"] == child["id"]
        assert resolved.headers["etag"]
        recap = http.get(f"/sessions/{root['id']}/recap").json()
        assert recap == {"entries": [], "omitted": 0}
        assert http.get(f"/sessions/{child['id']}/recap").json()["entries"] == [
            {"role": "user", "text": "résumé"}
        ]
    agent = hermes_state.SessionDB(db_path=live_server.home / "state.db")
    try:
        assert agent.resolve_session_by_title("Café ☕") == child["id"]
        assert agent.resolve_resume_session_id(root["id"]) == child["id"]
        conversation = agent.get_messages_as_conversation(child["id"])
        assert [(m["role"], m["content"]) for m in conversation] == [("user", "résumé")]
    finally:
        agent.close()
