"""Static checks of the container files (no Docker engine needed): what the image and compose promise."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def dockerfile() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined, comments dropped."""
    text = (ROOT / "Dockerfile").read_text()
    text = re.sub(r"\\\n", " ", text)
    pairs = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            instruction, _, args = line.partition(" ")
            pairs.append((instruction.upper(), args.strip()))
    return pairs


@pytest.fixture(scope="module")
def service() -> dict[str, Any]:
    """The single compose service."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert len(services) == 1
    return dict(next(iter(services.values())))


def _runtime_stage(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    last_from = max(i for i, (ins, _) in enumerate(pairs) if ins == "FROM")
    return pairs[last_from:]


def test_multi_stage_on_the_pinned_base(dockerfile: list[tuple[str, str]]) -> None:
    bases = [args.split()[0] for ins, args in dockerfile if ins == "FROM"]
    assert len(bases) >= 2
    assert all(base == "python:3.11-slim-trixie" for base in bases)


def test_runs_as_non_root_uid_10001(dockerfile: list[tuple[str, str]]) -> None:
    users = [args for ins, args in _runtime_stage(dockerfile) if ins == "USER"]
    assert users, "the runtime stage must switch user"
    assert users[-1].split(":")[0] in {"10001", "hermes"}
    assert any("--uid 10001" in args for ins, args in dockerfile if ins == "RUN")


def test_data_volume_env_port_and_exec_form_cmd(dockerfile: list[tuple[str, str]]) -> None:
    runtime = _runtime_stage(dockerfile)
    env = " ".join(args for ins, args in runtime if ins == "ENV")
    assert "HERMES_HOME=/data" in env
    assert "HERMES_HOST=0.0.0.0" in env
    assert "HERMES_AUTH_DISABLED" not in env  # auth stays on when binding 0.0.0.0
    assert ("VOLUME", "/data") in runtime
    assert ("EXPOSE", "8643") in runtime
    cmd = [args for ins, args in runtime if ins == "CMD"]
    assert json.loads(cmd[-1]) == ["hermes", "serve"]  # exec form: uvicorn is PID 1 and gets SIGTERM


def test_healthcheck_probes_healthz_with_python(dockerfile: list[tuple[str, str]]) -> None:
    checks = [args for ins, args in _runtime_stage(dockerfile) if ins == "HEALTHCHECK"]
    assert checks
    assert "urllib.request" in checks[-1]
    assert "/healthz" in checks[-1]


def test_compose_publishes_on_loopback_only(service: dict[str, Any]) -> None:
    ports = service["ports"]
    assert ports
    for port in ports:
        assert str(port).startswith("127.0.0.1:"), f"{port} would be reachable from the network"


def test_compose_uses_a_named_volume_for_data(service: dict[str, Any]) -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    mounts = [str(v) for v in service["volumes"]]
    assert "hermes-data:/data" in mounts
    assert "hermes-data" in compose["volumes"]


def test_compose_runtime_hardening(service: dict[str, Any]) -> None:
    assert service["read_only"] is True
    assert "/tmp" in service["tmpfs"]
    assert service["restart"] == "unless-stopped"
    assert service["stop_grace_period"] == "30s"
    assert "/healthz" in " ".join(service["healthcheck"]["test"])


def test_dockerignore_keeps_local_state_out() -> None:
    ignored = (ROOT / ".dockerignore").read_text().split()
    for entry in (".git", ".venv", "bench", "tests", "*.db"):
        assert entry in ignored
