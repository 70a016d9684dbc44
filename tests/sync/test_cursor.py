"""The sync cursor file: where it lives, what it keeps, atomic replacement, and what it refuses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.sync_cursor import CursorUnreadable, SyncCursor, cursor_path


def test_one_file_per_home_and_server_under_the_sync_directory(tmp_path: Path) -> None:
    a = cursor_path(tmp_path, "laptop:/home/me/.hermes/state.db", "http://a:8643")
    assert a.parent == tmp_path / "sync"
    assert a.name.startswith("laptop-home-me-.hermes-state.db-") and a.suffix == ".json"
    assert a == cursor_path(tmp_path, "laptop:/home/me/.hermes/state.db", "http://a:8643/")
    assert a != cursor_path(tmp_path, "laptop:/home/me/.hermes/state.db", "http://b:8643")
    assert a != cursor_path(tmp_path, "server:/home/me/.hermes/state.db", "http://a:8643")
    assert cursor_path(tmp_path, "///", "http://a").name.startswith("home-")


def test_a_missing_file_is_a_fresh_cursor_and_a_saved_one_reads_back(tmp_path: Path) -> None:
    path = cursor_path(tmp_path, "laptop", "http://a")
    fresh = SyncCursor.load(path, "laptop", "http://a")
    assert (fresh.last_message_id, fresh.sessions) == (0, {})
    fresh.last_message_id = 42
    fresh.sessions = {"s1": "abc", "s2": "def"}
    fresh.save()
    again = SyncCursor.load(path, "laptop", "http://a")
    assert (again.last_message_id, again.sessions) == (42, {"s1": "abc", "s2": "def"})
    # Replaced atomically: no temporary file is left beside it.
    assert [p.name for p in path.parent.iterdir()] == [path.name]


def test_save_replaces_the_whole_file(tmp_path: Path) -> None:
    path = cursor_path(tmp_path, "laptop", "http://a")
    cursor = SyncCursor(path, "laptop", "http://a", 5, {"s1": "x" * 1000})
    cursor.save()
    cursor.sessions = {}
    cursor.last_message_id = 6
    cursor.save()
    assert json.loads(path.read_text()) == {
        "version": 1,
        "home": "laptop",
        "url": "http://a",
        "last_message_id": 6,
        "sessions": {},
    }


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        "[]",
        '{"version": 2, "home": "laptop", "url": "http://a", "last_message_id": 1, "sessions": {}}',
        '{"version": 1, "home": "other", "url": "http://a", "last_message_id": 1, "sessions": {}}',
        '{"version": 1, "home": "laptop", "url": "http://b", "last_message_id": 1, "sessions": {}}',
        '{"version": 1, "home": "laptop", "url": "http://a", "last_message_id": "1", "sessions": {}}',
        '{"version": 1, "home": "laptop", "url": "http://a", "last_message_id": 1, "sessions": {"s": 1}}',
    ],
)
def test_a_damaged_or_foreign_cursor_is_refused(tmp_path: Path, content: str) -> None:
    path = cursor_path(tmp_path, "laptop", "http://a")
    path.parent.mkdir(parents=True)
    path.write_text(content)
    with pytest.raises(CursorUnreadable):
        SyncCursor.load(path, "laptop", "http://a")
