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
def compose() -> dict[str, Any]:
    """docker-compose.yml as Compose reads it (anchors resolved)."""
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return loaded


@pytest.fixture(scope="module")
def service(compose: dict[str, Any]) -> dict[str, Any]:
    """The one service ``docker compose up`` starts (every other one sits in an optional profile)."""
    default = [dict(s) for s in compose["services"].values() if not s.get("profiles")]
    assert len(default) == 1
    return default[0]


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


def test_compose_uses_a_named_volume_for_data(service: dict[str, Any], compose: dict[str, Any]) -> None:
    mounts = [str(v) for v in service["volumes"]]
    assert "hermes-data:/data" in mounts
    assert "hermes-data" in compose["volumes"]


def test_compose_runtime_hardening(service: dict[str, Any]) -> None:
    assert service["read_only"] is True
    assert "/tmp" in service["tmpfs"]
    assert service["restart"] == "unless-stopped"
    assert service["stop_grace_period"] == "30s"
    assert "/healthz" in " ".join(service["healthcheck"]["test"])


def test_postgres_profile_runs_two_stateless_replicas_on_one_database_behind_a_balancer(
    compose: dict[str, Any],
) -> None:
    services = compose["services"]
    profiled = {name for name, s in services.items() if "postgres" in s.get("profiles", ())}
    assert profiled == {"postgres", "hermes-a", "hermes-b", "lb"}
    replicas = [services["hermes-a"], services["hermes-b"]]
    urls = {r["environment"]["HERMES_DATABASE_URL"] for r in replicas}
    assert len(urls) == 1 and "@postgres:5432/" in urls.pop()
    tokens = {r["environment"]["HERMES_API_TOKEN"] for r in replicas}
    assert tokens == {None}  # one shared token, passed through from the environment
    for replica in replicas:
        assert "volumes" not in replica and "/data" in replica["tmpfs"]  # nothing kept locally
        assert replica["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert replica["read_only"] is True
    lb = services["lb"]
    assert all(str(p).startswith("127.0.0.1:") for p in lb["ports"])
    (mount,) = lb["configs"]
    conf = compose["configs"][mount["source"]]["content"]
    assert "server hermes-a:8643" in conf and "server hermes-b:8643" in conf
    assert "proxy_buffering off;" in conf  # event streams pass through unbuffered
    assert "hermes-pg" in compose["volumes"]
    assert services["postgres"]["volumes"] == ["hermes-pg:/var/lib/postgresql/data"]


def test_dockerignore_keeps_local_state_out() -> None:
    ignored = (ROOT / ".dockerignore").read_text().split()
    for entry in (".git", ".venv", "bench", "tests", "*.db"):
        assert entry in ignored
