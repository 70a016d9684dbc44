"""Handoff completion the agent's way (reference §4 and §5 rows 37-38): the destination key per platform,
the chat pointed at the handed-off session, the session re-peered, the synthetic turn; then the next
routed message in that thread, ours or the agent's store's, lands in the handed-off session."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import hermes_state
import pytest
from fastapi.testclient import TestClient
from gateway.config import GatewayConfig, Platform
from gateway.session import SessionSource, SessionStore

from app.storage.sqlite.driver import sqlite3
from tests.gateway.conftest import route, session_row
from tests.handoff.conftest import configure, new_session


def hand_off(
    client: TestClient, platform: str, home: dict[str, str], thread: dict[str, Any] | None
) -> tuple[str, dict[str, Any]]:
    """A titled CLI session handed off to ``platform`` and completed with ``thread``."""
    configure(client, platform, home_channel=home)
    session_id = new_session(client, title="Refactor")
    assert client.post("/handoff", json={"session_id": session_id, "platform": platform}).status_code == 202
    assert client.post("/handoff/claim", json={"platform": platform}).status_code == 200
    response = client.post(f"/handoff/{session_id}/complete", json={"thread": thread})
    assert response.status_code == 200, response.text
    return session_id, response.json()


SYNTHETIC = (
    '[Session was just handed off from CLI ("Refactor") to this channel. The full prior conversation '
    "history is loaded above. Briefly confirm you're working here and summarize what we were working on, "
    "so the user can continue from this device.]"
)


def test_row_37_discord_thread(client: TestClient, raw: sqlite3.Connection) -> None:
    session_id, done = hand_off(
        client, "discord", {"chat_id": "998877", "name": "#ops"}, {"thread_id": "554433"}
    )
    assert done["state"] == "completed"
    assert done["session_key"] == "agent:main:discord:thread:998877:554433"
    assert done["synthetic_turn"] == SYNTHETIC
    held = done["previous_session_id"]
    row = session_row(raw, session_id)
    assert (
        row["source"],
        row["user_id"],
        row["session_key"],
        row["chat_id"],
        row["chat_type"],
        row["thread_id"],
    ) == (
        "discord",
        "system:handoff",
        done["session_key"],
        "998877",
        "thread",
        "554433",
    )
    assert row["end_reason"] is None and row["display_name"] == "#ops"
    # The session the destination key was given first (the agent's get_or_create_session) is left.
    assert session_row(raw, held)["end_reason"] == "session_switch" and held != session_id
    # A real user's next message in the thread (threads are shared) lands in the handed-off session.
    nxt = route(
        client, platform="discord", chat_type="thread", chat_id="998877", thread_id="554433", user_id="u1"
    )
    assert nxt["session_id"] == session_id


def test_chat_already_routed_keeps_its_origin(client: TestClient, raw: sqlite3.Connection) -> None:
    """As ``switch_session`` does, a chat that already had an entry keeps that entry's origin."""
    held = route(
        client, platform="discord", chat_type="thread", chat_id="998877", thread_id="554433", user_id="u7"
    )
    session_id, done = hand_off(client, "discord", {"chat_id": "998877"}, {"thread_id": "554433"})
    assert done["previous_session_id"] == held["session_id"]
    assert session_row(raw, held["session_id"])["end_reason"] == "session_switch"
    assert session_row(raw, session_id)["user_id"] == "u7"


def test_row_38_signal_dm_on_home(client: TestClient) -> None:
    session_id, done = hand_off(client, "signal", {"chat_id": "+15550001"}, None)
    assert done["session_key"] == "agent:main:signal:dm:+15550001"
    assert route(client, platform="signal", chat_id="+15550001")["session_id"] == session_id


@pytest.mark.parametrize(
    ("platform", "home_chat", "thread", "key"),
    [
        ("telegram", "12345", {"thread_id": "77"}, "agent:main:telegram:dm:12345:77"),
        ("telegram", "-100200", {"thread_id": "77"}, "agent:main:telegram:thread:-100200:77"),
        ("slack", "C1", {"thread_id": "1700000000.000100"}, "agent:main:slack:thread:C1:1700000000.000100"),
        ("telegram", "-100200", None, "agent:main:telegram:dm:-100200"),
        ("matrix", "!room:hs", {"url": "no thread created"}, "agent:main:matrix:dm:!room:hs"),
    ],
)
def test_destination_keys(
    client: TestClient, platform: str, home_chat: str, thread: dict[str, Any] | None, key: str
) -> None:
    _session_id, done = hand_off(client, platform, {"chat_id": home_chat}, thread)
    assert done["session_key"] == key


def test_complete_requires_running_and_changes_nothing_otherwise(
    client: TestClient, raw: sqlite3.Connection
) -> None:
    configure(client, "discord", home_channel={"chat_id": "1"})
    session_id = new_session(client)
    client.post("/handoff", json={"session_id": session_id, "platform": "discord"})
    response = client.post(f"/handoff/{session_id}/complete", json={"thread": {"thread_id": "2"}})
    assert (response.status_code, response.json()["code"]) == (409, "handoff_state_changed")
    assert raw.execute("SELECT COUNT(*) FROM gateway_routing").fetchone()[0] == 0


@pytest.mark.usefixtures("sqlite_only")
def test_agent_queued_handoff_then_agent_routes_the_thread(
    client: TestClient, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The agent's CLI code queues through ``SessionDB``; we claim and complete over the API; the agent's
    own gateway store then routes the thread's next message to the handed-off session."""
    configure(client, "discord", home_channel={"chat_id": "998877", "name": "#ops"})
    monkeypatch.setenv("HERMES_HOME", str(home))
    # SessionStore opens SessionDB() at the default path, fixed when hermes_state was imported.
    monkeypatch.setattr(hermes_state, "DEFAULT_DB_PATH", home / "state.db")
    db = hermes_state.SessionDB(db_path=home / "state.db")
    try:
        db.create_session("20261201_120000_abcdef", source="cli")
        db.append_message("20261201_120000_abcdef", role="user", content="hello")
        assert db.request_handoff("20261201_120000_abcdef", "discord") is True
        assert client.post("/handoff/claim", json={"platform": "discord"}).status_code == 200
        done = client.post(
            "/handoff/20261201_120000_abcdef/complete", json={"thread": {"thread_id": "554433"}}
        )
        assert done.status_code == 200, done.text
        assert db.get_handoff_state("20261201_120000_abcdef")["state"] == "completed"
    finally:
        db.close()
    # The store must find the route in the table (primary), not in the mirror.
    (home / "sessions" / "sessions.json").unlink(missing_ok=True)
    store = SessionStore(home / "sessions", GatewayConfig())
    assert store._db is not None and Path(store._db.db_path) == home / "state.db"
    source = SessionSource(
        platform=Platform.DISCORD, chat_id="998877", chat_type="thread", thread_id="554433", user_id="someone"
    )
    assert store.get_or_create_session(source).session_id == "20261201_120000_abcdef"


def test_row_39_platform_not_running_fails_the_handoff(client: TestClient) -> None:
    """The gateway that claimed it has no live adapter for the platform: it fails the handoff with the
    agent's reason, and no chat is bound to the session."""
    configure(client, "slack", home_channel={"chat_id": "C1"})
    session_id = new_session(client)
    client.post("/handoff", json={"session_id": session_id, "platform": "slack"})
    client.post("/handoff/claim", json={"platform": "slack"})
    failed = client.post(
        f"/handoff/{session_id}/fail", json={"error": "platform 'slack' is not active in this gateway"}
    )
    assert failed.status_code == 200
    assert (failed.json()["state"], failed.json()["error"]) == (
        "failed",
        "platform 'slack' is not active in this gateway",
    )
    assert client.get("/gateway/routes", params={"session_id": session_id}).json()["items"] == []
