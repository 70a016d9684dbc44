"""Concurrent HTTP appenders that remember every acknowledged message id."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from urllib.parse import quote

import httpx

from tests.conftest import TOKEN


@dataclass
class Appenders:
    """``threads`` clients appending to ``session_id`` until stopped or the server goes away."""

    base_url: str
    session_id: str
    threads: int = 4
    limit: int | None = None
    acked: set[int] = field(default_factory=set)
    statuses: dict[int, int] = field(default_factory=dict)
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

    def _record(self, status: int, ids: list[int]) -> None:
        with self._lock:
            self.statuses[status] = self.statuses.get(status, 0) + 1
            self.acked.update(ids)

    def _run(self, worker: int) -> None:
        url = f"/sessions/{quote(self.session_id, safe='')}/messages"
        headers = {"Authorization": f"Bearer {TOKEN}"}
        sent = 0
        with httpx.Client(base_url=self.base_url, headers=headers, timeout=30) as client:
            while not self._stop.is_set() and (self.limit is None or sent < self.limit):
                body = {"role": "user", "content": f"worker {worker} message {sent} marmot"}
                try:
                    resp = client.post(url, json=body)
                except httpx.HTTPError:
                    return  # the server went away (killed): nothing was acknowledged
                sent += 1
                ids = [item["id"] for item in resp.json()["items"]] if resp.status_code == 201 else []
                self._record(resp.status_code, ids)
