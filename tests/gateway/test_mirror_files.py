"""The gateway's files under ``$HERMES_HOME``: the ``sessions.json`` mirror stays inside the home, private,
free of a dead rewrite's temporary files and current after a restart; ``PUT /gateway/config`` edits
config.yaml keeping what the user wrote (comments, anchors, aliases)."""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

import yaml
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.conftest import TOKEN, RawDatabase
from tests.gateway.conftest import gateway_of, put_config, route, scope


def _serving(settings: Settings) -> TestClient:
    return TestClient(create_app(settings), headers={"Authorization": f"Bearer {TOKEN}"})


def _flush(client: TestClient) -> None:
    assert client.portal is not None
    client.portal.call(gateway_of(client).mirror.flush)


def test_the_mirror_is_never_written_through_a_sessions_link_outside_the_home(
    settings: Settings, home: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (home / "sessions").symlink_to(outside)
    with _serving(settings) as client:
        route(client, chat_id="1")
        _flush(client)
    assert list(outside.iterdir()) == []


def test_sessions_dir_is_made_private(settings: Settings, home: Path) -> None:
    with _serving(settings) as client:
        route(client, chat_id="1")
        _flush(client)
    assert stat.S_IMODE((home / "sessions").stat().st_mode) == 0o700
    assert "agent:main:telegram:dm:1" in json.loads((home / "sessions" / "sessions.json").read_text())


def test_a_dead_rewrites_temporary_files_are_removed_at_start(settings: Settings, home: Path) -> None:
    sessions = home / "sessions"
    sessions.mkdir(mode=0o700)
    (sessions / ".sessions_k1ll3d.tmp").write_bytes(b"{" * 1000)
    (sessions / "notes.tmp").write_text("the user's")
    with _serving(settings):
        assert sorted(p.name for p in sessions.iterdir()) == ["notes.tmp"]


def test_a_mirror_older_than_the_table_is_rewritten_at_start(settings: Settings, home: Path) -> None:
    with _serving(settings) as client:
        route(client, chat_id="1")
    mirror = home / "sessions" / "sessions.json"
    # A process killed before its last rewrite: the file holds less than the table, and is older.
    mirror.write_text('{"_README": "stale"}')
    os.utime(mirror, (1_000_000, 1_000_000))
    with RawDatabase(settings) as db:
        assert db.execute(
            "SELECT count(*) FROM gateway_routing WHERE scope = ?", (scope(settings),)
        ).fetchone()[0]
    with _serving(settings):
        deadline = time.monotonic() + 30
        while "agent:main:telegram:dm:1" not in mirror.read_text() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "agent:main:telegram:dm:1" in json.loads(mirror.read_text())


CONFIG = """\
# Gateway settings, by hand.
defaults: &reset_defaults  # shared by two platforms
  mode: idle
  idle_minutes: 120
platforms:
  telegram:
    reset: *reset_defaults
  discord:
    reset: *reset_defaults
session_reset:
  mode: daily  # reset at four
  at_hour: 4
group_sessions_per_user: true  # one session per member
"""


def test_put_config_keeps_the_comments_and_anchors_of_config_yaml(client: TestClient, home: Path) -> None:
    path = home / "config.yaml"
    path.write_text(CONFIG)
    put_config(client, session_reset={"mode": "idle", "idle_minutes": 30}, group_sessions_per_user=False)
    text = path.read_text()
    for kept in (
        "# Gateway settings, by hand.",
        "defaults: &reset_defaults",
        "# shared by two platforms",
        "    reset: *reset_defaults",
        "# reset at four",
        "# one session per member",
    ):
        assert kept in text, text
    data = yaml.safe_load(text)
    assert data["session_reset"]["mode"] == "idle" and data["session_reset"]["idle_minutes"] == 30
    assert data["group_sessions_per_user"] is False
    assert data["platforms"]["discord"]["reset"] == {"mode": "idle", "idle_minutes": 120}
    answered = client.get("/gateway/config").json()
    assert answered["session_reset"]["mode"] == "idle" and answered["group_sessions_per_user"] is False


def test_the_mirror_follows_any_commit_that_changes_the_routing_table(settings: Settings, home: Path) -> None:
    """The mirror hears of changes from the writer's commit notices, not from the gateway service: a
    routing entry written by any job (here one run straight on the store) reaches the file."""
    mirror = home / "sessions" / "sessions.json"
    with _serving(settings) as client:
        route(client, chat_id="1")
        gateway = gateway_of(client)
        key = "agent:main:telegram:dm:1"
        deadline = time.monotonic() + 30
        while not (mirror.exists() and key in mirror.read_text()) and time.monotonic() < deadline:
            time.sleep(0.05)
        entry = json.loads(mirror.read_text())[key]
        moved = {**entry, "session_key": "agent:main:telegram:dm:2", "session_id": "moved"}
        assert client.portal is not None
        client.portal.call(
            gateway.db.write,
            lambda tx: tx.gateway.put_entry(gateway.scope, moved["session_key"], json.dumps(moved)),
        )
        deadline = time.monotonic() + 30
        while "agent:main:telegram:dm:2" not in mirror.read_text() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert json.loads(mirror.read_text())["agent:main:telegram:dm:2"]["session_id"] == "moved"
