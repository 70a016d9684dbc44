"""``hermes handoff``: against a live server with a fake gateway, and every refusal message."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import hermes_state
import httpx
import pytest
from typer.testing import Result

from app.cli.config import CliConfig
from app.cli.context import CliEnv
from app.domain.handoff import CANCELLED_ERROR, TIMEOUT_ERROR
from tests.cli.conftest import invoke
from tests.conftest import TOKEN, LiveServer
from tests.handoff.conftest import configure, new_session

TIMED_OUT = "Timed out waiting for the gateway. Is `hermes gateway` running?"
Gateway = Callable[[httpx.Client, dict[str, Any]], object]


@pytest.fixture
def server(live_server: LiveServer) -> Iterator[LiveServer]:
    """The live server with telegram enabled and a home channel."""
    with live_server.client() as http:
        configure(http)
    yield live_server


def _hermes(server: LiveServer, *args: str) -> Result:
    config = CliConfig(url=server.base_url, token=TOKEN, home=server.home)
    with server.client() as http:
        return invoke(CliEnv(config=config, http=http), "handoff", *args)


def _gateway(server: LiveServer, act: Gateway) -> threading.Thread:
    """A gateway on its own connection: long-poll a claim, then ``act`` on it."""

    def run() -> None:
        with server.client() as http:
            response = http.post("/handoff/claim?wait=20", json={"platform": "telegram", "worker": "fake"})
            if response.status_code == 200:
                act(http, response.json())

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def _state(server: LiveServer, session_id: str) -> dict[str, Any]:
    with server.client() as http:
        return dict(http.get(f"/handoff/{session_id}").json())


def test_happy_path(server: LiveServer) -> None:
    with server.client() as http:
        sid = new_session(http, title="deploy")

    def deliver(http: httpx.Client, claimed: dict[str, Any]) -> None:
        time.sleep(0.3)
        http.post(f"/handoff/{claimed['session_id']}/complete", json={"thread": {"chat_id": "-100123"}})

    gateway = _gateway(server, deliver)
    result = _hermes(server, "telegram", sid)
    gateway.join(5)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "Queued handoff of 'deploy' → telegram (home: Ops room).",
        "Gateway picked it up; transferring...",
        "↻ Handoff complete. The session is now active on telegram.",
        "Resume it on this CLI later with: /resume deploy",
    ]
    assert _state(server, sid)["state"] == "completed"


def test_default_session_is_latest_cli_session_and_gets_stub_title(server: LiveServer) -> None:
    with server.client() as http:
        new_session(http, title="older")
        sid = new_session(http)
    gateway = _gateway(server, lambda http, c: http.post(f"/handoff/{c['session_id']}/complete"))
    result = _hermes(server, "telegram")
    gateway.join(5)
    assert result.exit_code == 0, result.output
    stub = f"handoff-{sid[:8]}"
    assert stub in result.stdout.splitlines()[0] and f"/resume {stub}" in result.stdout
    # Completed at once, most likely before any reading saw it running: the story is told all the same.
    assert result.stdout.splitlines()[1:3] == [
        "Gateway picked it up; transferring...",
        "↻ Handoff complete. The session is now active on telegram.",
    ]
    assert _state(server, sid)["state"] == "completed"


def test_gateway_failure(server: LiveServer) -> None:
    with server.client() as http:
        sid = new_session(http, title="t")
    gateway = _gateway(
        server,
        lambda http, c: http.post(f"/handoff/{c['session_id']}/fail", json={"error": "adapter not running"}),
    )
    result = _hermes(server, "telegram", sid)
    gateway.join(5)
    assert result.exit_code == 7
    assert "Handoff failed: adapter not running" in result.stderr
    assert "↻ Handoff complete" not in result.stdout


def test_unclaimed_times_out_and_fails_the_row(server: LiveServer) -> None:
    with server.client() as http:
        sid = new_session(http, title="t")
    started = time.monotonic()
    result = _hermes(server, "telegram", sid, "--claim-timeout", "1")
    assert result.exit_code == 7
    assert time.monotonic() - started < 5
    assert TIMED_OUT in result.stderr
    assert "Gateway picked it up" not in result.stdout
    state = _state(server, sid)
    assert state["state"] == "failed" and state["error"] == TIMEOUT_ERROR


def test_claimed_but_stuck_reports_progress_then_times_out(server: LiveServer) -> None:
    with server.client() as http:
        sid = new_session(http, title="t")
    gateway = _gateway(server, lambda http, c: None)  # claims, then never settles
    result = _hermes(server, "telegram", sid, "--complete-timeout", "1.6", "--progress-every", "0.5")
    gateway.join(5)
    assert result.exit_code == 7
    lines = result.stdout.splitlines()
    assert lines[1] == "Gateway picked it up; transferring..."
    assert 2 <= lines.count("Still transferring...") <= 4
    assert TIMED_OUT in result.stderr
    state = _state(server, sid)
    assert state["state"] == "failed" and state["error"] == TIMEOUT_ERROR


def test_gateway_driving_the_agents_sessiondb_is_seen(server: LiveServer) -> None:
    """The agent's own gateway records no events: the CLI's 0.5 s re-reads must notice it."""
    with server.client() as http:
        sid = new_session(http, title="agent gw")

    def agent_gateway() -> None:
        db = hermes_state.SessionDB(db_path=Path(server.home) / "state.db")
        try:
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and not db.list_pending_handoffs():
                time.sleep(0.05)
            assert db.claim_handoff(sid)
            time.sleep(0.7)
            db.complete_handoff(sid)
        finally:
            db.close()

    thread = threading.Thread(target=agent_gateway, daemon=True)
    thread.start()
    result = _hermes(server, "telegram", sid, "--claim-timeout", "8")
    thread.join(5)
    assert result.exit_code == 0, result.output
    assert "Gateway picked it up; transferring..." in result.stdout
    assert "↻ Handoff complete. The session is now active on telegram." in result.stdout


def test_refusals_from_a_live_server(server: LiveServer) -> None:
    with server.client() as http:
        sid = new_session(http, title="t")
        configure(http, "discord", enabled=False, home_channel=None)
        configure(http, "slack", home_channel=None)
        http.post("/handoff", json={"session_id": sid, "platform": "telegram"})
    usage = _hermes(server)
    assert usage.exit_code == 2 and "Usage: /handoff <platform>" in usage.stderr
    unknown = _hermes(server, "myspace", sid)
    assert unknown.exit_code == 2
    assert unknown.stderr.splitlines()[0] == "Unknown platform 'myspace'."
    assert "telegram" in unknown.stderr.splitlines()[1]
    disabled = _hermes(server, "discord", sid)
    assert disabled.exit_code == 5
    assert disabled.stderr.strip() == "Platform 'discord' is not configured/enabled in the gateway."
    homeless = _hermes(server, "slack", sid)
    assert homeless.exit_code == 5
    assert homeless.stderr.splitlines() == [
        "No home channel configured for slack.",
        "Set one with /sethome on the destination chat first.",
    ]
    in_flight = _hermes(server, "telegram", sid)
    assert in_flight.exit_code == 5
    assert in_flight.stderr.strip() == (
        "Session is already in flight for handoff. Wait for it to settle, then retry."
    )
    missing = _hermes(server, "telegram", "no-such-session")
    assert missing.exit_code == 3 and "Session not found: no-such-session" in missing.stderr


def test_busy_refusal(tmp_path: Path) -> None:
    """The server refuses a busy agent with 409 agent_busy (only an agent sends ``busy``)."""

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/sessions/resolve":
            return httpx.Response(200, json={"id": "s1", "title": "t"})
        if request.url.path == "/handoff":
            problem = {"status": 409, "code": "agent_busy", "detail": "busy", "title": "Conflict"}
            return httpx.Response(409, json=problem)
        return httpx.Response(404, json={"code": "not_found"})

    http = httpx.Client(base_url="http://x", transport=httpx.MockTransport(handler))
    env = CliEnv(CliConfig(url="http://x", token="t", home=tmp_path), http=http)
    result = invoke(env, "handoff", "telegram")
    assert result.exit_code == 5
    assert result.stderr.strip() == "Agent is busy. Wait for the current turn to finish, then retry /handoff."


def test_claim_timeout_loses_to_a_late_claim_and_keeps_waiting(tmp_path: Path) -> None:
    """The gateway claims just as the 60 s claim deadline passes: the CLI's compare-and-set fail is refused
    (409 handoff_state_changed), so it carries on into the transfer phase instead of reporting a timeout."""
    state = {"value": "pending"}
    fails: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path == "/sessions/resolve":
            return httpx.Response(200, json={"id": "s1", "title": "late"})
        if path == "/handoff":
            home = {"chat_id": "1", "name": "Home"}
            return httpx.Response(202, json={"session_id": "s1", "title": "late", "home_channel": home})
        if path == "/handoff/s1/fail":
            fails.append(json.loads(request.content))
            state["value"] = "running"  # the gateway's claim landed first
            problem = {"status": 409, "code": "handoff_state_changed", "detail": "moved", "state": "running"}
            return httpx.Response(409, json=problem)
        if path == "/handoff/s1":
            current = state["value"]
            if current == "running":
                state["value"] = "completed"
            return httpx.Response(200, json={"session_id": "s1", "state": current, "error": None})
        return httpx.Response(404, json={"code": "not_found"})

    http = httpx.Client(base_url="http://x", transport=httpx.MockTransport(handler))
    env = CliEnv(CliConfig(url="http://x", token="t", home=tmp_path), http=http)
    result = invoke(env, "handoff", "telegram", "--claim-timeout", "0.2", "--poll", "0.05")
    assert result.exit_code == 0, result.output
    assert fails == [{"error": TIMEOUT_ERROR, "only_states": ["pending"]}]
    assert result.stdout.splitlines()[1:] == [
        "Gateway picked it up; transferring...",
        "↻ Handoff complete. The session is now active on telegram.",
        "Resume it on this CLI later with: /resume late",
    ]


def test_ctrl_c_before_the_queue_answer_is_read_still_withdraws(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server has queued the handoff when Ctrl-C lands, but the CLI has not read its answer yet: the
    handoff is withdrawn all the same, so no gateway takes it later."""
    from app.cli.commands import handoff as command

    with server.client() as http:
        sid = new_session(http, title="early")
    queue = command._queue

    def queued_then_interrupted(*args: Any) -> dict[str, Any]:
        queue(*args)
        raise KeyboardInterrupt

    monkeypatch.setattr(command, "_queue", queued_then_interrupted)
    result = _hermes(server, "telegram", sid)
    assert result.exit_code != 0
    state = _state(server, sid)
    assert (state["state"], state["error"]) == ("failed", CANCELLED_ERROR)
    assert "could not be withdrawn" not in result.output
