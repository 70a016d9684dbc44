"""The README's quickstart, run as written against a real server (only the CLI's path moved)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT, TOKEN, LiveServer


def _quickstart() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quickstart", 1)[1]
    match = re.search(r"```sh\n(.*?)```", section, re.S)
    assert match, "the quickstart has a shell block"
    return match.group(1)


def test_quickstart_is_at_most_five_commands() -> None:
    commands = [line for line in _quickstart().splitlines() if line and not line.startswith("  ")]
    assert len(commands) <= 5, commands


def test_quickstart_hard_codes_no_home_or_port() -> None:
    script = _quickstart()
    assert "~/.hermes" not in script
    assert "127.0.0.1:8643" not in script


def test_quickstart_runs_as_written(live_server: LiveServer, tmp_path: Path) -> None:
    port = live_server.base_url.rsplit(":", 1)[1]
    # The home and port come from the environment, as they do for the server the quickstart talks to.
    script = _quickstart().replace(".venv-run/bin/hermes-sessions", f"{sys.executable} -m app.cli.main")
    # The live server takes its token from the environment; the quickstart reads the file a start writes.
    (live_server.home / "api_token").write_text(TOKEN, encoding="utf-8")
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "HERMES_HOME": str(live_server.home), "HERMES_PORT": port},
    )
    assert done.returncode == 0, done.stderr
    appended, search, *listing = done.stdout.splitlines()
    assert json.loads(appended)["items"][0]["content"] == "How do I rotate the nginx logs?"
    assert [r["title"] for r in json.loads(search)["results"]] == ["first steps"]
    assert any(line.startswith("first steps") for line in listing), listing
