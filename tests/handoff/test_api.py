"""Handoff over HTTP: the reference's checks 186-192, every error code, stub titles, platforms."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.domain.handoff import KNOWN_PLATFORMS
from app.storage.sqlite.driver import sqlite3
from tests.api.problem_assert import assert_problem
from tests.handoff.conftest import HOME, configure, new_session, request


def _state(client: TestClient, session_id: str) -> dict[str, object]:
    response = client.get(f"/handoff/{session_id}")
    assert response.status_code == 200, response.text
    return dict(response.json())


def _claim(client: TestClient, **body: object) -> dict[str, object] | None:
    response = client.post("/handoff/claim", json=body)
    if response.status_code == 204:
        return None
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_186_request_on_fresh_session(telegram: TestClient, raw: sqlite3.Connection) -> None:
    sid = new_session(telegram, title="deploy")
    response = request(telegram, sid)
    assert response.status_code == 202
    body = response.json()
    assert body["session_id"] == sid and body["platform"] == "telegram" and body["state"] == "pending"
    assert body["home_channel"] == HOME and body["title"] == "deploy"
    row = raw.execute(
        "SELECT handoff_state, handoff_platform, handoff_error FROM sessions WHERE id = ?", (sid,)
    ).fetchone()
    assert row == ("pending", "telegram", None)
    assert telegram.get(f"/sessions/{sid}").json()["handoff"] == {
        "state": "pending",
        "platform": "telegram",
        "error": None,
    }


def test_187_second_request_while_pending_or_running(telegram: TestClient) -> None:
    sid = new_session(telegram, title="t")
    assert request(telegram, sid).status_code == 202
    body = assert_problem(request(telegram, sid), 409, "handoff_in_flight", extra=("state", "platform"))
    assert body["state"] == "pending"
    assert body["detail"] == "Session is already in flight for handoff. Wait for it to settle, then retry."
    assert _claim(telegram) is not None
    body = assert_problem(request(telegram, sid), 409, "handoff_in_flight", extra=("state", "platform"))
    assert body["state"] == "running"


def test_188_claim_twice_first_wins(telegram: TestClient) -> None:
    sid = new_session(telegram, title="t")
    request(telegram, sid)
    first = _claim(telegram, worker="gw-1")
    assert first is not None and first["session_id"] == sid and first["state"] == "running"
    assert first["worker"] == "gw-1" and first["home_channel"] == HOME and first["threads"] is False
    assert _claim(telegram, worker="gw-2") is None
    assert _state(telegram, sid)["state"] == "running"


def test_189_complete_then_rearmable(telegram: TestClient) -> None:
    sid = new_session(telegram, title="t")
    request(telegram, sid)
    _claim(telegram)
    thread = {"chat_id": "-100123", "thread_id": "77", "name": "Hermes — t"}
    done = telegram.post(f"/handoff/{sid}/complete", json={"thread": thread})
    assert done.status_code == 200 and done.json()["state"] == "completed"
    assert _state(telegram, sid)["thread"] == thread
    again = request(telegram, sid)
    assert again.status_code == 202 and again.json()["state"] == "pending"
    # A new attempt forgets where the previous one went and who claimed it.
    assert _state(telegram, sid)["thread"] is None and _state(telegram, sid)["worker"] is None


def test_190_fail_truncates_and_rearm_clears_error(telegram: TestClient, raw: sqlite3.Connection) -> None:
    sid = new_session(telegram, title="t")
    request(telegram, sid)
    failed = telegram.post(f"/handoff/{sid}/fail", json={"error": "x" * 1000})
    assert failed.status_code == 200 and failed.json()["state"] == "failed"
    (error,) = raw.execute("SELECT handoff_error FROM sessions WHERE id = ?", (sid,)).fetchone()
    assert error == "x" * 500
    assert request(telegram, sid).status_code == 202
    assert raw.execute("SELECT handoff_error FROM sessions WHERE id = ?", (sid,)).fetchone() == (None,)


def test_192_claims_oldest_pending_first(telegram: TestClient, raw: sqlite3.Connection) -> None:
    configure(telegram, "discord")
    ids = [new_session(telegram, title=f"s{i}") for i in range(4)]
    for offset, sid in zip((30, 10, 20, 40), ids, strict=True):
        raw.execute("UPDATE sessions SET started_at = ? WHERE id = ?", (1000.0 + offset, sid))
    for sid in ids[:3]:
        request(telegram, sid)
    request(telegram, ids[3], "discord")
    order = [(_claim(telegram, platform="telegram") or {}).get("session_id") for _ in range(4)]
    assert order == [ids[1], ids[2], ids[0], None]
    claimed = _claim(telegram)  # any platform
    assert claimed is not None and claimed["session_id"] == ids[3] and claimed["platform"] == "discord"


def test_fail_only_states_is_compare_and_set(telegram: TestClient) -> None:
    sid = new_session(telegram, title="t")
    request(telegram, sid)
    _claim(telegram)
    late = telegram.post(f"/handoff/{sid}/fail", json={"error": "timeout", "only_states": ["pending"]})
    assert assert_problem(late, 409, "handoff_state_changed", extra=("state",))["state"] == "running"
    ok = telegram.post(f"/handoff/{sid}/fail", json={"error": "adapter down", "only_states": ["running"]})
    assert ok.json()["state"] == "failed" and ok.json()["error"] == "adapter down"
    # A settled handoff cannot fail or complete again.
    assert_problem(
        telegram.post(f"/handoff/{sid}/fail", json={"error": "x"}),
        409,
        "handoff_state_changed",
        extra=("state",),
    )
    assert_problem(telegram.post(f"/handoff/{sid}/complete"), 409, "handoff_state_changed", extra=("state",))


def test_complete_requires_running(telegram: TestClient) -> None:
    sid = new_session(telegram, title="t")
    assert_problem(telegram.post(f"/handoff/{sid}/complete"), 409, "handoff_state_changed")
    request(telegram, sid)
    body = assert_problem(
        telegram.post(f"/handoff/{sid}/complete"), 409, "handoff_state_changed", extra=("state",)
    )
    assert body["state"] == "pending"


def test_error_codes(client: TestClient) -> None:
    sid = new_session(client, title="t")
    body = assert_problem(
        request(client, sid, "myspace"), 422, "unknown_platform", extra=("platform", "platforms")
    )
    assert body["platforms"] == list(KNOWN_PLATFORMS) and "telegram" in body["platforms"]
    assert_problem(request(client, "missing", "telegram"), 404, "session_not_found", extra=("session_id",))
    body = assert_problem(request(client, sid), 409, "platform_not_enabled", extra=("platform",))
    assert body["detail"] == "Platform 'telegram' is not configured/enabled in the gateway."
    configure(client, home_channel=None)
    body = assert_problem(request(client, sid), 409, "no_home_channel", extra=("platform",))
    assert "/sethome" in body["detail"] and "destination chat" in body["detail"]
    configure(client)
    body = assert_problem(request(client, sid, busy=True), 409, "agent_busy")
    assert body["detail"] == "Agent is busy. Wait for the current turn to finish, then retry /handoff."
    assert client.get(f"/handoff/{sid}").json()["state"] is None  # nothing was queued by the refusals
    assert_problem(client.get("/handoff/missing"), 404, "session_not_found", extra=("session_id",))
    assert_problem(client.post("/handoff/missing/complete"), 404, "session_not_found", extra=("session_id",))
    assert_problem(
        client.post("/handoff/missing/fail", json={"error": "x"}),
        404,
        "session_not_found",
        extra=("session_id",),
    )
    assert_problem(
        client.post("/handoff/claim", json={"platform": "myspace"}),
        422,
        "unknown_platform",
        extra=("platform", "platforms"),
    )
    assert_problem(
        client.post(f"/handoff/{sid}/fail", json={"error": "x", "only_states": ["completed"]}), 422
    )
    assert_problem(client.post("/handoff/claim?wait=61", json={}), 422)


def test_untitled_session_gets_stub_title(telegram: TestClient) -> None:
    first = new_session(telegram, id="abcdefgh-1")
    second = new_session(telegram, id="abcdefgh-2")
    assert request(telegram, first).json()["title"] == "handoff-abcdefgh"
    # The stub obeys title uniqueness: the next session with the same prefix is numbered.
    assert request(telegram, second).json()["title"] == "handoff-abcdefgh #2"
    assert telegram.get(f"/sessions/{second}").json()["title"] == "handoff-abcdefgh #2"


def test_platforms_list_and_put(client: TestClient) -> None:
    items = client.get("/platforms").json()["items"]
    assert [p["platform"] for p in items] == list(KNOWN_PLATFORMS)
    assert all(
        p
        == {
            "platform": p["platform"],
            "enabled": False,
            "home_channel": None,
            "threads": False,
            "updated_at": None,
        }
        for p in items
    )
    put = configure(client, "slack", threads=True)
    assert put["enabled"] is True and put["home_channel"] == HOME and put["threads"] is True
    listed = {p["platform"]: p for p in client.get("/platforms").json()["items"]}
    assert listed["slack"] == put
    assert_problem(
        client.put("/platforms/myspace", json={"enabled": True}),
        422,
        "unknown_platform",
        extra=("platform", "platforms"),
    )
    assert_problem(
        client.put("/platforms/slack", json={"enabled": True, "home_channel": {"name": "no id"}}), 422
    )
    assert_problem(client.put("/platforms/slack", json={}), 422)
