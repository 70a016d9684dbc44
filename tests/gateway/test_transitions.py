"""Whole routing transitions against the real hermes-agent 0.19.0 ``SessionStore`` (with its own
``SessionDB``): hypothesis-generated histories of messages, time passing, ``/stop``, restart marks, rows
ended under an entry, lost entries and stored messages are played on both, and after every message both
must agree on whether the chat stayed on its session, why it reset, and how the left session was ended."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import gateway.session as agent_session
import hermes_state
import pytest
from fastapi.testclient import TestClient
from gateway.config import GatewayConfig, Platform, SessionResetPolicy
from gateway.session import SessionSource, SessionStore
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import app.services.gateway as our_gateway
from app.main import create_app
from app.settings import Settings
from app.storage.sqlite.driver import sqlite3
from tests.conftest import TOKEN
from tests.gateway.conftest import agent_scope
from tests.sizes import sized

START = datetime(2026, 12, 1, 12, 0, 0)
_chats = itertools.count()

steps = st.lists(
    st.one_of(
        st.just(("route",)),
        st.just(("route",)),
        st.just(("route",)),
        st.tuples(st.just("wait"), st.sampled_from([1, 29, 31, 60 * 5, 60 * 17, 60 * 30])),
        st.just(("suspend",)),
        st.just(("mark_resume",)),
        st.tuples(st.just("end_row"), st.sampled_from(["agent_close", "user_exit", "session_reset"])),
        st.just(("message",)),
        st.just(("lose_entry",)),
    ),
    min_size=1,
    max_size=24,
)
policies = st.sampled_from(
    [
        {"mode": "idle", "idle_minutes": 30},
        {"mode": "daily", "at_hour": 4},
        {"mode": "both", "idle_minutes": 600, "at_hour": 4},
        {"mode": "none"},
    ]
)


class Clock:
    """The virtual local time both routers read."""

    def __init__(self) -> None:
        self.now = START

    def fake_datetime(self) -> type[datetime]:
        clock = self

        class Fake(datetime):
            @classmethod
            def now(cls, tz: Any = None) -> Fake:
                return clock.now  # type: ignore[return-value]

        return Fake


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[TestClient, Path, Path, Clock]]:
    ours_home, agent_home = tmp_path / "ours", tmp_path / "agent"
    ours_home.mkdir()
    agent_home.mkdir()
    clock = Clock()
    monkeypatch.setattr(agent_session, "_now", lambda: clock.now)
    monkeypatch.setattr(our_gateway, "datetime", clock.fake_datetime())
    monkeypatch.setenv("HERMES_HOME", str(agent_home))
    monkeypatch.setattr(hermes_state, "DEFAULT_DB_PATH", agent_home / "state.db")
    settings_ = Settings(home=ours_home, api_token=TOKEN, titles_auto=False)
    with TestClient(create_app(settings_), headers={"Authorization": f"Bearer {TOKEN}"}) as client:
        yield client, ours_home, agent_home, clock


def _end_reason(db: Path, session_id: str) -> str | None:
    conn = sqlite3.connect(db)
    try:
        row = conn.execute("SELECT end_reason FROM sessions WHERE id = ?", (session_id,)).fetchone()
    finally:
        conn.close()
    return None if row is None else row[0]


DAILY = {"mode": "daily", "at_hour": 4}
BOTH = {"mode": "both", "idle_minutes": 600, "at_hour": 4}
NONE = {"mode": "none"}


@settings(
    max_examples=sized(50, 150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(history=steps, policy=policies)
@example(history=[("route",), ("wait", 60 * 17), ("route",)], policy=DAILY)
@example(history=[("route",), ("mark_resume",), ("wait", 60 * 5), ("route",)], policy=BOTH)
@example(history=[("route",), ("mark_resume",), ("wait", 60 * 5), ("route",)], policy=NONE)
@example(history=[("route",), ("message",), ("lose_entry",), ("route",)], policy=NONE)
@example(
    history=[("route",), ("message",), ("end_row", "agent_close"), ("lose_entry",), ("route",)], policy=NONE
)
@example(history=[("route",), ("message",), ("end_row", "agent_close"), ("route",)], policy=NONE)
@example(history=[("route",), ("message",), ("end_row", "user_exit"), ("route",)], policy=NONE)
@example(history=[("route",), ("suspend",), ("wait", 1), ("route",), ("route",)], policy=NONE)
def test_same_transitions_as_the_agent(
    world: tuple[TestClient, Path, Path, Clock], history: list[tuple[Any, ...]], policy: dict[str, Any]
) -> None:
    client, ours_home, agent_home, clock = world
    clock.now = START
    assert client.put("/gateway/config", json={"session_reset": policy}).status_code == 200
    store = SessionStore(
        agent_home / "sessions", GatewayConfig(default_reset_policy=SessionResetPolicy.from_dict(policy))
    )
    assert store._db is not None
    chat = f"c{next(_chats)}"
    source = SessionSource(platform=Platform.TELEGRAM, chat_id=chat, chat_type="dm", user_id=chat)
    key = f"agent:main:telegram:dm:{chat}"
    body = {"platform": "telegram", "chat_type": "dm", "chat_id": chat, "user_id": chat}
    ours_id: str | None = None
    theirs_id: str | None = None
    conn = sqlite3.connect(ours_home / "state.db", isolation_level=None)
    try:
        for step in history:
            kind = step[0]
            if kind == "route":
                routed = client.post("/gateway/route", json=body).json()
                entry = store.get_or_create_session(source)
                ours_changed = ours_id is not None and routed["session_id"] != ours_id
                theirs_changed = theirs_id is not None and entry.session_id != theirs_id
                assert ours_changed == theirs_changed, (step, history)
                if ours_changed:
                    assert routed["reset_reason"] == (
                        entry.auto_reset_reason if entry.was_auto_reset else None
                    )
                    assert ours_id is not None and theirs_id is not None
                    assert _end_reason(ours_home / "state.db", ours_id) == _end_reason(
                        agent_home / "state.db", theirs_id
                    )
                ours_id, theirs_id = routed["session_id"], entry.session_id
            elif kind == "wait":
                clock.now += timedelta(minutes=step[1])
            elif ours_id is None or theirs_id is None:
                continue
            elif kind == "suspend":
                assert client.post("/gateway/route/suspend", json={"session_key": key}).status_code in (
                    200,
                    404,
                )
                store.suspend_session(key)
            elif kind == "mark_resume":
                marked = store.mark_resume_pending(key)
                stored = conn.execute(
                    "SELECT entry_json FROM gateway_routing WHERE scope = ? AND session_key = ?",
                    (agent_scope(ours_home), key),
                ).fetchone()
                if marked and stored is not None:
                    mine = json.loads(stored[0])
                    mine.update(
                        resume_pending=True,
                        resume_reason="restart_timeout",
                        last_resume_marked_at=clock.now.isoformat(),
                    )
                    conn.execute(
                        "UPDATE gateway_routing SET entry_json = ? WHERE scope = ? AND session_key = ?",
                        (json.dumps(mine), agent_scope(ours_home), key),
                    )
            elif kind == "end_row":
                conn.execute(
                    "UPDATE sessions SET ended_at = 1, end_reason = ? WHERE id = ? AND ended_at IS NULL",
                    (step[1], ours_id),
                )
                store._db.end_session(theirs_id, step[1])
            elif kind == "message":
                # The gateway stores messages in a live session only (both APIs differ on ended ones).
                ours_live = _end_reason(ours_home / "state.db", ours_id) is None
                theirs_live = _end_reason(agent_home / "state.db", theirs_id) is None
                assert ours_live == theirs_live
                if ours_live:
                    stored = client.post(
                        f"/sessions/{ours_id}/messages", json={"role": "user", "content": "hi"}
                    )
                    assert stored.status_code == 201
                    store._db.append_message(theirs_id, role="user", content="hi")
            elif kind == "lose_entry":
                conn.execute(
                    "DELETE FROM gateway_routing WHERE scope = ? AND session_key = ?",
                    (agent_scope(ours_home), key),
                )
                with store._lock:
                    store._entries.pop(key, None)
                    store._save()
    finally:
        conn.close()
        store._db.close()
