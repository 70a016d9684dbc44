"""``hermes gateway routes`` and ``hermes gateway config`` through the real CLI."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from tests.cli.conftest import Run
from tests.gateway.conftest import route


def test_routes_list_and_show(run: Run, client: TestClient) -> None:
    first = route(client, chat_id="99")
    route(client, platform="discord", chat_id="7")
    listed = run("gateway", "routes")
    assert listed.exit_code == 0, listed.output
    assert f"agent:main:telegram:dm:99  →  {first['session_id']}" in listed.output
    only = json.loads(run("gateway", "routes", "--platform", "discord", "--json").output)
    assert [e["session_key"] for e in only] == ["agent:main:discord:dm:7"]
    paged = json.loads(run("gateway", "routes", "--limit", "1", "--all", "--json").output)
    assert len(paged) == 2
    shown = json.loads(run("gateway", "routes", "agent:main:telegram:dm:99", "--json").output)
    assert shown == client.get("/gateway/routes/agent:main:telegram:dm:99").json()
    missing = run("gateway", "routes", "agent:main:telegram:dm:nobody")
    assert missing.exit_code != 0


def test_config_show_and_set(run: Run, client: TestClient) -> None:
    shown = run("gateway", "config")
    assert shown.exit_code == 0 and "default: none (reset never" in shown.output
    changed = run(
        "gateway",
        "config",
        "--set",
        "mode=idle",
        "--set",
        "idle_minutes=30",
        "--set",
        "telegram.mode=none",
        "--set",
        "dm.mode=daily",
        "--set",
        "group_sessions_per_user=false",
        "--json",
    )
    assert changed.exit_code == 0, changed.output
    body = json.loads(changed.output)
    assert body["session_reset"]["mode"] == "idle" and body["session_reset"]["idle_minutes"] == 30
    assert body["reset_by_platform"]["telegram"]["mode"] == "none"
    assert body["reset_by_type"]["dm"]["mode"] == "daily"
    assert body["group_sessions_per_user"] is False
    assert client.get("/gateway/config").json() == body
    assert run("gateway", "config", "--set", "at_hour=soon").exit_code != 0
    assert run("gateway", "config", "--set", "colour=blue").exit_code != 0
