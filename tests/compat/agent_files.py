"""Agent files of every version for the compatibility tests, built once per test session and copied per
test, and the server's every kind of write on one of them.

Layouts of a newer agent's file (:data:`LAYOUTS`):
- ``created``: the newer agent created and filled it (external-content FTS, rollback journal on this SQLite);
- ``legacy``: 0.19.0 wrote it (schema 22, WAL), then the newer agent opened and wrote it: its schema version
  moves on, but its FTS stays the v22 inline one until optimized;
- ``optimized``: ``legacy`` after the newer agent's own optimize-storage (external-content FTS).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from app.storage.sqlite.driver import sqlite3
from tests.compat.oracles import columns, oracle, run_oracle
from tests.compat.schema30 import build_v30, fill_v30
from tests.conftest import TOKEN

LAYOUTS = ("created", "legacy", "optimized")

TOOL_CALLS = [
    {"id": "call_s1", "type": "function", "function": {"name": "read_file", "arguments": '{"path": "b.py"}'}},
    {"id": "call_s2", "type": "function", "function": {"name": "grep", "arguments": '{"q": "wombat"}'}},
]
SYSTEM_PROMPT = "You are the server's test session. Be brief. ünïcode 東京"


def copy_db(src: Path, dest: Path) -> Path:
    """``src`` (and its -wal, if a writer left one) as ``dest``; the -shm index is rebuilt from the WAL."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dest)
    wal = src.with_name(src.name + "-wal")
    if wal.exists():
        shutil.copyfile(wal, dest.with_name(dest.name + "-wal"))
    return dest


class AgentFiles:
    """Template files, each built on first use and then copied: :meth:`newer` (an oracle's file in a layout),
    :meth:`v22` (0.19.0's) and :meth:`v30` (the schema-30 builder's)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._built: dict[tuple[str, str], Path] = {}
        self.answers: dict[tuple[str, str], dict[str, Any]] = {}
        """The driver's answer when it built a newer agent's template (module file, integrity-check)."""

    def v22(self, dest: Path) -> Path:
        """A file 0.19.0 created and filled (words ``v22cli`` ...)."""
        key = ("v22", "created")
        if key not in self._built:
            path = self.root / "v22-created" / "state.db"
            path.parent.mkdir(parents=True)
            run_oracle("v22", "fill", path, prefix="v22")
            self._built[key] = path
        return copy_db(self._built[key], dest)

    def newer(self, name: str, layout: str, dest: Path) -> Path:
        """The oracle ``name``'s file in ``layout`` (words ``<name>cli`` ...; a legacy or optimized file also
        holds 0.19.0's ``v22cli`` ...)."""
        oracle(name)
        key = (name, layout)
        if key not in self._built:
            path = self.root / f"{name}-{layout}" / "state.db"
            if layout == "created":
                path.parent.mkdir(parents=True)
                step = {"op": "fill", "prefix": name}
            elif layout == "legacy":
                self.v22(path)
                step = {"op": "fill", "prefix": name}
            else:
                self.newer(name, "legacy", path)
                step = {"op": "optimize"}
            # The build's own integrity-check in the same process, kept for the harness test.
            self.answers[key] = run_oracle(name, "batch", path, steps=[step, {"op": "integrity"}])
            self._built[key] = path
        return copy_db(self._built[key], dest)

    def v30(self, dest: Path, *, journal_mode: str = "wal") -> Path:
        """A schema-30 file from the builder, filled with :func:`fill_v30` (prefix ``v30``)."""
        key = ("v30", journal_mode)
        if key not in self._built:
            path = self.root / f"v30-{journal_mode}" / "state.db"
            path.parent.mkdir(parents=True)
            build_v30(path, journal_mode=journal_mode)
            fill_v30(path)
            self._built[key] = path
        return copy_db(self._built[key], dest)


@contextmanager
def serve(home: Path, **settings: Any) -> Iterator[TestClient]:
    """The app in-process on ``home``, authenticated."""
    config = Settings(home=home, api_token=TOKEN, titles_auto=False, **settings)
    with TestClient(create_app(config), headers={"Authorization": f"Bearer {TOKEN}"}) as client:
        yield client


def ok(response: Any, *statuses: int) -> Any:
    """The response's JSON (None for no body) after checking its status (default: any 2xx)."""
    if statuses:
        assert response.status_code in statuses, (
            response.request.method,
            response.request.url,
            response.text,
        )
    else:
        assert 200 <= response.status_code < 300, (
            response.request.method,
            response.request.url,
            response.text,
        )
    return response.json() if response.content else None


@dataclass
class Written:
    """What :func:`every_write` did, for the checks after it. ``word``: the term our messages hold."""

    word: str
    created: str = ""
    continuation: str = ""
    fork: str = ""
    archived_root: str = ""
    archived_tip: str = ""
    deleted: str = ""
    pruned: str = ""
    imported: str = ""
    synced: str = ""
    routed: str = ""
    title: str = ""
    message_ids: list[int] = field(default_factory=list)
    appended_at: float = 0.0


def every_write(
    client: TestClient, word: str = "wombat", *, check: Callable[[], None] | None = None
) -> Written:
    """Every kind of write the server makes on an agent's file, each answered 2xx: create with a system
    prompt, appends with tool calls (batch and single), rename, pin, end, reopen, continuation, fork,
    archive (of a lineage), delete, prune, import, a gateway route and a sync batch. ``check()`` (if given)
    runs after each, e.g. an FTS integrity-check."""

    def step() -> None:
        if check is not None:
            check()

    out = Written(word=word, title=f"Server {word} renamed")
    created = ok(
        client.post(
            "/sessions",
            json={"source": "cli", "title": f"Server {word}", "model": "m-s", "system_prompt": SYSTEM_PROMPT},
        ),
        201,
    )
    out.created = created["id"]
    step()
    out.appended_at = time.time()
    items = ok(
        client.post(
            f"/sessions/{out.created}/messages",
            json={
                "messages": [
                    {"role": "user", "content": f"find the {word} 🦘 in 東京"},
                    {"role": "assistant", "content": None, "tool_calls": TOOL_CALLS},
                    {
                        "role": "tool",
                        "content": f"{word} found",
                        "tool_call_id": "call_s1",
                        "tool_name": "read_file",
                    },
                    {"role": "tool", "content": "nothing", "tool_call_id": "call_s2", "tool_name": "grep"},
                ]
            },
        ),
        201,
    )["items"]
    out.message_ids = [m["id"] for m in items]
    step()
    single = ok(
        client.post(
            f"/sessions/{out.created}/messages", json={"role": "assistant", "content": f"the {word} is here"}
        ),
        201,
    )
    out.message_ids.append(single["id"] if "id" in single else single["items"][0]["id"])
    step()
    ok(client.patch(f"/sessions/{out.created}", json={"title": out.title}), 200)
    step()
    ok(client.put(f"/sessions/{out.created}/pin"))
    step()
    ok(client.post(f"/sessions/{out.created}/end", json={"end_reason": "user_exit"}))
    step()
    ok(client.post(f"/sessions/{out.created}/reopen"))
    step()

    # A compression lineage, archived as a whole, and a branch of it.
    root = ok(client.post("/sessions", json={"source": "cli", "title": f"Lineage {word}"}), 201)["id"]
    ok(
        client.post(
            f"/sessions/{root}/messages",
            json={"messages": [{"role": "user", "content": f"long {word} task"}]},
        ),
        201,
    )
    step()
    tip = ok(
        client.post(
            f"/sessions/{root}/continuations",
            json={"messages": [{"role": "user", "content": f"[summary] the {word} task so far"}]},
        ),
        201,
    )["id"]
    out.continuation = tip
    step()
    out.fork = ok(client.post(f"/sessions/{tip}/fork", json={}), 201)["id"]
    step()
    ok(client.patch(f"/sessions/{tip}", json={"archived": True}), 200)
    out.archived_root, out.archived_tip = root, tip
    step()

    doomed = ok(client.post("/sessions", json={"source": "telegram", "user_id": "u9"}), 201)["id"]
    ok(
        client.post(
            f"/sessions/{doomed}/messages", json={"messages": [{"role": "user", "content": f"delete {word}"}]}
        ),
        201,
    )
    ok(client.delete(f"/sessions/{doomed}"), 204)
    out.deleted = doomed
    step()

    old = ok(client.post("/sessions", json={"source": "cli"}), 201)["id"]
    ok(
        client.post(
            f"/sessions/{old}/messages", json={"messages": [{"role": "user", "content": f"prune {word}"}]}
        ),
        201,
    )
    ok(client.post(f"/sessions/{old}/end", json={"end_reason": "user_exit"}))
    pruned = ok(client.post("/maintenance/prune", json={"older_than_days": 0, "session_ids": [old]}), 200)
    assert pruned["pruned"] == 1, pruned
    out.pruned = old
    step()

    out.imported = f"imported_{word}"
    line = {
        "id": out.imported,
        "source": "cli",
        "started_at": time.time() - 60,
        "title": f"Imported {word}",
        "messages": [
            {"role": "user", "content": f"imported {word} question", "timestamp": time.time() - 59},
            {"role": "assistant", "content": f"imported {word} answer", "timestamp": time.time() - 58},
        ],
    }
    answer = ok(
        client.post(
            "/import", content=json.dumps(line).encode(), headers={"content-type": "application/jsonl"}
        ),
        200,
    )
    assert answer["imported"] == 1, answer
    step()

    routed = ok(
        client.post(
            "/gateway/route",
            json={"platform": "telegram", "chat_type": "dm", "chat_id": "4242", "user_id": "u7"},
        ),
        200,
    )
    out.routed = routed["session_id"]
    step()

    out.synced = f"synced_{word}"
    batch = {
        "home": "laptop",
        "sessions": [
            {
                "id": out.synced,
                "source": "cli",
                "started_at": time.time() - 30,
                "message_count": 1,
                "title": f"Synced {word}",
            }
        ],
        "messages": {
            "columns": ["id", "session_id", "role", "content", "timestamp"],
            "rows": [[1, out.synced, "user", f"synced {word} line", time.time() - 29]],
        },
    }
    synced = ok(client.post("/sync/batches", json=batch), 200)
    assert synced["messages_inserted"] == 1, synced
    step()
    return out


def session_row(path: Path, sid: str) -> dict[str, Any] | None:
    """The file's ``sessions`` row of ``sid`` (every column), read directly."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    conn.row_factory = sqlite3.Row
    try:
        row = conn.execute("SELECT * FROM sessions WHERE id = ?", (sid,)).fetchone()
        return dict(row) if row else None
    finally:
        conn.close()


def lineage(path: Path, sid: str) -> list[str]:
    """``sid`` and its compression ancestors (by ``parent_session_id``), root last."""
    out = [sid]
    while True:
        row = session_row(path, out[-1])
        if row is None or not row["parent_session_id"]:
            return out
        out.append(row["parent_session_id"])


def assert_agent_semantics(path: Path, written: Written) -> None:
    """The writing rules of the newer agent, checked in the file where its columns exist."""
    sessions = columns(path, "sessions")
    created = session_row(path, written.created)
    assert created is not None
    if "title_source" in sessions:
        assert created["title_source"] == "user", created
    if "last_activity_at" in sessions:
        assert (
            created["last_activity_at"] is not None and created["last_activity_at"] >= written.appended_at - 1
        ), created
    if "system_prompt_hash" in sessions and columns(path, "system_prompts"):
        digest = hashlib.sha256(SYSTEM_PROMPT.encode("utf-8")).hexdigest()
        assert created["system_prompt_hash"] == digest, created
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            stored = conn.execute("SELECT prompt FROM system_prompts WHERE hash = ?", (digest,)).fetchone()
        finally:
            conn.close()
        assert stored == (SYSTEM_PROMPT,)
    if "pinned" in sessions:
        assert created["pinned"] == 1, created
    if "archived" in sessions:
        for sid in lineage(path, written.archived_tip):
            row = session_row(path, sid)
            assert row is not None and row["archived"] == 1, (sid, row)
    for gone in (written.deleted, written.pruned):
        assert session_row(path, gone) is None, gone
