"""The group-commit writer under failure: a bad job, a full disk, a lock held by another process, shutdown."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from app.errors import DatabaseBusy, StorageFull
from app.settings import Settings
from app.storage.sqlite import migrate, writer
from app.storage.sqlite import store as database
from app.storage.sqlite.connection import open_connection
from app.storage.sqlite.driver import sqlite3
from app.storage.sqlite.store import Database
from app.storage.sqlite.writer import Writer


def _open(home: Path, **overrides: object) -> Database:
    return Database(Settings(home=home, api_token="t", **overrides)).open()  # type: ignore[arg-type]


def _writer(db: Database) -> Writer:
    """The group-commit writer of a store opened read-write (a read-only one has none)."""
    assert db.writer is not None
    return db.writer


def _put(key: str, value: str = "v") -> Callable[[sqlite3.Connection], int]:
    return lambda c: c.execute("INSERT INTO state_meta (key, value) VALUES (?, ?)", (key, value)).rowcount


def _keys(path: Path) -> set[str]:
    conn = sqlite3.connect(path)
    try:
        return {r[0] for r in conn.execute("SELECT key FROM state_meta WHERE key LIKE 't-%'")}
    finally:
        conn.close()


def test_failing_job_rolls_back_only_itself(home: Path) -> None:
    db = _open(home)
    try:
        assert db.writer is not None
        # Keep the writer busy so the next jobs queue up and commit as one group.
        blocker = db.writer.submit(lambda c: time.sleep(0.3))

        def bad(c: sqlite3.Connection) -> None:
            c.execute("INSERT INTO state_meta (key, value) VALUES ('t-bad', 'x')")
            raise ValueError("boom")

        futures: list[Future[Any]] = [
            db.writer.submit(_put("t-a")),
            db.writer.submit(bad),
            db.writer.submit(_put("t-c")),
        ]
        dup = db.writer.submit(_put("t-a"))  # constraint violation inside the same group
        commits_before = db.writer.commits
        blocker.result()
        assert futures[0].result() == 1
        with pytest.raises(ValueError, match="boom"):
            futures[1].result()
        assert futures[2].result() == 1
        with pytest.raises(sqlite3.IntegrityError):
            dup.result()
        assert db.writer.commits - commits_before <= 2
        assert _keys(db.path) == {"t-a", "t-c"}
    finally:
        db.close()


def test_disk_full_is_storage_full_and_file_stays_sound(home: Path) -> None:
    db = _open(home)
    try:
        pages = db.write_sync(lambda tx: tx.conn.execute("PRAGMA page_count").fetchone()[0])
        db.write_sync(lambda tx: tx.conn.execute(f"PRAGMA max_page_count={pages + 2}").fetchone())
        _writer(db).write_sync(_put("t-small"))
        with pytest.raises(StorageFull) as info:
            _writer(db).write_sync(_put("t-huge", "x" * 2_000_000))
        assert info.value.status == 507
        db.write_sync(lambda tx: tx.conn.execute("PRAGMA max_page_count=1073741823").fetchone())
        _writer(db).write_sync(_put("t-after"))
    finally:
        db.close()
    conn = sqlite3.connect(home / "state.db")
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    assert _keys(home / "state.db") == {"t-small", "t-after"}


def test_lock_held_by_other_process_is_database_busy(home: Path) -> None:
    db = _open(home, write_lock_budget_s=0.5, busy_timeout_ms=100)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3,sys\n"
            f"c=sqlite3.connect({str(db.path)!r}, isolation_level=None)\n"
            # The lock is held until the test says so (a line on stdin).
            "c.execute('BEGIN IMMEDIATE'); print('locked', flush=True)\n"
            "sys.stdin.readline(); c.execute('COMMIT')",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        started = time.monotonic()
        with pytest.raises(DatabaseBusy) as info:
            _writer(db).write_sync(_put("t-blocked"))
        assert info.value.status == 503
        assert time.monotonic() - started < 2.5
        holder.communicate("release\n", timeout=10)
        assert holder.returncode == 0
        assert _writer(db).write_sync(_put("t-later")) == 1
    finally:
        if holder.poll() is None:
            holder.kill()
        db.close()
    assert _keys(home / "state.db") == {"t-later"}


def test_shutdown_leaves_truncated_wal(home: Path) -> None:
    db = _open(home)
    for i in range(50):
        _writer(db).write_sync(_put(f"t-{i}", "y" * 1000))
    db.close()
    wal = home / "state.db-wal"
    assert not wal.exists() or wal.stat().st_size == 0
    assert len(_keys(home / "state.db")) == 50


def test_commits_never_checkpoint_the_checkpointer_does(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(database, "CHECKPOINT_INTERVAL_S", 3600.0)
    db = _open(home)
    try:
        size_before = db.path.stat().st_size
        for i in range(300):  # ~1.2 MB: past SQLite's automatic checkpoint (1000 pages) had it been on
            _writer(db).write_sync(_put(f"t-{i}", "z" * 4000))
        assert db.path.stat().st_size < size_before + 150_000, "a commit copied pages into the main file"
        assert db.checkpointer is not None
        db.checkpointer.nudge()
        deadline = time.monotonic() + 10
        while db.path.stat().st_size < size_before + 1_000_000 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert db.path.stat().st_size >= size_before + 1_000_000
    finally:
        db.close()


def test_writer_checkpoints_itself_when_the_wal_outgrows_the_checkpointer(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(database, "CHECKPOINT_INTERVAL_S", 3600.0)
    monkeypatch.setattr(writer, "WAL_INLINE_CHECKPOINT_BYTES", 100_000)
    monkeypatch.setattr(writer, "_WAL_CHECK_EVERY_COMMITS", 1)
    db = _open(home)
    try:
        size_before = db.path.stat().st_size
        for i in range(100):
            _writer(db).write_sync(_put(f"t-{i}", "z" * 4000))
        assert db.path.stat().st_size >= size_before + 300_000
        assert db.wal_path.stat().st_size < 2_000_000
    finally:
        db.close()


def test_housekeeping_runs_after_each_batch_and_its_failure_is_harmless(home: Path) -> None:
    calls: list[int] = []

    def housekeeping(conn: sqlite3.Connection) -> None:
        calls.append(1)
        if len(calls) == 2:
            conn.execute("INSERT INTO no_such_table VALUES (1)")
        conn.execute(
            "INSERT OR REPLACE INTO state_meta (key, value) VALUES ('t-house', ?)", (str(len(calls)),)
        )

    conn = open_connection(home / "state.db")
    migrate.upgrade(conn, home / "state.db")
    w = writer.Writer(
        conn, batch_max=8, lock_budget_s=1, wal_path=home / "state.db-wal", after_batch=housekeeping
    )
    w.start()
    try:
        for i in range(3):
            w.write_sync(_put(f"t-{i}"))
    finally:
        w.stop()
        conn.close()
    assert len(calls) == 3
    assert _keys(home / "state.db") == {"t-0", "t-1", "t-2", "t-house"}
    check = sqlite3.connect(home / "state.db")
    try:
        assert check.execute("SELECT value FROM state_meta WHERE key = 't-house'").fetchone() == ("3",)
    finally:
        check.close()
