"""``hermes serve``'s first start: the banner says what was found, and refusals come before any trace."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import hermes_state
import pytest
from typer.testing import CliRunner

from app.cli.main import app as cli_app
from tests.cli.conftest import serve_until_exit
from tests.conftest import ROOT, free_port


def _banner(home: Path, **env: str) -> list[str]:
    """Start ``hermes serve`` on ``home``, read its banner (up to the token line) and stop it."""
    environ = {**os.environ, "HERMES_HOME": str(home), "HERMES_PORT": str(free_port()), **env}
    environ.pop("HERMES_API_TOKEN", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "app.cli.main", "serve"],
        cwd=ROOT,
        env=environ,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    lines: list[str] = []
    try:
        assert proc.stderr is not None
        for line in proc.stderr:
            if line.startswith("hermes-sessions on ") or lines:
                lines.append(line.rstrip("\n"))
            if line.startswith("  token:"):
                break
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
    assert proc.returncode == 0
    return lines


def _agent_file(path: Path, sessions: int) -> None:
    agent = hermes_state.SessionDB(db_path=path)
    for n in range(sessions):
        agent.create_session(f"s{n}", "cli")
        agent.append_message(f"s{n}", "user", "hello")
    agent.close()


def test_a_new_home_says_it_made_an_empty_store(tmp_path: Path) -> None:
    home = tmp_path / "mistyped-home"
    lines = _banner(home)
    assert lines[1:] == [
        f"  created a new, empty store at {home / 'state.db'}",
        f"  token:    {home / 'api_token'}",
    ]


def test_an_agent_file_is_named_with_its_sessions_schema_and_backup(tmp_path: Path) -> None:
    _agent_file(tmp_path / "state.db", 3)
    line = _banner(tmp_path)[1]
    match = re.fullmatch(
        rf"  serving an existing agent file at {re.escape(str(tmp_path / 'state.db'))}: 3 sessions, "
        r"schema v22; backup at (\S+)",
        line,
    )
    assert match, line
    backup = Path(match.group(1))
    assert backup.parent == tmp_path and backup.name.startswith("state.before-hermes-sessions-")
    assert backup.is_file()
    # The next start has adopted the file already: no second backup.
    assert _banner(tmp_path)[1] == (
        f"  serving an existing store at {tmp_path / 'state.db'}: 3 sessions, schema v22"
    )
    assert len(list(tmp_path.glob("state.before-hermes-sessions-*"))) == 1


def test_an_agent_file_without_the_backup_says_so(tmp_path: Path) -> None:
    _agent_file(tmp_path / "state.db", 1)
    line = _banner(tmp_path, HERMES_ADOPTION_BACKUP="false")[1]
    assert line.endswith(": 1 sessions, schema v22; no backup taken (HERMES_ADOPTION_BACKUP=false)"), line
    assert not list(tmp_path.glob("state.before-hermes-sessions-*"))


def test_a_busy_port_fails_before_anything_is_created(tmp_path: Path) -> None:
    home = tmp_path / "home"
    with socket.socket() as holder:  # another program listening on the port
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = str(holder.getsockname()[1])
        env = {**os.environ, "HERMES_HOME": str(home), "HERMES_PORT": port}
        done = serve_until_exit(env)
    assert done.returncode == 1, done.stderr
    assert done.stderr == (
        f"hermes serve: could not start on 127.0.0.1:{port}: Address already in use. Is another server "
        "using the port? Pick another with --port or HERMES_PORT.\n"
    )
    assert not home.exists()


def _serve_pg(url: str, home: Path) -> tuple[int, str]:
    env = {"HERMES_HOME": str(home), "HERMES_DATABASE_URL": url}
    result = CliRunner().invoke(cli_app, ["serve"], env=env)
    return result.exit_code, result.stderr


@pytest.fixture
def pg_base(pg_cluster: Any) -> str:
    """The throwaway cluster's URL of its ``postgres`` database."""
    url: str = pg_cluster.url("postgres")
    return url


def test_a_wrong_role_is_one_line_and_exit_9(pg_base: str, tmp_path: Path) -> None:
    url = re.sub(r"//[^@]+@", "//nobody@", pg_base)
    where = re.search(r"@([^/]+)/", url).group(1)  # type: ignore[union-attr]
    assert _serve_pg(url, tmp_path) == (
        9,
        f'hermes serve: cannot connect to PostgreSQL at {where}: role "nobody" does not exist\n',
    )
    assert list(tmp_path.iterdir()) == []


def test_a_wrong_database_is_one_line_and_exit_9(pg_base: str, tmp_path: Path) -> None:
    url = pg_base.rsplit("/", 1)[0] + "/nosuchdb"
    where = re.search(r"@([^/]+)/", url).group(1)  # type: ignore[union-attr]
    assert _serve_pg(url, tmp_path) == (
        9,
        f'hermes serve: cannot connect to PostgreSQL at {where}: database "nosuchdb" does not exist\n',
    )


def test_a_wrong_port_is_one_line_and_exit_9(tmp_path: Path) -> None:
    port = free_port()
    code, stderr = _serve_pg(f"postgresql://hermes@127.0.0.1:{port}/hermes", tmp_path)
    assert (code, stderr) == (
        9,
        f"hermes serve: cannot connect to PostgreSQL at 127.0.0.1:{port}: Connection refused\n",
    )


@pytest.mark.parametrize(
    ("variables", "line"),
    [
        (
            {"HERMES_PORT": "abc"},
            "HERMES_PORT='abc': Input should be a valid integer, unable to parse string as an integer.",
        ),
        (
            {"HERMES_HOST": "0.0.0.0", "HERMES_AUTH_DISABLED": "1"},
            "Refusing to bind 0.0.0.0 with authentication disabled: anyone on the network could read and "
            "change every session. Bind 127.0.0.1 or enable auth (unset HERMES_AUTH_DISABLED).",
        ),
        (  # the value stays out: it may hold a password
            {"HERMES_DATABASE_URL": "mysql://hermes:s3cret@db.example/hermes"},
            "HERMES_DATABASE_URL must be a postgresql:// URL (unset it to use $HERMES_HOME/state.db).",
        ),
    ],
)
def test_a_bad_setting_is_one_sentence_naming_the_variable(
    variables: dict[str, str], line: str, tmp_path: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HERMES_")}
    done = serve_until_exit({**env, "HERMES_HOME": str(tmp_path / "home"), **variables})
    assert (done.returncode, done.stderr) == (2, f"hermes serve: {line}\n")
    assert not (tmp_path / "home").exists()
