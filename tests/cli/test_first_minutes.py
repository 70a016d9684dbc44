"""What a new user meets first: --version, plain help, top-level insights, long candidate lists."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from app import __version__
from tests.cli.conftest import Run, Seeder
from tests.conftest import ROOT


def test_version(run: Run) -> None:
    for flag in ("--version", "-V"):
        result = run(flag)
        assert result.exit_code == 0
        assert result.stdout == f"hermes-sessions {__version__}\n"


def test_help_shows_no_type_labels_beside_flags(run: Run) -> None:
    for args in (["--help"], ["sessions", "prune", "--help"], ["sessions", "list", "--help"]):
        result = run(*args)
        assert result.exit_code == 0, result.output
        assert "<bool>" not in result.stdout, result.stdout
    top = run("--help").stdout
    assert re.search(r"^\s+-c, --continue\s+Show the recap and id", top, re.M), top
    assert "130  interrupted (Ctrl-C)" in top  # the exit-code table keeps its lines


def test_insights_at_the_top_level_like_the_agent(run: Run, seed: Seeder) -> None:
    s = seed.session(model="gpt-x")
    seed.chat(s["id"], 1)
    top, nested = run("insights", "--json"), run("sessions", "insights", "--json")
    assert top.exit_code == 0, top.output
    # The window (since, until) moves between the two calls; everything else is the same report.
    first, second = (orjson.loads(r.stdout) for r in (top, nested))
    for report in (first, second):
        report.pop("until"), report.pop("since")
    assert first == second and first["totals"]["sessions"] == 1


def test_ambiguous_prefix_says_there_are_more(run: Run, seed: Seeder) -> None:
    ids = [seed.session(id=f"20991231_000000_{i:06x}")["id"] for i in range(12)]
    result = run("sessions", "show", "20991231_000000_0")
    assert result.exit_code == 5
    assert "and more; give more of the id." in result.stderr
    assert sum(i in result.stderr for i in ids) == 10


def test_ambiguous_prefix_says_what_to_do_when_every_candidate_is_listed(run: Run, seed: Seeder) -> None:
    ids = [seed.session(id=f"20991231_000000_{i:06x}")["id"] for i in range(2)]
    result = run("sessions", "show", "20991231_000000_0")
    assert result.exit_code == 5
    listed = result.stderr.strip().removeprefix("Session '20991231_000000_0' is ambiguous: ")
    assert listed.removesuffix("; give more of the id.").split(", ") == ids[::-1]  # newest first


def test_a_title_where_an_id_is_needed_says_so(run: Run, seed: Seeder) -> None:
    sid = seed.session(title="deploy notes")["id"]
    for args in (["sessions", "rename", "deploy notes", "x"], ["sessions", "pin", "deploy notes"]):
        result = run(*args)
        assert result.exit_code == 3, result.output
        assert result.stderr.strip() == (
            f"Session 'deploy notes' not found. It is the title of session {sid}: this command takes a "
            "session id or a unique id prefix, not a title."
        )
    assert run("sessions", "show", "deploy notes").exit_code == 0
    assert run("sessions", "pin", "nothing like it").stderr.strip() == "Session 'nothing like it' not found."


@pytest.mark.parametrize(
    ("variables", "message"),
    [
        ({"HERMES_PORT": "abc"}, "HERMES_PORT must be a port number (1 to 65535), not 'abc'."),
        ({"HERMES_PORT": "70000"}, "HERMES_PORT must be a port number (1 to 65535), not '70000'."),
        (
            {"HERMES_URL": "127.0.0.1:8643"},
            "HERMES_URL must be the server's URL, such as http://127.0.0.1:8643, not '127.0.0.1:8643'.",
        ),
        (
            {"HERMES_URL": "http://127.0.0.1:port"},
            "HERMES_URL must be the server's URL, such as http://127.0.0.1:8643, not 'http://127.0.0.1:port'.",
        ),
    ],
)
def test_a_mistyped_server_address_is_a_sentence_not_a_traceback(
    variables: dict[str, str], message: str, tmp_path: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("HERMES_URL", "HERMES_PORT")}
    env |= {"HERMES_HOME": str(tmp_path), **variables}
    result = subprocess.run(
        [sys.executable, "-m", "app.cli.main", "sessions", "list"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (result.returncode, result.stdout, result.stderr) == (2, "", message + "\n")
