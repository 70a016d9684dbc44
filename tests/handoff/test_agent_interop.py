"""One state machine, two drivers: our API and the real agent's ``SessionDB`` on the same file."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.api.problem_assert import assert_problem
from tests.handoff.conftest import new_session, request


def test_agent_claims_what_we_queued_and_we_see_it(telegram: TestClient, agent: Any) -> None:
    sid = new_session(telegram, title="move me")
    request(telegram, sid)
    assert agent.get_handoff_state(sid) == {"state": "pending", "platform": "telegram", "error": None}
    assert [row["id"] for row in agent.list_pending_handoffs()] == [sid]
    assert agent.claim_handoff(sid) is True
    assert agent.claim_handoff(sid) is False
    assert telegram.get(f"/handoff/{sid}").json()["state"] == "running"
    # Our claim finds nothing: the agent's gateway won the compare-and-set.
    assert telegram.post("/handoff/claim", json={}).status_code == 204
    agent.complete_handoff(sid)
    body = telegram.get(f"/handoff/{sid}").json()
    assert body["state"] == "completed" and body["error"] is None
    assert request(telegram, sid).status_code == 202  # re-armable after the agent completed it


def test_we_claim_what_the_agent_queued(telegram: TestClient, agent: Any) -> None:
    sid = new_session(telegram, title="agent side")
    assert agent.request_handoff(sid, "telegram") is True
    assert agent.request_handoff(sid, "telegram") is False
    claimed = telegram.post("/handoff/claim", json={"platform": "telegram", "worker": "ours"}).json()
    assert claimed["session_id"] == sid and claimed["state"] == "running"
    assert agent.claim_handoff(sid) is False
    assert agent.get_handoff_state(sid)["state"] == "running"
    failed = telegram.post(f"/handoff/{sid}/fail", json={"error": "y" * 700}).json()
    assert failed["state"] == "failed"
    assert agent.get_handoff_state(sid) == {"state": "failed", "platform": "telegram", "error": "y" * 500}
    assert agent.request_handoff(sid, "telegram") is True
    assert agent.get_handoff_state(sid)["error"] is None


def test_agent_failure_stops_our_completion(telegram: TestClient, agent: Any) -> None:
    sid = new_session(telegram, title="t")
    request(telegram, sid)
    telegram.post("/handoff/claim", json={})
    agent.fail_handoff(sid, "adapter not running")
    body = telegram.get(f"/handoff/{sid}").json()
    assert body["state"] == "failed" and body["error"] == "adapter not running"
    assert_problem(telegram.post(f"/handoff/{sid}/complete"), 409, "handoff_state_changed", extra=("state",))


def test_agent_list_pending_matches_our_claim_order(telegram: TestClient, agent: Any, raw: Any) -> None:
    ids = [new_session(telegram, title=f"p{i}") for i in range(3)]
    for offset, sid in zip((3, 1, 2), ids, strict=True):
        raw.execute("UPDATE sessions SET started_at = ? WHERE id = ?", (500.0 + offset, sid))
        request(telegram, sid)
    pending = [row["id"] for row in agent.list_pending_handoffs()]
    assert pending == [ids[1], ids[2], ids[0]]
    claimed = [telegram.post("/handoff/claim", json={}).json()["session_id"] for _ in ids]
    assert claimed == pending
    assert agent.list_pending_handoffs() == []


def test_rows_stay_readable_and_writable_by_agent(telegram: TestClient, agent: Any) -> None:
    sid = new_session(telegram)
    request(telegram, sid)
    session = agent.get_session(sid)
    assert session["title"] == f"handoff-{sid[:8]}" and session["handoff_state"] == "pending"
    agent.append_message(sid, "user", "still here")
    assert telegram.get(f"/sessions/{sid}").json()["message_count"] == 1
