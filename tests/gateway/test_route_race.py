"""One chat, one session: concurrent ``POST /gateway/route`` for a new chat, on real servers over loopback.

Every caller must get the session its chat's routing entry names, exactly one of them ``created: true``, and
the store must hold exactly one session for the chat: on SQLite (one writer), and on PostgreSQL with one
replica and with two replicas of different ``HERMES_HOME``s (which route in the store's one scope).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.settings import Settings
from tests.conftest import LiveServer, RawDatabase, start_live_server

CLIENTS = 40
ROUNDS = 3
pytestmark = pytest.mark.timeout(180)


def _body(chat_id: str) -> dict[str, Any]:
    return {"platform": "telegram", "chat_id": chat_id, "chat_type": "group", "user_id": "u1"}


def _race(clients: list[httpx.Client], chat_id: str) -> list[dict[str, Any]]:
    """``CLIENTS`` routes of one new chat released at once, spread over ``clients``."""
    barrier = threading.Barrier(CLIENTS)

    def one(n: int) -> dict[str, Any]:
        barrier.wait()
        response = clients[n % len(clients)].post("/gateway/route", json=_body(chat_id))
        assert response.status_code == 200, response.text
        result: dict[str, Any] = response.json()
        return result

    with ThreadPoolExecutor(max_workers=CLIENTS) as pool:
        return list(pool.map(one, range(CLIENTS)))


def _assert_one_session(settings: Settings, results: list[dict[str, Any]]) -> None:
    key = results[0]["session_key"]
    with RawDatabase(settings, named_rows=False) as db:
        sessions = [r[0] for r in db.execute("SELECT id FROM sessions WHERE session_key = ?", (key,))]
        entries = [
            r[0] for r in db.execute("SELECT entry_json FROM gateway_routing WHERE session_key = ?", (key,))
        ]
    assert len(sessions) == 1, sessions
    assert len(entries) == 1, entries
    assert [r["created"] for r in results].count(True) == 1
    assert {r["session_id"] for r in results} == set(sessions)
    assert f'"session_id": "{sessions[0]}"' in entries[0]


def _clients(servers: list[LiveServer]) -> Iterator[httpx.Client]:
    for server in servers:
        yield server.client(limits=httpx.Limits(max_connections=CLIENTS))


def _run_rounds(servers: list[LiveServer], settings: Settings, name: str) -> None:
    clients = list(_clients(servers))
    try:
        for n in range(ROUNDS):
            _assert_one_session(settings, _race(clients, f"{name}-{n}"))
    finally:
        for client in clients:
            client.close()


def test_a_new_chat_routed_at_once_gets_one_session_on_sqlite(live_server: LiveServer, home: Path) -> None:
    _run_rounds([live_server], Settings(home=home), "sqlite")


@pytest.fixture
def replicas(pg_migrated_url: str, tmp_path: Path) -> Iterator[list[LiveServer]]:
    """Two servers on one PostgreSQL database, each with a home of its own."""
    servers: list[LiveServer] = []
    try:
        for n in range(2):
            home = tmp_path / f"replica-{n}"
            home.mkdir()
            servers.append(start_live_server(home, {"HERMES_DATABASE_URL": pg_migrated_url}))
        yield servers
    finally:
        for server in servers:
            server.stop(signal.SIGKILL if server.process.poll() is None else signal.SIGTERM)


def test_a_new_chat_routed_at_once_gets_one_session_on_postgresql(
    replicas: list[LiveServer], pg_migrated_url: str, tmp_path: Path
) -> None:
    settings = Settings(home=tmp_path, database_url=pg_migrated_url)
    _run_rounds(replicas[:1], settings, "one-replica")
    _run_rounds(replicas, settings, "two-replicas")


def test_replicas_share_the_routing(replicas: list[LiveServer]) -> None:
    clients = list(_clients(replicas))
    try:
        routed = [clients[n].post("/gateway/route", json=_body("hop")).json() for n in (0, 1, 0)]
        assert [r["created"] for r in routed] == [True, False, False]
        assert len({r["session_id"] for r in routed}) == 1
        key = routed[0]["session_key"]
        for client in clients:
            assert client.get(f"/gateway/routes/{key}").json()["session_id"] == routed[0]["session_id"]
    finally:
        for client in clients:
            client.close()
