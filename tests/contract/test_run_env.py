"""`make run`: an environment with the runtime dependencies only, and a clean stop on SIGTERM and Ctrl-C."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import httpx
import pytest

from tests.conftest import ROOT, TOKEN, free_port

# Distributions that exist only for tests and development; none may reach the run environment.
_PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
_DEV_ONLY = {"hermes-agent"} | {
    re.split(r"[=<>\[ ]", spec, maxsplit=1)[0].lower() for spec in _PROJECT["optional-dependencies"]["dev"]
}


@pytest.fixture(scope="module")
def run_env(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The environment `make run` builds, made by the same Makefile target in a temporary place."""
    venv = tmp_path_factory.mktemp("run-env") / "venv"
    done = subprocess.run(
        ["make", "--no-print-directory", "run-env", f"RUN_VENV={venv}", f"PY={sys.executable}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # Nothing to read past the make commands themselves: no resolver complaints, no warnings.
    assert "ERROR" not in done.stderr and "WARNING" not in done.stderr, done.stderr
    return venv


def _installed(venv: Path) -> set[str]:
    listing = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "list", "--format=freeze", "--exclude-editable"],
        capture_output=True,
        text=True,
        check=True,
    )
    return {line.split("==", 1)[0].lower() for line in listing.stdout.splitlines() if line}


def test_run_environment_has_no_test_only_package(run_env: Path) -> None:
    installed = _installed(run_env)
    assert "fastapi" in installed and "uvicorn" in installed
    assert not installed & _DEV_ONLY, installed & _DEV_ONLY


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_server_from_the_run_environment_stops_cleanly(
    run_env: Path, tmp_path: Path, stop: signal.Signals
) -> None:
    port = free_port()
    env = {
        "HERMES_HOME": str(tmp_path),
        "HERMES_API_TOKEN": TOKEN,
        "HERMES_PORT": str(port),
        "PATH": "/usr/bin",
    }
    proc = subprocess.Popen(
        [str(run_env / "bin" / "hermes"), "serve"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, proc.communicate()[1].decode()
            try:
                if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "server did not become ready"
            time.sleep(0.1)
        proc.send_signal(stop)
        _, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, stderr.decode()
    assert b"Traceback" not in stderr, stderr.decode()
