"""``/resume`` ownership: the guard against attaching a chat to another user's or chat's session,
differential against hermes-agent 0.19.0's own ``/resume`` handler, and over the API."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from fastapi.testclient import TestClient
from gateway.session import SessionSource
from gateway.slash_commands import GatewaySlashCommandsMixin
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.domain.gateway_resume import NOT_OWNER, resume_refusal
from app.storage.sqlite.driver import sqlite3
from tests.gateway.conftest import route, session_row

NAME = "sess-1"
TARGET = "20261201_101010_abcdef01"
HELD = "20261201_090909_00000000"


class _Store:
    """The parts of the agent's ``SessionStore`` its ``/resume`` handler reads."""

    def __init__(self, live_origin: dict[str, Any] | None) -> None:
        self.live = None if live_origin is None else SessionSource.from_dict(live_origin)

    def lookup_by_session_id(self, session_id: str) -> Any:
        if self.live is None or session_id != TARGET:
            return None
        return SimpleNamespace(origin=self.live, session_id=TARGET)


class _AsyncStore:
    async def get_or_create_session(self, source: SessionSource) -> Any:
        # Reaching this call means the guard let the caller through; the handler then answers "Already on".
        return SimpleNamespace(session_id=TARGET)


class _DB:
    def __init__(self, row: dict[str, Any]) -> None:
        self.row = row

    async def get_session(self, session_id: str) -> dict[str, Any]:
        return {"id": TARGET, **self.row}

    async def resolve_resume_session_id(self, session_id: str) -> str:
        return session_id


class _Runner(GatewaySlashCommandsMixin):
    def __init__(self, live: dict[str, Any] | None, row: dict[str, Any], group: bool, thread: bool) -> None:
        self.session_store = _Store(live)
        self.async_session_store = _AsyncStore()
        self._session_db = _DB(row)
        self.config = SimpleNamespace(group_sessions_per_user=group, thread_sessions_per_user=thread)

    def _session_key_for_source(self, source: SessionSource) -> str:
        return "key"


def agent_refusal(
    caller: dict[str, Any], live: dict[str, Any] | None, row: dict[str, Any], group: bool, thread: bool
) -> str | None:
    """The agent's ``/resume <NAME>`` reply when it refuses, ``None`` when it lets the caller through."""
    event = SimpleNamespace(source=SessionSource.from_dict(caller), get_command_args=lambda: NAME)
    reply = asyncio.run(_Runner(live, row, group, thread)._handle_resume_command(event))
    return None if reply == f"📌 Already on session **{NAME}**." else reply


maybe = st.sampled_from([None, ""])
origins = st.fixed_dictionaries(
    {
        "platform": st.sampled_from(["telegram", "discord", "signal", "matrix"]),
        "chat_id": st.sampled_from(["", "c1", "c2"]),
        "chat_name": st.sampled_from([None, "Room"]),
        "chat_type": st.sampled_from(["dm", "group", "channel", "thread"]),
        "user_id": st.sampled_from([None, "", "u1", "u2"]),
        "thread_id": st.sampled_from([None, "", "t1"]),
    },
    optional={"user_id_alt": st.sampled_from(["a1", "a2"])},
)
rows = st.fixed_dictionaries(
    {
        "source": st.sampled_from([None, "", "telegram", "discord", "matrix"]),
        "user_id": st.sampled_from([None, "", "u1", "u2"]),
        "chat_id": st.sampled_from([None, "", "c1", "c2"]),
        "thread_id": st.sampled_from([None, "", "t1"]),
    }
)


def _near(draw: st.DrawFn, value: Any, others: st.SearchStrategy[Any]) -> Any:
    # Mostly the caller's own value, so the rare "everything matches but one thing" cases get drawn.
    return value if draw(st.integers(0, 2)) else draw(others)


@st.composite
def cases(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any] | None, dict[str, Any]]:
    caller = draw(origins)
    live = None
    if draw(st.booleans()):
        other = draw(origins)
        live = {k: _near(draw, caller.get(k), st.just(other.get(k))) for k in caller.keys() | other.keys()}
        live = {k: v for k, v in live.items() if k != "user_id_alt" or v is not None}
        live["platform"] = live["platform"] or other["platform"]
    other_row = draw(rows)
    row = {
        "source": _near(draw, caller["platform"], st.just(other_row["source"])),
        **{k: _near(draw, caller.get(k), st.just(other_row[k])) for k in ("user_id", "chat_id", "thread_id")},
    }
    return caller, live, row


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases(), group=st.booleans(), thread=st.booleans())
def test_refusal_matches_the_agent(
    case: tuple[dict[str, Any], dict[str, Any] | None, dict[str, Any]], group: bool, thread: bool
) -> None:
    caller, live, row = case
    ours = resume_refusal(caller, live, row, NAME, group_per_user=group, thread_per_user=thread)
    assert ours == agent_refusal(caller, live, row, group, thread)


def _resume(client: TestClient, key: str, ref: str) -> dict[str, Any]:
    response = client.post("/gateway/route/switch", json={"session_key": key, "ref": ref})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def _message(client: TestClient, session_id: str) -> None:
    response = client.post(f"/sessions/{session_id}/messages", json={"role": "user", "content": "hi"})
    assert response.status_code == 201, response.text


def test_another_users_session_is_refused(client: TestClient, raw: sqlite3.Connection) -> None:
    alice = route(client, chat_id="100", user_id="alice")
    _message(client, alice["session_id"])
    bob = route(client, chat_id="200", user_id="bob")
    # Alice's session is live on her chat: Bob cannot take it, by id or by title.
    refused = _resume(client, bob["session_key"], alice["session_id"])
    assert refused["switched"] is False
    assert refused["reply"] == NOT_OWNER.format(name=alice["session_id"])
    assert refused["session_id"] == bob["session_id"]
    assert route(client, chat_id="200", user_id="bob")["session_id"] == bob["session_id"]
    assert session_row(raw, bob["session_id"])["end_reason"] is None
    # Once Alice moves on, her old session is judged by its row: still hers, still refused to Bob.
    client.post("/gateway/route/reset", json={"session_key": alice["session_key"]})
    again = _resume(client, bob["session_key"], alice["session_id"])
    assert again["switched"] is False and again["reply"].startswith("⚠️ /resume blocked")
    # Alice herself gets it back.
    back = _resume(client, alice["session_key"], alice["session_id"])
    assert back["switched"] is True
    assert back["reply"] == f"↻ Resumed session **{alice['session_id']}** (1 message). Conversation restored."


def test_shared_group_members_may_resume_the_group_session(client: TestClient) -> None:
    response = client.put("/gateway/config", json={"group_sessions_per_user": False})
    assert response.status_code == 200, response.text
    first = route(client, platform="discord", chat_type="group", chat_id="g1", user_id="alice")
    fresh = client.post("/gateway/route/reset", json={"session_key": first["session_key"]}).json()
    # Bob shares the group's session, so the group's earlier session is his to resume too.
    route(client, platform="discord", chat_type="group", chat_id="g1", user_id="bob")
    back = _resume(client, first["session_key"], first["session_id"])
    assert back["switched"] is True and back["previous_session_id"] == fresh["session_id"]
