"""The gateway's long-poll claim: woken by a request, never double-claimed, bounded waits."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import hermes_state
import httpx
from fastapi.testclient import TestClient

from app.settings import Settings
from tests.conftest import LiveServer
from tests.handoff.conftest import configure, new_session, request


def test_long_poll_is_woken_by_a_request(telegram: TestClient) -> None:
    sid = new_session(telegram, title="t")
    result: dict[str, Any] = {}

    def claim() -> None:
        started = time.monotonic()
        response = telegram.post("/handoff/claim?wait=20", json={"worker": "gw"})
        result["status"], result["body"] = response.status_code, response.json()
        result["elapsed"] = time.monotonic() - started

    waiter = threading.Thread(target=claim)
    waiter.start()
    time.sleep(0.5)
    queued_at = time.monotonic()
    request(telegram, sid)
    waiter.join(timeout=25)
    assert result["status"] == 200 and result["body"]["session_id"] == sid
    # Woken by the commit, not by the 20 s timeout (the poll interval is 1 s).
    assert result["elapsed"] < 5
    assert time.monotonic() - queued_at < 2


def test_long_poll_times_out_with_204(telegram: TestClient) -> None:
    started = time.monotonic()
    response = telegram.post("/handoff/claim?wait=1.5", json={"platform": "telegram"})
    assert response.status_code == 204 and response.content == b""
    assert 1.4 < time.monotonic() - started < 5


def test_long_poll_sees_a_request_made_by_the_agent(telegram: TestClient, agent: Any) -> None:
    sid = new_session(telegram, title="t")

    def agent_requests() -> None:
        time.sleep(0.5)
        agent.request_handoff(sid, "telegram")  # no event, no notification: only the periodic re-check

    threading.Thread(target=agent_requests).start()
    response = telegram.post("/handoff/claim?wait=10", json={})
    assert response.status_code == 200 and response.json()["session_id"] == sid


def test_long_poll_for_another_platform_is_not_served(telegram: TestClient) -> None:
    configure(telegram, "discord")
    sid = new_session(telegram, title="t")
    request(telegram, sid, "discord")
    assert telegram.post("/handoff/claim?wait=0.5", json={"platform": "telegram"}).status_code == 204
    assert telegram.post("/handoff/claim", json={"platform": "discord"}).json()["session_id"] == sid


def test_concurrent_claims_exactly_one_wins(live_server: LiveServer) -> None:
    with live_server.client() as http:
        configure(http)
        sid = new_session(http, title="race")

        def claim(worker: int) -> httpx.Response:
            return http.post("/handoff/claim?wait=10", json={"worker": f"gw-{worker}"})

        with ThreadPoolExecutor(max_workers=6) as pool:
            futures = [pool.submit(claim, i) for i in range(6)]
            time.sleep(0.5)
            assert request(http, sid).status_code == 202
            # One long-poll gets it; the others wait out their 10 s (keep the test short: queue more).
            time.sleep(0.5)
            others = [new_session(http, title=f"more {i}") for i in range(5)]
            for other in others:
                request(http, other)
            responses = [f.result(timeout=30) for f in futures]
        claimed = [r.json()["session_id"] for r in responses if r.status_code == 200]
        assert sorted(claimed) == sorted([sid, *others])  # every handoff claimed exactly once
        assert len(set(claimed)) == len(claimed)
        assert http.get(f"/handoff/{sid}").json()["state"] == "running"


def test_two_concurrent_claims_one_handoff(live_server: LiveServer) -> None:
    with live_server.client() as http:
        configure(http)
        sid = new_session(http, title="one")
        with ThreadPoolExecutor(max_workers=2) as pool:
            futures = [
                pool.submit(http.post, "/handoff/claim?wait=3", json={"worker": w}) for w in ("a", "b")
            ]
            time.sleep(0.5)
            request(http, sid)
            responses = [f.result(timeout=15) for f in futures]
        assert sorted(r.status_code for r in responses) == [200, 204]
        winner = next(r.json() for r in responses if r.status_code == 200)
        assert http.get(f"/handoff/{sid}").json()["worker"] == winner["worker"]


def test_a_synced_pending_handoff_is_its_homes_not_ours(telegram: TestClient, settings: Settings) -> None:
    synced = {
        "id": "from-laptop",
        "source": "cli",
        "started_at": 1_767_600_000.0,
        "handoff_state": "pending",
        "handoff_platform": "telegram",
    }
    answer = telegram.post("/sync/batches", json={"home": "laptop", "sessions": [synced]})
    assert answer.status_code == 200, answer.text
    # The home's gateway hands it off there; this store holds no pending handoff of it, so neither this
    # store's gateway nor an agent's gateway running on the hub's file finds anything to claim.
    assert telegram.post("/handoff/claim", json={"worker": "hub"}).status_code == 204
    assert telegram.get("/handoff/from-laptop").json()["state"] is None
    if not settings.database_url:
        agent = hermes_state.SessionDB(db_path=settings.db_path)
        try:
            assert "from-laptop" not in [row["id"] for row in agent.list_pending_handoffs()]
            assert not agent.claim_handoff("from-laptop")
        finally:
            agent.close()
    local = new_session(telegram, title="local")
    request(telegram, local)
    claimed = telegram.post("/handoff/claim", json={"worker": "hub"})
    assert claimed.status_code == 200 and claimed.json()["session_id"] == local
    # The home's gateway claimed it there: the next sync carries the handoff on.
    synced["handoff_state"] = "running"
    assert telegram.post("/sync/batches", json={"home": "laptop", "sessions": [synced]}).status_code == 200
    assert telegram.get("/handoff/from-laptop").json()["state"] == "running"
