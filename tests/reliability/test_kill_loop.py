"""kill -9 loop: clients drive a random mix of writes, the server is SIGKILLed at a random moment, restarted,
and the file is checked after every cycle.

Every acknowledged write must be there (messages with their ids and contents, titles, imported sessions),
no session may be half-deleted or half-imported, SQLite's and both FTS integrity checks must pass, and
search must find the last acknowledged message. ``HERMES_SOAK=1`` runs many more cycles.
"""

from __future__ import annotations

import os
import random
import signal
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson

from tests.conftest import TOKEN, LiveServer, start_live_server
from tests.reliability.soundness import connect, integrity_problems, wait_backlog_drained
from tests.sizes import sized

CYCLES = sized(12, 150)
WORKERS = 3
# A pruned session bigger than the prune's message batch is deleted in several writer jobs: the crash window.
DOOMED_SIZES = (150, 400)
# An import above the inline-index limit is indexed in the background (hs_fts_backlog).
BIG_IMPORT = 1100


@dataclass
class Doomed:
    """A session written to be pruned: all of it must survive a crash, or none of it."""

    session_id: str
    title: str
    size: int
    prune_sent: bool = False
    prune_acked: bool = False


@dataclass
class Import:
    """One import request: each of its sessions is written whole or not at all."""

    sessions: dict[str, list[str]]
    acked: bool = False


@dataclass
class Ledger:
    """What the server acknowledged, shared by the worker threads of every cycle."""

    messages: dict[int, tuple[str, str]] = field(default_factory=dict)
    last_message: tuple[int, str] | None = None
    # session id -> [acknowledged title, title of the request in flight when the server died]
    titles: dict[str, list[str | None]] = field(default_factory=dict)
    doomed: list[Doomed] = field(default_factory=list)
    imports: list[Import] = field(default_factory=list)
    unexpected: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def acked_messages(self, session_id: str, items: list[dict[str, Any]], tokens: list[str]) -> None:
        with self.lock:
            for item in items:
                self.messages[item["id"]] = (session_id, item["content"])
            self.last_message = (items[-1]["id"], tokens[-1])

    def wrong(self, what: str, resp: httpx.Response) -> None:
        with self.lock:
            self.unexpected.append(f"{what}: {resp.status_code} {resp.text[:300]}")


class Worker(threading.Thread):
    """One client: random operations on its own sessions until the server goes away."""

    def __init__(self, base_url: str, ledger: Ledger, rng: random.Random, name: str) -> None:
        super().__init__(daemon=True, name=name)
        self.http = httpx.Client(base_url=base_url, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30)
        self.ledger, self.rng, self.label, self.n = ledger, rng, name, 0

    def run(self) -> None:
        try:
            keeper = self._create(f"keep-{uuid.uuid4().hex[:12]}")
            if keeper is None:
                return
            ops = (self._append, self._batch, self._title, self._doomed, self._import, self._vacuum)
            while True:
                self.rng.choices(ops, weights=(40, 20, 15, 8, 10, 2))[0](keeper)
        except httpx.HTTPError:
            return  # the server was killed: whatever was in flight is unacknowledged
        finally:
            self.http.close()

    def _token(self) -> str:
        self.n += 1
        return f"tok{self.label}n{self.n}"

    def _create(self, title: str, keep: bool = True) -> str | None:
        resp = self.http.post("/sessions", json={"source": "cli", "title": title})
        if resp.status_code != 201:
            self.ledger.wrong("create", resp)
            return None
        sid = str(resp.json()["id"])
        if keep:
            with self.ledger.lock:
                self.ledger.titles[sid] = [title, None]
        return sid

    def _append(self, sid: str) -> None:
        token = self._token()
        resp = self.http.post(f"/sessions/{sid}/messages", json={"role": "user", "content": f"note {token}"})
        if resp.status_code != 201:
            return self.ledger.wrong("append", resp)
        self.ledger.acked_messages(sid, resp.json()["items"], [token])

    def _batch(self, sid: str) -> None:
        tokens = [self._token() for _ in range(self.rng.randint(2, 20))]
        body = {"messages": [{"role": "user", "content": f"batch {t}"} for t in tokens]}
        resp = self.http.post(f"/sessions/{sid}/messages", json=body)
        if resp.status_code != 201:
            return self.ledger.wrong("batch", resp)
        self.ledger.acked_messages(sid, resp.json()["items"], tokens)

    def _title(self, sid: str) -> None:
        title = f"keep-{uuid.uuid4().hex[:12]}"
        with self.ledger.lock:
            self.ledger.titles[sid][1] = title
        resp = self.http.patch(f"/sessions/{sid}", json={"title": title})
        if resp.status_code != 200:
            return self.ledger.wrong("title", resp)
        with self.ledger.lock:
            self.ledger.titles[sid] = [title, None]

    def _doomed(self, _keeper: str) -> None:
        title = f"doomed-{uuid.uuid4().hex[:12]}"
        sid = self._create(title, keep=False)
        if sid is None:
            return
        size = self.rng.randint(*DOOMED_SIZES)
        body = {"messages": [{"role": "user", "content": f"doomed {i}"} for i in range(size)]}
        resp = self.http.post(f"/sessions/{sid}/messages", json=body)
        if resp.status_code != 201:
            return self.ledger.wrong("doomed batch", resp)
        doomed = Doomed(sid, title, size)
        with self.ledger.lock:
            self.ledger.doomed.append(doomed)
        resp = self.http.post(f"/sessions/{sid}/end", json={"end_reason": "user_exit"})
        if resp.status_code != 200:
            return self.ledger.wrong("end", resp)
        doomed.prune_sent = True
        resp = self.http.post("/maintenance/prune", json={"title": title})
        if resp.status_code != 200 or resp.json()["pruned"] != 1:
            return self.ledger.wrong("prune", resp)
        doomed.prune_acked = True

    def _import(self, _keeper: str) -> None:
        now = time.time()
        sizes = [BIG_IMPORT] if self.rng.random() < 0.15 else [self.rng.randint(1, 8) for _ in range(2)]
        sessions = {
            f"imp-{uuid.uuid4().hex[:12]}": [f"imported {uuid.uuid4().hex[:8]} {i}" for i in range(size)]
            for size in sizes
        }
        lines = [
            orjson.dumps(
                {
                    "id": sid,
                    "source": "cli",
                    "started_at": now,
                    "messages": [{"role": "user", "content": c, "timestamp": now} for c in contents],
                }
            )
            for sid, contents in sessions.items()
        ]
        record = Import(sessions)
        with self.ledger.lock:
            self.ledger.imports.append(record)
        resp = self.http.post(
            "/import", content=b"\n".join(lines), headers={"Content-Type": "application/jsonl"}
        )
        if resp.status_code != 200 or resp.json()["imported"] != len(sessions):
            return self.ledger.wrong("import", resp)
        record.acked = True

    def _vacuum(self, _keeper: str) -> None:
        resp = self.http.post("/maintenance/vacuum")
        busy = resp.status_code == 409 and resp.json().get("code") == "maintenance_busy"
        if resp.status_code != 200 and not busy:
            self.ledger.wrong("vacuum", resp)


def _check_acknowledged(path: Path, ledger: Ledger) -> list[str]:
    problems: list[str] = []
    conn = connect(path)
    try:
        stored = {
            r["id"]: (r["session_id"], r["content"])
            for r in conn.execute("SELECT id, session_id, content FROM messages")
        }
        lost = [mid for mid, want in ledger.messages.items() if stored.get(mid) != want]
        if lost:
            problems.append(f"{len(lost)} acknowledged messages lost or changed, e.g. {lost[:5]}")
        titles = {r["id"]: r["title"] for r in conn.execute("SELECT id, title FROM sessions")}
        for sid, allowed in ledger.titles.items():
            if sid not in titles or titles[sid] not in allowed:
                problems.append(f"session {sid}: title {titles.get(sid)!r}, acknowledged {allowed}")
        for d in ledger.doomed:
            n = conn.execute(
                "SELECT COUNT(*) FROM messages WHERE session_id = ?", (d.session_id,)
            ).fetchone()[0]
            there = d.session_id in titles
            if d.prune_acked:
                ok = not there and n == 0
            elif d.prune_sent:
                ok = (there and n == d.size) or (not there and n == 0)
            else:
                ok = there and n == d.size
            if not ok:
                problems.append(
                    f"session {d.session_id} (prune sent {d.prune_sent}, acknowledged {d.prune_acked}):"
                    f" {n} of {d.size} messages, session row present: {there}"
                )
        for imp in ledger.imports:
            for sid, contents in imp.sessions.items():
                got = [
                    r[0]
                    for r in conn.execute(
                        "SELECT content FROM messages WHERE session_id = ? ORDER BY id", (sid,)
                    )
                ]
                if (imp.acked or got or sid in titles) and (sid not in titles or got != contents):
                    problems.append(
                        f"import {sid}: {len(got)} of {len(contents)} messages (acked: {imp.acked})"
                    )
    finally:
        conn.close()
    return problems


def _search_finds(server: LiveServer, ledger: Ledger) -> list[str]:
    if ledger.last_message is None:
        return []
    mid, token = ledger.last_message
    with server.client() as c:
        resp = c.get("/search", params={"q": token, "role": "user"})
    if resp.status_code != 200:
        return [f"search {token}: {resp.status_code} {resp.text[:300]}"]
    found = [r.get("match_message_id") for r in resp.json()["results"]]
    return [] if mid in found else [f"search {token} found {found}, not the last acknowledged message {mid}"]


def test_kill_dash_nine_loop(home: Path) -> None:
    seed = int(os.environ.get("HERMES_SOAK_SEED", time.time_ns() % 2**32))
    rng = random.Random(seed)
    ledger = Ledger()
    path = home / "state.db"
    server = start_live_server(home)
    try:
        for cycle in range(CYCLES):
            workers = [
                Worker(server.base_url, ledger, random.Random(rng.getrandbits(32)), f"c{cycle}w{w}")
                for w in range(WORKERS)
            ]
            for w in workers:
                w.start()
            time.sleep(rng.uniform(0.2, 1.5))
            server.stop(signal.SIGKILL)
            for w in workers:
                w.join(timeout=60)
            assert not any(w.is_alive() for w in workers), "a client hung after the kill"
            context = f"seed {seed}, cycle {cycle}"
            assert not ledger.unexpected, (context, ledger.unexpected)
            server = start_live_server(home)
            wait_backlog_drained(path)
            problems = (
                integrity_problems(path) + _check_acknowledged(path, ledger) + _search_finds(server, ledger)
            )
            assert not problems, (context, problems)
        assert ledger.messages and any(d.prune_acked for d in ledger.doomed), "the loop never got going"
    finally:
        server.stop()
