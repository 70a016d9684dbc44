"""File modes under $HERMES_HOME: what this server creates is private (0600 files, 0700 directories),
what the agent created keeps the agent's mode, and SQLite's sidecar files follow the database file."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import hermes_state
import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.conftest import TOKEN

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32


def mode(path: Path) -> int:
    """Permission bits of ``path`` (not following a symlink)."""
    return stat.S_IMODE(path.lstat().st_mode)


@pytest.fixture(params=[0o022, 0o000], ids=["umask022", "umask000"])
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    """Run the test under a given process umask (a permissive 000 must not widen our files)."""
    old = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(old)


def _serve(home: Path) -> TestClient:
    return TestClient(
        create_app(Settings(home=home, api_token=TOKEN, titles_auto=False)),
        headers={"Authorization": f"Bearer {TOKEN}"},
    )


def _write_something(client: TestClient) -> str:
    r = client.post("/sessions", json={"source": "cli"})
    assert r.status_code == 201, r.text
    sid: str = r.json()["id"]
    r = client.post(f"/sessions/{sid}/messages", json={"role": "user", "content": "hello"})
    assert r.status_code == 201, r.text
    return sid


def test_new_state_db_and_its_sidecars_are_private(tmp_path: Path, umask: int) -> None:
    home = tmp_path / "fresh" / "hermes-home"  # neither exists: the server creates both
    with _serve(home) as client:
        _write_something(client)
        db = home / "state.db"
        sidecars = [db.with_name("state.db-wal"), db.with_name("state.db-shm")]
        assert all(p.exists() for p in sidecars)
        assert {p.name: mode(p) for p in [db, *sidecars]} == {
            "state.db": 0o600,
            "state.db-wal": 0o600,
            "state.db-shm": 0o600,
        }
    assert mode(home) == 0o700


def test_agent_state_db_keeps_its_own_mode(home: Path, umask: int) -> None:
    agent = hermes_state.SessionDB(db_path=home / "state.db")
    agent.create_session("agent-1", "cli")
    agent.close()
    db = home / "state.db"
    # The agent's file as its user left it; SQLite gives the -wal and -shm it creates the main file's
    # mode, so ours must follow that mode, never force 0600 (the agent's other readers would lose access).
    os.chmod(db, 0o640)
    for sidecar in (db.with_name("state.db-wal"), db.with_name("state.db-shm")):
        sidecar.unlink(missing_ok=True)
    home.chmod(0o755)
    with _serve(home) as client:
        _write_something(client)
        assert mode(db) == 0o640
        assert mode(db.with_name("state.db-wal")) == 0o640
        assert mode(db.with_name("state.db-shm")) == 0o640
    assert mode(home) == 0o755


def test_backup_and_attachments_are_private(home: Path, umask: int) -> None:
    with _serve(home) as client:
        sid = _write_something(client)
        r = client.post("/maintenance/backup")
        assert r.status_code == 200, r.text
        backup = home / "backups" / r.json()["name"]
        assert mode(backup) == 0o600 and mode(home / "backups") == 0o700
        assert os.listdir(home / "backups") == [backup.name]
        r = client.post(f"/sessions/{sid}/attachments", files={"file": ("p.png", PNG, "image/png")})
        assert r.status_code == 201, r.text
        blob = home / r.json()["path"]
        assert mode(blob) == 0o600
        assert mode(blob.parent) == 0o700 and mode(home / "attachments") == 0o700


def test_generated_token_file_is_private(tmp_path: Path, umask: int) -> None:
    home = tmp_path / "new-home"
    settings = Settings(home=home, titles_auto=False)
    with TestClient(create_app(settings)) as client:
        token = (home / "api_token").read_text().strip()
        assert client.get("/sessions", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    assert mode(home / "api_token") == 0o600 and mode(home) == 0o700
