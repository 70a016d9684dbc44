"""Consistent copies of state.db (``VACUUM INTO``), written all or nothing."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from app.storage.files import create_private_file, fsync_path
from app.storage.sqlite.driver import sqlite3


def write_snapshot(conn: sqlite3.Connection, target: Path) -> None:
    """Copy the database ``conn`` reads to ``target`` (0600), consistent and compact.

    The copy is built under a hidden temporary name and renamed once complete and flushed, so a failure
    (a full disk, a crash) never leaves a file that looks like a snapshot; on an error the partial file is
    removed and the error propagates. ``VACUUM INTO`` accepts an existing empty file and keeps its mode, so
    creating it 0600 first means the copy is never readable by others, and it reads one snapshot, so writers
    may keep going meanwhile (it needs only a read connection).
    """
    partial = target.with_name(f".{target.name}.partial")
    try:
        create_private_file(partial)
        conn.execute("VACUUM INTO ?", (str(partial),))
        fsync_path(partial)
        os.replace(partial, target)
        fsync_path(target.parent)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
        raise
