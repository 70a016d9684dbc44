"""Concurrent HTTP appenders that remember every acknowledged message id."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from urllib.parse import quote

import httpx

from tests.conftest import TOKEN, LiveServer


@dataclass
class Appenders:
    """``threads`` clients appending to ``session_id`` until stopped or the server goes away."""

    base_url: str
    session_id: str
    threads: int = 4
    limit: int | None = None
    # Messages per request: 1 posts single messages, more posts ``{"messages": [...]}`` batches.
    batch: int = 1
    # Retry 503 ``database_busy`` (another process holds the lock) after its Retry-After, as a client should.
    retry_busy: bool = False
    acked: set[int] = field(default_factory=set)
    contents: dict[int, str] = field(default_factory=dict)
    statuses: dict[int, int] = field(default_factory=dict)
    busy_retries: int = 0
    _stop: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _workers: list[threading.Thread] = field(default_factory=list)

    def start(self) -> Appenders:
        """Launch the worker threads."""
        for n in range(self.threads):
            worker = threading.Thread(target=self._run, args=(n,), daemon=True)
            worker.start()
            self._workers.append(worker)
        return self

    def stop(self) -> None:
        """Ask the workers to finish and wait for them."""
        self._stop.set()
        self.join()

    def join(self) -> None:
        """Wait for every worker."""
        for worker in self._workers:
            worker.join(timeout=60)

    def _record(self, status: int, items: list[dict[str, object]]) -> None:
        with self._lock:
            self.statuses[status] = self.statuses.get(status, 0) + 1
            for item in items:
                mid = int(str(item["id"]))
                self.acked.add(mid)
                self.contents[mid] = str(item["content"])

    def _post(self, client: httpx.Client, url: str, body: dict[str, object]) -> httpx.Response:
        while True:
            resp = client.post(url, json=body)
            busy = resp.status_code == 503 and resp.json().get("code") == "database_busy"
            if not (busy and self.retry_busy and not self._stop.is_set()):
                return resp
            with self._lock:
                self.busy_retries += 1
            time.sleep(min(float(resp.headers.get("retry-after", "1")), 0.2))

    def _run(self, worker: int) -> None:
        url = f"/sessions/{quote(self.session_id, safe='')}/messages"
        headers = {"Authorization": f"Bearer {TOKEN}"}
        sent = 0
        with httpx.Client(base_url=self.base_url, headers=headers, timeout=30) as client:
            while not self._stop.is_set() and (self.limit is None or sent < self.limit):
                texts = [f"worker {worker} message {sent + i} marmot" for i in range(self.batch)]
                messages: list[dict[str, object]] = [{"role": "user", "content": t} for t in texts]
                body: dict[str, object] = messages[0] if self.batch == 1 else {"messages": messages}
                try:
                    resp = self._post(client, url, body)
                except httpx.HTTPError:
                    return  # the server went away (killed): nothing was acknowledged
                sent += self.batch
                self._record(resp.status_code, resp.json()["items"] if resp.status_code == 201 else [])


def start_agent_writer(
    server: LiveServer, script: str, count: int, *, title: str
) -> tuple[str, subprocess.Popen[str]]:
    """A session created over HTTP, and the real agent's ``SessionDB`` writing to it from a process of its
    own (``script`` run with the db path, the session id and ``count``), started once it prints ``ready``."""
    with server.client() as c:
        created = c.post("/sessions", json={"source": "cli", "title": title})
        assert created.status_code == 201, created.text
        shared = str(created.json()["id"])
    agent = subprocess.Popen(
        [sys.executable, "-c", script, str(server.home / "state.db"), shared, str(count)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert agent.stdout is not None and agent.stdout.readline().strip() == "ready"
    return shared, agent
