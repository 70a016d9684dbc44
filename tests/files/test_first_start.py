"""First start on an agent's existing state.db: a log line saying what is there, and one backup beside it."""

from __future__ import annotations

import logging
import stat
from collections.abc import Callable
from pathlib import Path

import hermes_state
import pytest

from app.errors import StorageFull
from app.settings import Settings
from app.storage.sqlite.driver import sqlite3
from app.storage.sqlite.first_contact import BACKUP_INFIX
from app.storage.sqlite.store import Database
from tests.conftest import TOKEN
from tests.files.conftest import fill


def _agent_home(home: Path) -> dict[str, list[tuple[str, str]]]:
    """A state.db written by the real agent only; returns each session's (role, content) rows."""
    agent = hermes_state.SessionDB(db_path=home / "state.db")
    try:
        agent.create_session("s-one", "cli", model="m1")
        agent.append_message("s-one", "user", "where are the zebra photos?")
        agent.append_message("s-one", "assistant", "in ~/Pictures/zebra")
        agent.create_session("s-two", "telegram")
        agent.append_message("s-two", "user", "remind me at 7pm")
        agent.set_session_title("s-one", "zebras")
    finally:
        agent.close()
    return {
        "s-one": [("user", "where are the zebra photos?"), ("assistant", "in ~/Pictures/zebra")],
        "s-two": [("user", "remind me at 7pm")],
    }


def _backups(home: Path) -> list[Path]:
    return sorted(p for p in home.iterdir() if BACKUP_INFIX in p.name and not p.name.startswith("."))


def _start(home: Path, **settings: object) -> None:
    Database(Settings(home=home, api_token=TOKEN, **settings)).open().close()  # type: ignore[arg-type]


def test_first_start_backs_up_the_agent_file_once(home: Path, caplog: pytest.LogCaptureFixture) -> None:
    expected = _agent_home(home)
    with caplog.at_level(logging.INFO, logger="app.storage.sqlite.store"):
        _start(home)
    [backup] = _backups(home)
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    text = caplog.text
    assert "First start on the agent's" in text and "schema v22, 2 sessions, 3 messages" in text
    assert f"Backed up the agent's {home / 'state.db'} to {backup}" in text

    # The copy is the agent's file as it was: the agent opens it with every session and message intact, and
    # none of our tables are in it.
    agent = hermes_state.SessionDB(db_path=backup)
    try:
        for session_id, rows in expected.items():
            assert [(m["role"], m["content"]) for m in agent.get_messages(session_id)] == rows
        assert agent.get_session("s-one")["title"] == "zebras"
    finally:
        agent.close()
    conn = sqlite3.connect(backup)
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        conn.close()
    assert "alembic_version" not in tables and not any(t.startswith("hs_") for t in tables)

    caplog.clear()
    with caplog.at_level(logging.INFO, logger="app.storage.sqlite.store"):
        _start(home)
    assert _backups(home) == [backup]
    assert "First start" not in caplog.text


def test_no_backup_for_a_new_home(home: Path) -> None:
    _start(home)
    _start(home)
    assert _backups(home) == []


def test_backup_can_be_turned_off(home: Path, caplog: pytest.LogCaptureFixture) -> None:
    _agent_home(home)
    with caplog.at_level(logging.INFO, logger="app.storage.sqlite.store"):
        _start(home, adoption_backup=False)
    assert _backups(home) == []
    assert "no copy of" in caplog.text


def test_a_backup_on_a_full_disk_refuses_the_start_and_changes_nothing(
    tmp_path: Path, small_fs: Callable[[Path, str], Path]
) -> None:
    home = small_fs(tmp_path / "home", "4m")
    _agent_home(home)
    before = (home / "state.db").read_bytes()
    filler = fill(home)
    with pytest.raises(StorageFull, match="HERMES_ADOPTION_BACKUP=false"):
        _start(home)
    assert (home / "state.db").read_bytes() == before
    assert _backups(home) == [] and not [p for p in home.iterdir() if p.name.endswith(".partial")]
    # With room again the same start takes its backup and goes on.
    filler.unlink()
    _start(home)
    assert len(_backups(home)) == 1
