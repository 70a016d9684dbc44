"""One HERMES_HOME, two routers: the agent's ``SessionStore`` in its own process and this server over
loopback route interleaved messages for the same chats to the same sessions, and leave one consistent
``gateway_routing`` table and ``sessions.json``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.storage.sqlite.driver import sqlite3
from tests.conftest import ROOT, LiveServer
from tests.gateway.conftest import agent_scope

CHATS = [
    {"platform": "telegram", "chat_type": "dm", "chat_id": "99", "user_id": "99"},
    {"platform": "discord", "chat_type": "group", "chat_id": "guild-1", "user_id": "alice"},
    {"platform": "discord", "chat_type": "group", "chat_id": "guild-1", "user_id": "bob"},
    {"platform": "slack", "chat_type": "thread", "chat_id": "C1", "thread_id": "171.5", "user_id": "U1"},
]


class AgentGateway:
    """The agent's store in a subprocess on the same home."""

    def __init__(self, home: Path) -> None:
        env = {**os.environ, "HERMES_HOME": str(home)}
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("agent_gateway.py"))],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def route(self, message: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        assert line, "the agent's gateway process exited"
        result: dict[str, Any] = json.loads(line)
        return result

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


@pytest.fixture
def agent_gateway(live_server: LiveServer) -> Iterator[AgentGateway]:
    agent = AgentGateway(live_server.home)
    try:
        yield agent
    finally:
        agent.close()


def ours(http: httpx.Client, message: dict[str, Any]) -> dict[str, Any]:
    """Route through the server and record the message, as a gateway using this API does."""
    response = http.post("/gateway/route", json=message)
    assert response.status_code == 200, response.text
    routed: dict[str, Any] = response.json()
    stored = http.post(f"/sessions/{routed['session_id']}/messages", json={"role": "user", "content": "hi"})
    assert stored.status_code == 201, stored.text
    return routed


def test_interleaved_routing_lands_on_the_same_sessions(
    live_server: LiveServer, agent_gateway: AgentGateway
) -> None:
    seen: dict[str, set[str]] = {}
    with live_server.client() as http:
        # Each chat is first seen by one side, then alternates: the server first for even chats, the
        # agent first for odd ones.
        for round_ in range(4):
            for index, chat in enumerate(CHATS):
                server_turn = (round_ + index) % 2 == 0
                result = ours(http, chat) if server_turn else agent_gateway.route(chat)
                seen.setdefault(result["session_key"], set()).add(result["session_id"])
        assert len(seen) == len(CHATS)
        assert all(len(ids) == 1 for ids in seen.values()), seen
        agent_gateway.close()
        # The server's last word: every chat routed once more, then the mirror catches up.
        final = {r["session_key"]: r["session_id"] for r in (ours(http, chat) for chat in CHATS)}
    assert {key: ids.pop() for key, ids in seen.items()} == final
    conn = sqlite3.connect(live_server.home / "state.db")
    try:
        rows = dict(
            conn.execute(
                "SELECT session_key, entry_json FROM gateway_routing WHERE scope = ?",
                (agent_scope(live_server.home),),
            )
        )
        sources = dict(conn.execute("SELECT id, source FROM sessions"))
    finally:
        conn.close()
    assert {key: json.loads(raw)["session_id"] for key, raw in rows.items()} == final
    assert {sources[sid] for sid in final.values()} == {"telegram", "discord", "slack"}
    path = live_server.home / "sessions" / "sessions.json"
    deadline = time.monotonic() + 20
    while True:
        mirror = json.loads(path.read_text(encoding="utf-8"))
        mapped = {k: v["session_id"] for k, v in mirror.items() if not k.startswith("_")}
        if mapped == final or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert mapped == final


def test_agent_reads_what_the_server_routed(live_server: LiveServer) -> None:
    """A chat the server created first: a freshly started agent gateway (loading the table) routes it to
    the same session even before any message was stored."""
    with live_server.client() as http:
        routed = {}
        for chat in CHATS:
            response = http.post("/gateway/route", json=chat)
            routed[response.json()["session_key"]] = response.json()["session_id"]
    agent = AgentGateway(live_server.home)
    try:
        for chat in CHATS:
            result = agent.route(chat)
            assert routed[result["session_key"]] == result["session_id"]
    finally:
        agent.close()
