"""The sync cursor files: where they live, what they keep, atomic replacement, and what they refuse."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.sync_cursor import CursorUnreadable, SyncCursor, cursor_path


def test_one_cursor_per_home_and_server_under_the_sync_directory(tmp_path: Path) -> None:
    a = cursor_path(tmp_path, "laptop:/home/me/.hermes/state.db", "http://a:8643")
    assert a.parent == tmp_path / "sync"
    assert a.name.startswith("laptop-home-me-.hermes-state.db-") and a.suffix == ".json"
    assert a == cursor_path(tmp_path, "laptop:/home/me/.hermes/state.db", "http://a:8643/")
    assert a != cursor_path(tmp_path, "laptop:/home/me/.hermes/state.db", "http://b:8643")
    assert a != cursor_path(tmp_path, "server:/home/me/.hermes/state.db", "http://a:8643")
    assert cursor_path(tmp_path, "///", "http://a").name.startswith("home-")


def test_a_missing_cursor_is_fresh_and_a_saved_one_reads_back(tmp_path: Path) -> None:
    path = cursor_path(tmp_path, "laptop", "http://a")
    fresh = SyncCursor.load(path, "laptop", "http://a")
    assert (fresh.last_message_id, fresh.sessions) == (0, {})
    fresh.acknowledge({"s1": "abc", "s2": "def"}, 42)
    fresh.save()
    again = SyncCursor.load(path, "laptop", "http://a")
    assert (again.last_message_id, again.sessions) == (42, {"s1": "abc", "s2": "def"})
    # Replaced atomically: no temporary file is left beside the two files.
    assert sorted(p.name for p in path.parent.iterdir()) == sorted([path.name, fresh.sessions_path.name])


def test_message_batches_rewrite_only_the_position(tmp_path: Path) -> None:
    path = cursor_path(tmp_path, "laptop", "http://a")
    cursor = SyncCursor(path, "laptop", "http://a")
    cursor.acknowledge({"s1": "x"}, None)
    cursor.save()
    digests_written = cursor.sessions_path.stat().st_mtime_ns
    cursor.sessions_path.write_text(cursor.sessions_path.read_text())  # same content, a new mtime
    touched = cursor.sessions_path.stat().st_mtime_ns
    cursor.acknowledge({}, 7)
    cursor.save()
    assert cursor.sessions_path.stat().st_mtime_ns == touched >= digests_written
    assert json.loads(path.read_text()) == {
        "version": 1,
        "home": "laptop",
        "url": "http://a",
        "last_message_id": 7,
        "token": None,
    }
    cursor.forget({"s1"})
    cursor.save()
    assert SyncCursor.load(path, "laptop", "http://a").sessions == {}


def test_session_digests_go_to_a_journal_folded_in_once_it_is_as_big(tmp_path: Path) -> None:
    path = cursor_path(tmp_path, "laptop", "http://a")
    cursor = SyncCursor(path, "laptop", "http://a")
    cursor.acknowledge({f"s{i}": "a" for i in range(4)}, 1)
    cursor.save()
    whole = cursor.sessions_path.read_text()
    # Batches carrying a few sessions each append them while the journal stays smaller than the digests.
    for i, batch in enumerate(({"s4": "b"}, {"s0": "c", "s5": "d"}), start=2):
        cursor.acknowledge(batch, i)
        cursor.save()
    cursor.forget({"s1"})
    cursor.save()
    assert cursor.sessions_path.read_text() == whole
    assert len(cursor.journal_path.read_text().splitlines()) == 3
    expected = {"s0": "c", "s2": "a", "s3": "a", "s4": "b", "s5": "d"}
    assert SyncCursor.load(path, "laptop", "http://a").sessions == expected
    # A line cut short by a crash is ignored; the next save writes the digests whole.
    with cursor.journal_path.open("a") as fh:
        fh.write('{"s6": "e"')
    again = SyncCursor.load(path, "laptop", "http://a")
    assert again.sessions == expected
    again.acknowledge({"s6": "f"}, 5)
    again.save()
    assert not again.journal_path.exists()
    assert json.loads(again.sessions_path.read_text())["sessions"] == {**expected, "s6": "f"}
    # Once the journal would outgrow the digests, they are written whole and the journal starts over.
    again.acknowledge({f"t{i}": "g" for i in range(7)}, 6)
    again.save()
    assert not again.journal_path.exists()
    assert len(SyncCursor.load(path, "laptop", "http://a").sessions) == 13


@pytest.mark.parametrize(
    ("position", "digests"),
    [
        ("{not json", None),
        ("[]", None),
        ('{"version": 2, "home": "laptop", "url": "http://a", "last_message_id": 1}', None),
        ('{"version": 1, "home": "other", "url": "http://a", "last_message_id": 1}', None),
        ('{"version": 1, "home": "laptop", "url": "http://b", "last_message_id": 1}', None),
        ('{"version": 1, "home": "laptop", "url": "http://a", "last_message_id": "1"}', None),
        (None, '{"version": 1, "home": "laptop", "url": "http://a", "sessions": {"s": 1}}'),
        (None, '{"version": 1, "home": "other", "url": "http://a", "sessions": {}}'),
    ],
)
def test_a_damaged_or_foreign_cursor_is_refused(
    tmp_path: Path, position: str | None, digests: str | None
) -> None:
    path = cursor_path(tmp_path, "laptop", "http://a")
    path.parent.mkdir(parents=True)
    if position is not None:
        path.write_text(position)
    if digests is not None:
        SyncCursor(path, "laptop", "http://a").sessions_path.write_text(digests)
    with pytest.raises(CursorUnreadable):
        SyncCursor.load(path, "laptop", "http://a")
