"""One state.db written by the real agent, served twice: by the agent's own 0.19.0 dashboard app
(``hermes_cli.web_server``) and by ours, each on its own copy, so every answer can be compared."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import hermes_state
import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from app.storage.sqlite.driver import sqlite3

TOKEN = "dashboard-test-token"
AGENT_TOKEN = "agent-dashboard-token"
# Every timestamp lies well in the past, so no session counts as live on either side (``is_active``).
T0 = 1_700_000_000.0
NEEDLE = "quokka"
TOOL_CALLS = [{"id": "call_1", "type": "function", "function": {"name": "grep", "arguments": '{"q": "x"}'}}]

# The dashboard reads its token from the environment when it is imported.
os.environ.setdefault("HERMES_DASHBOARD_SESSION_TOKEN", AGENT_TOKEN)


def _chat(db: Any, sid: str, source: str, words: list[str], **kwargs: Any) -> None:
    db.create_session(sid, source, **kwargs)
    for n, word in enumerate(words):
        db.append_message(sid, "user" if n % 2 == 0 else "assistant", word)


def write_store(path: Path) -> None:
    """The agent's store: sources, titles, tool calls, a compression chain, a branch, a delegate, archived
    and empty sessions, workspaces, and one session holding sixty hits of a word another holds once."""
    db = hermes_state.SessionDB(db_path=path)
    try:
        for n in range(12):
            source = ("cli", "telegram", "cron")[n % 3]
            _chat(
                db,
                f"plain{n:02d}",
                source,
                [f"hello number {n} zebra", f"reply {n} " + "x" * (n * 9)],
                model=f"m{n % 2}",
                cwd=f"/work/repo{n % 2}/sub",
            )
            if n % 4 == 0:
                db.set_session_title(f"plain{n:02d}", f"Title {n}")
            if n % 5 == 0:
                db.end_session(f"plain{n:02d}", "user_exit")
        db.create_session("tools1", "cli", model="m-tools")
        db.append_message("tools1", "user", "run the grep")
        db.append_message("tools1", "assistant", None, tool_calls=TOOL_CALLS)
        db.append_message("tools1", "tool", "grep found it", tool_call_id="call_1", tool_name="grep")
        _chat(db, "chainroot", "cli", ["first part of the long walrus talk", "sure"])
        db.set_session_title("chainroot", "Walrus talk")
        db.end_session("chainroot", "compression")
        _chat(db, "chaintip", "cli", ["second part walrus", "ok"], parent_session_id="chainroot")
        _chat(
            db,
            "branched",
            "cli",
            ["a branch off walrus"],
            parent_session_id="plain01",
            model_config={"_branched_from": "plain01"},
        )
        _chat(
            db,
            "delegate",
            "subagent",
            ["delegated walrus work"],
            parent_session_id="plain02",
            model_config={"_delegate_from": "plain02"},
        )
        _chat(db, "archived1", "cli", ["an archived zebra"])
        db.end_session("archived1", "user_exit")
        db.set_session_archived("archived1", True)
        for n in range(3):
            db.create_session(f"empty{n}", "cli")
            if n < 2:
                db.end_session(f"empty{n}", "user_exit")
        _chat(db, "hits", "cli", [f"{NEEDLE} {NEEDLE} {NEEDLE} line {n}" for n in range(60)])
        lone = f"a lone {NEEDLE} mention in a much longer sentence about other things"
        _chat(db, "onehit", "telegram", [lone])
        _chat(db, "abcd1", "cli", ["prefix twin one"])
        _chat(db, "abcd2", "cli", ["prefix twin two"])
    finally:
        db.close()
    _age(path)


def _age(path: Path) -> None:
    """Move every session and message into the past, one minute apart in creation order."""
    with sqlite3.connect(path) as conn:
        ids = [row[0] for row in conn.execute("SELECT id FROM sessions ORDER BY rowid")]
        for n, sid in enumerate(ids):
            start = T0 + n * 60
            conn.execute(
                "UPDATE sessions SET started_at = ?,"
                " ended_at = CASE WHEN ended_at IS NULL THEN NULL ELSE ? END WHERE id = ?",
                (start, start + 50, sid),
            )
            conn.execute("UPDATE messages SET timestamp = ? + (id % 40) WHERE session_id = ?", (start, sid))
    conn.close()


@pytest.fixture(scope="session")
def agent_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The pristine store, written once; tests serve copies of it."""
    path = tmp_path_factory.mktemp("agent-store") / "state.db"
    write_store(path)
    return path


def copy_store(store: Path, home: Path) -> Path:
    """A copy of ``store`` as ``home/state.db``."""
    home.mkdir(parents=True, exist_ok=True)
    target = home / "state.db"
    shutil.copyfile(store, target)
    return target


@dataclass
class Pair:
    """The agent's dashboard and ours, each on its own copy of the store."""

    theirs: TestClient
    ours: TestClient
    agent_home: Path
    our_home: Path

    def agent(self, method: str, url: str, **kwargs: Any) -> Any:
        """A request to the agent's dashboard, on its copy (it finds its store through module state)."""
        os.environ["HERMES_HOME"] = str(self.agent_home)
        hermes_state.DEFAULT_DB_PATH = self.agent_home / "state.db"
        return self.theirs.request(method, url, **kwargs)

    def both(self, method: str, url: str, **kwargs: Any) -> tuple[tuple[int, Any], tuple[int, Any]]:
        """The same request to both: (status, JSON) of theirs, then of ours."""
        a = self.agent(method, url, **kwargs)
        b = self.ours.request(method, url, **kwargs)
        return (a.status_code, _json(a)), (b.status_code, _json(b))


def _json(response: Any) -> Any:
    try:
        return response.json()
    except ValueError:
        return response.text


@pytest.fixture(scope="session")
def agent_app() -> Any:
    """The real 0.19.0 dashboard app (importing it takes seconds: once per run)."""
    from hermes_cli import web_server

    return web_server.app


@contextmanager
def serving(store: Path, root: Path, agent_app: Any) -> Iterator[Pair]:
    """Both apps, each on a fresh copy of ``store`` under ``root``."""
    agent_home, our_home = root / "agent-home", root / "our-home"
    copy_store(store, agent_home)
    copy_store(store, our_home)
    saved = os.environ.get("HERMES_HOME"), hermes_state.DEFAULT_DB_PATH
    settings = Settings(home=our_home, api_token=TOKEN, titles_auto=False, adoption_backup=False)
    try:
        with (
            TestClient(
                agent_app, headers={"X-Hermes-Session-Token": AGENT_TOKEN}, raise_server_exceptions=False
            ) as theirs,
            TestClient(create_app(settings), headers={"X-Hermes-Session-Token": TOKEN}) as ours,
        ):
            yield Pair(theirs, ours, agent_home, our_home)
    finally:
        if saved[0] is None:
            os.environ.pop("HERMES_HOME", None)
        else:
            os.environ["HERMES_HOME"] = saved[0]
        hermes_state.DEFAULT_DB_PATH = saved[1]


@pytest.fixture(scope="module")
def reads(agent_store: Path, agent_app: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pair]:
    """Both apps for a module of read-only requests (reads never write, so one copy each serves them all)."""
    with serving(agent_store, tmp_path_factory.mktemp("reads"), agent_app) as pair:
        yield pair


@pytest.fixture
def pair(agent_store: Path, agent_app: Any, tmp_path: Path) -> Iterator[Pair]:
    """Both apps on fresh copies, for a test that changes the store."""
    with serving(agent_store, tmp_path, agent_app) as pair:
        yield pair
