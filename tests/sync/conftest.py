"""Sync fixtures: agent files written by the real agent's ``SessionDB`` (or filled in bulk in its schema),
and what a file and a server hold, in comparable form."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import hermes_state
import pytest

from app.settings import Settings
from app.storage.sqlite.driver import sqlite3
from tests.conftest import BACKENDS, ROOT, TOKEN, HttpClient, backend_settings

Contents = dict[str, dict[str, Any]]
"""Session id → its compared columns and its messages ``(role, content, timestamp)`` in order."""


@pytest.fixture(params=BACKENDS)
def settings(request: pytest.FixtureRequest, home: Path) -> Settings:
    """Every test of this directory syncs into a server on each backend (the PostgreSQL run skips without a
    server)."""
    return backend_settings(request, home)


def server_env(settings: Settings) -> dict[str, str]:
    """The environment a ``hermes serve`` process needs to serve ``settings``' backend."""
    return {"HERMES_DATABASE_URL": settings.database_url} if settings.database_url else {}


_COMPARED = ("title", "model", "ended_at", "end_reason", "message_count")


def agent_file(path: Path, sessions: int = 3, messages: int = 4, prefix: str = "s") -> Path:
    """A state file written by the real agent: ``sessions`` sessions of ``messages`` messages each."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = hermes_state.SessionDB(db_path=path)
    try:
        for s in range(sessions):
            sid = f"{prefix}{s:04d}"
            db.create_session(sid, "cli", model="test-model")
            for i in range(messages):
                db.append_message(
                    sid, "user" if i % 2 == 0 else "assistant", f"{prefix} message {s}.{i} 中文"
                )
    finally:
        db.close()
    return path


def bulk_fill(path: Path, sessions: int, per_session: int, prefix: str = "b") -> None:
    """Add sessions and messages in the agent's schema with ``executemany`` (fast, triggers firing)."""
    conn = sqlite3.connect(path)
    try:
        with conn:
            conn.executemany(
                "INSERT INTO sessions (id, source, model, started_at, message_count)"
                " VALUES (?, 'cli', 'm', ?, ?)",
                [(f"{prefix}{s:05d}", 1_700_000_000.0 + s, per_session) for s in range(sessions)],
            )
            conn.executemany(
                "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)",
                [
                    (
                        f"{prefix}{s:05d}",
                        "user" if i % 2 == 0 else "assistant",
                        f"bulk {s} {i}",
                        1_700_000_000.0 + i,
                    )
                    for s in range(sessions)
                    for i in range(per_session)
                ],
            )
    finally:
        conn.close()


def file_contents(path: Path) -> Contents:
    """What an agent file holds, read directly."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        out: Contents = {}
        for row in conn.execute("SELECT * FROM sessions"):
            out[row["id"]] = {c: row[c] for c in _COMPARED} | {"messages": []}
        for row in conn.execute("SELECT session_id, role, content, timestamp FROM messages ORDER BY id"):
            out[row["session_id"]]["messages"].append((row["role"], row["content"], row["timestamp"]))
        return out
    finally:
        conn.close()


def server_contents(http: HttpClient, home: str | None = None) -> Contents:
    """What a server holds (of one home), read through the API."""
    out: Contents = {}
    params: dict[str, Any] = {"limit": 200, "include_children": True, "include_archived": True}
    if home is not None:
        params["home"] = home
    cursor = None
    while True:
        page = http.get("/sessions", params={**params, **({"cursor": cursor} if cursor else {})}).json()
        for s in page["items"]:
            out[s["id"]] = {c: s[c] for c in _COMPARED} | {"messages": [], "home": s["home"]}
        cursor = page["next_cursor"]
        if not cursor:
            break
    for sid, entry in out.items():
        after: dict[str, int] = {}
        while True:
            msgs = http.get(
                f"/sessions/{sid}/messages", params={"limit": 1000, "include_inactive": True, **after}
            ).json()["items"]
            entry["messages"] += [(m["role"], m["content"], m["timestamp"]) for m in msgs]
            if len(msgs) < 1000:
                break
            after = {"after": msgs[-1]["id"]}
    return out


def without_home(contents: Contents) -> Contents:
    """``contents`` minus the ``home`` label (to compare with a file)."""
    return {sid: {k: v for k, v in entry.items() if k != "home"} for sid, entry in contents.items()}


def sync_command(*args: str, url: str, home: Path) -> list[str]:
    """The argv of ``hermes sessions sync ARGS`` against ``url``."""
    return [sys.executable, "-m", "app.cli.main", "sessions", "sync", "--to", url, *args]


def sync_env(home: Path) -> dict[str, str]:
    """The environment of a sync process whose ``$HERMES_HOME`` (cursor, default file) is ``home``."""
    return {**os.environ, "HERMES_HOME": str(home), "HERMES_API_TOKEN": TOKEN}


def run_sync(*args: str, url: str, home: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run ``hermes sessions sync`` to completion."""
    return subprocess.run(
        sync_command(*args, url=url, home=home),
        cwd=ROOT,
        env=sync_env(home),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
