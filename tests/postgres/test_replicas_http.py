"""Three ``hermes serve`` processes on one PostgreSQL database, over loopback HTTP: they share nothing but the
database, so titles, lineage numbers, handoff claims, acknowledged writes and event streams must hold across
them, including when one of them is killed with SIGKILL."""

from __future__ import annotations

import itertools
import signal
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from tests.conftest import LiveServer, spawn_live_server, wait_ready
from tests.events.sse import open_stream
from tests.handoff.conftest import configure, new_session, request

REPLICAS = 3
pytestmark = pytest.mark.timeout(180)


@contextmanager
def _serving(url: str, root: Path) -> Iterator[list[LiveServer]]:
    """Three servers on the database at ``url``, each with its own (otherwise unused) home, started side by
    side; each is killed at the end."""
    servers: list[LiveServer] = []
    try:
        for n in range(REPLICAS):
            home = root / f"replica-{n}"
            home.mkdir()
            servers.append(spawn_live_server(home, {"HERMES_DATABASE_URL": url}))
        # They start at once, so each may take as long as starting them one after another.
        yield [wait_ready(server, timeout=60 * REPLICAS) for server in servers]
    finally:
        for server in servers:
            server.stop(signal.SIGKILL if server.process.poll() is None else signal.SIGTERM)


@pytest.fixture(scope="module")
def replicas(
    pg_cluster: Any, pg_template: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[LiveServer]]:
    """Three servers on one migrated database, shared by the tests that kill none of them: each works on
    sessions, titles and handoffs of its own, so none sees another's."""
    url = pg_cluster.create_database(template=pg_template)
    try:
        with _serving(url, tmp_path_factory.mktemp("replicas")) as servers:
            yield servers
    finally:
        pg_cluster.drop_database(url)


@pytest.fixture
def own_replicas(pg_migrated_url: str, tmp_path: Path) -> Iterator[list[LiveServer]]:
    """Three servers on a database of their own, for a test that kills one."""
    with _serving(pg_migrated_url, tmp_path) as servers:
        yield servers


def _clients(servers: list[LiveServer]) -> list[httpx.Client]:
    return [s.client() for s in servers]


def test_concurrent_forks_on_every_replica_number_the_lineage_without_collision(
    replicas: list[LiveServer],
) -> None:
    clients = _clients(replicas)
    try:
        parent = new_session(clients[0], title="proj")

        def fork(n: int) -> httpx.Response:
            return clients[n % REPLICAS].post(f"/sessions/{parent}/fork", json={})

        with ThreadPoolExecutor(max_workers=12) as pool:
            responses = list(pool.map(fork, range(12)))
        assert [r.status_code for r in responses] == [201] * 12, [r.text for r in responses]
        titles = sorted((r.json()["title"] for r in responses), key=lambda t: int(t.split("#")[1]))
        assert titles == [f"proj #{n}" for n in range(2, 14)]
        # Every replica resolves the bare title to the newest of the lineage.
        for client in clients:
            resolved = client.get("/sessions/resolve", params={"ref": "proj"}).json()
            assert resolved["title"] == "proj #13"
    finally:
        for client in clients:
            client.close()


def test_one_title_claimed_at_once_on_every_replica_has_one_holder(replicas: list[LiveServer]) -> None:
    clients = _clients(replicas)
    try:
        barrier = threading.Barrier(9)

        def create(n: int) -> httpx.Response:
            barrier.wait()
            return clients[n % REPLICAS].post("/sessions", json={"source": "cli", "title": "the one"})

        with ThreadPoolExecutor(max_workers=9) as pool:
            responses = list(pool.map(create, range(9)))
        codes = sorted(r.status_code for r in responses)
        assert codes == [201] + [409] * 8, [r.text for r in responses]
        holder = next(r.json()["id"] for r in responses if r.status_code == 201)
        assert {r.json()["code"] for r in responses if r.status_code == 409} == {"title_in_use"}
        assert {r.json()["holder"] for r in responses if r.status_code == 409} == {holder}
    finally:
        for client in clients:
            client.close()


def test_every_handoff_is_claimed_exactly_once_among_claimers_on_every_replica(
    replicas: list[LiveServer],
) -> None:
    clients = _clients(replicas)
    try:
        configure(clients[0])
        sessions = [new_session(clients[n % REPLICAS], title=f"handoff {n}") for n in range(12)]
        for n, sid in enumerate(sessions):
            assert request(clients[n % REPLICAS], sid).status_code == 202

        def claim_until_empty(worker: int) -> list[str]:
            got: list[str] = []
            client = clients[worker % REPLICAS]
            while (
                response := client.post("/handoff/claim", json={"worker": f"w{worker}"})
            ).status_code == 200:
                got.append(response.json()["session_id"])
            assert response.status_code == 204, response.text
            return got

        with ThreadPoolExecutor(max_workers=9) as pool:
            claimed = list(itertools.chain.from_iterable(pool.map(claim_until_empty, range(9))))
        assert sorted(claimed) == sorted(sessions)
        for sid in sessions:
            assert clients[1].get(f"/handoff/{sid}").json()["state"] == "running"
    finally:
        for client in clients:
            client.close()


def test_kill_9_of_a_replica_loses_no_acknowledged_write_and_streams_resume_on_another(
    own_replicas: list[LiveServer], pg_migrated_url: str
) -> None:
    replicas = own_replicas
    clients = _clients(replicas)
    victim = replicas[1]
    try:
        sessions = [new_session(clients[0], title=f"load {n}") for n in range(6)]
        stream = open_stream(victim.base_url, "/events")
        acked: dict[str, list[int]] = {sid: [] for sid in sessions}
        lock = threading.Lock()
        stop = threading.Event()

        def load(worker: int) -> None:
            # Each worker appends three-message batches through one replica until told to stop.
            sid = sessions[worker % len(sessions)]
            client = clients[worker % REPLICAS]
            turn = 0
            while not stop.is_set():
                turn += 1
                batch = [
                    {"role": role, "content": f"w{worker} turn {turn} {role}"}
                    for role in ("user", "assistant", "user")
                ]
                try:
                    response = client.post(f"/sessions/{sid}/messages", json={"messages": batch})
                except httpx.HTTPError:
                    continue  # the victim went away: this write was never acknowledged
                if response.status_code == 201:
                    with lock:
                        acked[sid].extend(m["id"] for m in response.json()["items"])

        workers = [threading.Thread(target=load, args=(n,)) for n in range(6)]
        for worker in workers:
            worker.start()
        try:
            seen = stream.events(20, timeout=30)
            victim.stop(signal.SIGKILL)
            time.sleep(1.0)  # the survivors keep writing after the kill
        finally:
            stop.set()
            for worker in workers:
                worker.join(timeout=60)
            stream.close()
        last_seen = seen[-1].id
        assert last_seen is not None

        # Every acknowledged message is there, on every surviving replica, and no batch is half-applied.
        for client in (clients[0], clients[2]):
            for sid in sessions:
                stored = client.get(f"/sessions/{sid}/messages", params={"limit": 1000}).json()["items"]
                ids = [m["id"] for m in stored]
                assert set(acked[sid]) <= set(ids)
                assert len(ids) % 3 == 0
                assert client.get(f"/sessions/{sid}").json()["message_count"] == len(ids)

        # A stream resumed on another replica from the last id the killed one delivered misses nothing.
        with psycopg.connect(pg_migrated_url) as conn:
            expected = [
                int(r[0])
                for r in conn.execute("SELECT id FROM hs_events WHERE id > %s ORDER BY id", (last_seen,))
            ]
        assert expected, "the load wrote events after the stream's last one"
        resumed = open_stream(replicas[2].base_url, "/events", {"Last-Event-ID": str(last_seen)})
        try:
            assert [e.id for e in resumed.events(len(expected), timeout=30)] == expected
            assert resumed.quiet(0.5) == []
        finally:
            resumed.close()
    finally:
        for client in clients:
            client.close()
