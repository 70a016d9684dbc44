"""The CLI as a program: no storage imports, real subprocess against a live server, exit codes, browse."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from app.cli.config import CliConfig
from app.cli.context import CliEnv
from app.cli.main import app as cli_app
from app.storage import backends
from tests.cli.conftest import Run, Seeder, invoke, serve_until_exit
from tests.conftest import ROOT, TOKEN, LiveServer, free_port

HERMES = Path(sys.executable).with_name("hermes")


def test_cli_never_imports_storage_services_or_sqlite() -> None:
    code = (
        "import sys, app.cli.main\n"
        "bad = sorted(m for m in sys.modules if m == 'sqlite3' or m.startswith("
        "('app.storage', 'app.services', 'app.api', 'app.main', 'uvicorn', '_sqlite3')))\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


@pytest.fixture
def live_server(emptied_server: LiveServer) -> LiveServer:
    """These tests share one server, emptied before each (tests/cli/conftest.py)."""
    return emptied_server


def _hermes(*args: str, url: str, token: str = TOKEN, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HERMES_URL": url, "HERMES_API_TOKEN": token, "HERMES_HOME": str(home)}
    return subprocess.run(
        [str(HERMES), *args], env=env, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL
    )


def test_third_party_style_subprocess_list(live_server: LiveServer) -> None:
    with live_server.client() as http:
        ids = [http.post("/sessions", json={"source": "cli"}).json()["id"] for _ in range(7)]
    result = _hermes("sessions", "list", "--limit", "5", url=live_server.base_url, home=live_server.home)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Preview") and len(lines) == 7
    assert {line.split()[-1] for line in lines[2:]} <= set(ids)
    denied = _hermes("sessions", "list", url=live_server.base_url, token="wrong", home=live_server.home)
    assert denied.returncode == 4 and "HERMES_API_TOKEN" in denied.stderr


def test_unreachable_server_exit_code_and_hint(tmp_path: Path) -> None:
    result = _hermes("sessions", "list", url=f"http://127.0.0.1:{free_port()}", home=tmp_path)
    assert result.returncode == 6
    # The agent's own CLI is also ``hermes`` and has no ``serve``: the hint names the command that has one.
    assert "Start it with `hermes-sessions serve`" in result.stderr and result.stdout == ""
    table = _hermes("exit-codes", url="http://x", home=tmp_path).stdout
    assert "start it with `hermes-sessions serve`" in table


def _mock(status: int, body: dict[str, object], home: Path, *args: str) -> tuple[int, str]:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(status, json=body, headers={"Content-Type": "application/problem+json"})

    http = httpx.Client(base_url="http://x", transport=httpx.MockTransport(handler))
    result = invoke(CliEnv(CliConfig(url="http://x", token="t", home=home), http=http), *args)
    return result.exit_code, result.stderr


def test_exit_codes_from_problem_responses(home: Path) -> None:
    assert _mock(500, {"code": "internal_error", "detail": "boom"}, home, "sessions", "stats") == (
        1,
        "boom\n",
    )
    assert _mock(503, {"code": "database_busy", "detail": "busy"}, home, "sessions", "list")[0] == 1
    assert _mock(401, {"code": "unauthorized", "detail": "no"}, home, "sessions", "stats")[0] == 4
    code, err = _mock(404, {"code": "not_found", "detail": "Not Found"}, home, "sessions", "search", "x")
    assert code == 1 and "does not support search yet" in err
    assert _mock(404, {"code": "session_not_found", "detail": "gone"}, home, "sessions", "show", "x")[0] == 3
    code, err = _mock(
        409,
        {"code": "ambiguous_session_ref", "candidates": [{"id": "a1"}, {"id": "a2"}]},
        home,
        "sessions",
        "show",
        "a",
    )
    assert code == 5 and "a1, a2" in err


def test_usage_errors_exit_2(run: Run) -> None:
    assert run("sessions", "list", "--limit", "0").exit_code == 2
    assert run("sessions", "nope").exit_code == 2
    assert run("sessions", "import", "f", "--on-conflict", "merge").exit_code == 2
    assert "3  not found" in run("exit-codes").stdout


def test_browse_numbered_fallback_resumes_the_choice(run: Run, seed: Seeder) -> None:
    a = seed.session(title="first")
    seed.chat(a["id"], 1)
    b = seed.session()
    seed.messages(b["id"], {"role": "user", "content": "p" * 60})
    result = run("sessions", "browse", input="x\n9\n2\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "  Browse sessions  (enter number to resume, q to cancel)" in out
    assert f"    1. {'p' * 47 + '...':<50}  just now    cli" in out
    assert f"    2. {'first':<50}  just now    cli" in out
    assert "  Invalid input. Enter a number or q to cancel." in out
    assert "  Invalid selection. Enter 1-2 or q to cancel." in out
    assert out.endswith(f"{a['id']}\n")
    assert f"Resuming session: {a['id']}" in result.stderr and "↻ Resumed session" in result.stderr
    cancelled = run("sessions", "browse", input="q\n")
    assert cancelled.exit_code == 0 and "Resuming" not in cancelled.output
    assert run("sessions", "browse", input="").exit_code == 0


def test_browse_empty(run: Run) -> None:
    assert run("sessions", "browse").stdout == "No sessions found.\n"


def test_picker_filters_moves_selects_and_escapes() -> None:
    from app.cli.commands.browse import Picker

    sessions: list[dict[str, Any]] = [
        {"id": "s1", "title": "Docker setup", "preview": "", "source": "cli"},
        {"id": "s2", "title": None, "preview": "kubernetes pods", "source": "telegram"},
        {"id": "s3", "title": "Dockerfile lint", "preview": "", "source": "cli"},
    ]
    picker = Picker(sessions)
    picker.press("down")
    picker.press("down")
    picker.press("down")
    assert picker.selected == 2
    for key in "dock":
        picker.press(key)
    assert [s["id"] for s in picker.shown()] == ["s1", "s3"] and picker.selected == 0
    picker.press("backspace")
    assert picker.query == "doc"
    picker.press("esc")
    assert (picker.query, picker.done) == ("", False)
    picker.press("t")
    picker.press("e")
    picker.press("l")
    picker.press("enter")
    assert (picker.done, picker.chosen) == (True, "s2")
    quitter = Picker(sessions)
    quitter.press("up")
    quitter.press("esc")
    assert (quitter.done, quitter.chosen) == (True, None)
    nothing = Picker(sessions, query="zzz")
    nothing.press("enter")
    assert not nothing.done


def test_interrupt_exits_130(home: Path) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise KeyboardInterrupt

    http = httpx.Client(base_url="http://x", transport=httpx.MockTransport(handler))
    result = invoke(CliEnv(CliConfig(url="http://x", token="t", home=home), http=http), "sessions", "stats")
    assert (result.exit_code, result.stderr) == (130, "Interrupted.\n")


def test_a_second_server_on_the_same_file_is_refused(live_server: LiveServer) -> None:
    env = {**os.environ, "HERMES_HOME": str(live_server.home), "HERMES_API_TOKEN": TOKEN}
    env["HERMES_PORT"] = str(free_port())
    done = serve_until_exit(env)
    assert done.returncode == 1
    pid = live_server.process.pid
    assert (
        f"another hermes-sessions server (pid {pid}) is already serving {live_server.home / 'state.db'}"
        in (done.stderr)
    )
    assert "--allow-second-server" in done.stderr


def test_serve_refuses_a_postgresql_url_it_cannot_open(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before it listens, and without taking the SQLite file's one-server lock; the password stays out."""
    monkeypatch.setattr(backends, "POSTGRES_PACKAGE", "app.storage.no_such_backend")
    env = {"HERMES_HOME": str(home), "HERMES_DATABASE_URL": "postgresql://hermes:s3cret@db.example/hermes"}
    result = CliRunner().invoke(cli_app, ["serve"], env=env)
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith("hermes serve: HERMES_DATABASE_URL names a PostgreSQL database")
    assert "postgresql://hermes:***@db.example/hermes" in result.stderr and "s3cret" not in result.stderr
    assert list(home.iterdir()) == []


def test_a_refused_token_says_which_and_where_a_good_one_goes(
    live_server: LiveServer, tmp_path: Path
) -> None:
    (tmp_path / "api_token").write_text("stale\n", encoding="utf-8")
    env = {**os.environ, "HERMES_URL": live_server.base_url, "HERMES_HOME": str(tmp_path)}
    env.pop("HERMES_API_TOKEN", None)
    cli = str(Path(sys.executable).with_name("hermes-sessions"))

    def listing(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [cli, *args, "sessions", "list"], env=env, capture_output=True, text=True, timeout=60
        )

    advice = (
        f"Give the token of the server at {live_server.base_url} with --token, HERMES_API_TOKEN, or in "
        "$HERMES_HOME/api_token (the server writes its own there on its first start).\n"
    )
    from_file = listing()
    assert from_file.returncode == 4
    assert from_file.stderr == f"The server did not accept the token from {tmp_path / 'api_token'}. {advice}"
    from_option = listing("--token", "wrong")
    assert from_option.stderr == f"The server did not accept the token from --token. {advice}"
    assert listing("--token", TOKEN).returncode == 0
    (tmp_path / "api_token").unlink()
    missing = listing()
    assert missing.stderr == (
        f"No token to sign in with: {tmp_path / 'api_token'} does not exist or is empty. {advice}"
    )
