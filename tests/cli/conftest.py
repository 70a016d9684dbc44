"""CLI fixtures: the real commands through ``CliRunner``, over HTTP to the app in-process."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast
from urllib.parse import quote

import httpx
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner, Result

from app.cli.config import CliConfig
from app.cli.context import CliEnv
from app.cli.main import app
from app.settings import Settings
from tests import agent_mirror
from tests.conftest import ROOT, TOKEN, LiveServer, RawDatabase

Run = Callable[..., Result]


# The CLI talks HTTP only, so its tests run on both backends (the PostgreSQL run skips without a server).
# Sessions the real agent wrote into $HERMES_HOME/state.db are mirrored into PostgreSQL before each request;
# tests of operations on the SQLite file (vacuum, backup, repair) ask for ``sqlite_file_operation``, others
# that read the file itself ``sqlite_only``.
settings = agent_mirror.settings
client = agent_mirror.client


def invoke(env: CliEnv, *args: str, input: str | None = None) -> Result:
    """Run ``hermes ARGS`` with ``env`` injected; stdin is ``input`` (never a TTY). Rich panels get a
    wide terminal so recap lines are not wrapped."""
    return CliRunner().invoke(app, list(args), obj=env, input=input, env={"COLUMNS": "400"})


def in_process_env(config: CliConfig, client: TestClient) -> CliEnv:
    """A :class:`CliEnv` whose requests go to the app in-process through ``client``."""
    # The CLI is typed for the httpx.Client it makes; starlette builds TestClient on httpx2's Client, which
    # has the same request and stream the CLI calls.
    return CliEnv(config=config, http=cast(httpx.Client, client))


@pytest.fixture
def run(client: TestClient, home: Path) -> Run:
    """``run("sessions", "list")`` → the CliRunner result, against the app through ``client``."""

    def _run(*args: str, input: str | None = None, resume_display: str = "full") -> Result:
        config = CliConfig(url="http://testserver", token=TOKEN, home=home, resume_display=resume_display)
        return invoke(in_process_env(config, client), *args, input=input)

    return _run


@dataclass
class Seeder:
    """Creates sessions and messages through the API."""

    client: TestClient

    def session(self, *, title: str | None = None, source: str = "cli", **fields: Any) -> dict[str, Any]:
        """A new session (201)."""
        body: dict[str, Any] = {"source": source, **fields}
        if title is not None:
            body["title"] = title
        response = self.client.post("/sessions", json=body)
        assert response.status_code == 201, response.text
        return dict(response.json())

    def messages(self, session_id: str, *messages: dict[str, Any]) -> list[dict[str, Any]]:
        """Append messages (timestamps default to now, in order)."""
        response = self.client.post(
            f"/sessions/{quote(session_id, safe='')}/messages", json={"messages": list(messages)}
        )
        assert response.status_code == 201, response.text
        return list(response.json()["items"])

    def chat(self, session_id: str, pairs: int, *, at: float | None = None) -> None:
        """``pairs`` user/assistant exchanges."""
        base = time.time() if at is None else at
        batch: list[dict[str, Any]] = []
        for i in range(pairs):
            batch.append({"role": "user", "content": f"question {i}", "timestamp": base + 2 * i})
            batch.append({"role": "assistant", "content": f"answer {i}", "timestamp": base + 2 * i + 1})
        self.messages(session_id, *batch)

    def get(self, session_id: str) -> dict[str, Any]:
        """The session as the API shows it now."""
        return dict(self.client.get(f"/sessions/{quote(session_id, safe='')}").json())

    def end(self, session_id: str, reason: str = "cli_close") -> None:
        """End a session."""
        response = self.client.post(
            f"/sessions/{quote(session_id, safe='')}/end", json={"end_reason": reason}
        )
        assert response.status_code == 200, response.text


@pytest.fixture
def seed(client: TestClient) -> Seeder:
    """The API seeder."""
    return Seeder(client)


def serve_until_exit(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``hermes serve`` in a process of its own, expected to refuse to start and exit."""
    return subprocess.run(
        [sys.executable, "-m", "app.cli.main", "serve"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def snapshot_rows(settings: Settings) -> list[tuple[Any, ...]]:
    """Every column of every session row and every message row, read straight from the store."""
    with RawDatabase(settings) as raw:
        sessions = [tuple(r) for r in raw.execute("SELECT * FROM sessions ORDER BY id").fetchall()]
        messages = [tuple(r) for r in raw.execute("SELECT * FROM messages ORDER BY id").fetchall()]
    return [*sessions, ("messages", *messages)]


@pytest.fixture
def emptied_server(module_server: LiveServer) -> LiveServer:
    """The module's server with no session left from an earlier test (each deleted through the API)."""
    settings = Settings(home=module_server.home, api_token=TOKEN)
    with RawDatabase(settings) as raw:
        left = [str(r[0]) for r in raw.execute("SELECT id FROM sessions").fetchall()]
    with module_server.client() as http:
        for sid in left:
            assert http.delete(f"/sessions/{sid}").status_code == 204
    assert snapshot_rows(settings) == [("messages",)]
    return module_server
