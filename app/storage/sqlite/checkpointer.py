"""WAL checkpoints on their own thread and connection, so no commit waits for one.

With SQLite's automatic checkpoint, the commit that crosses 1000 WAL pages copies them into the database file
and syncs it before its callers are answered: every concurrent append stalled for 50-90 ms about once a
second under load (``bench/append.py``). The writer's connection therefore runs with
``wal_autocheckpoint=0`` and this thread checkpoints in PASSIVE mode, which never blocks the writer or
readers.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from app.storage.sqlite.connection import open_connection
from app.storage.sqlite.driver import sqlite3

log = logging.getLogger(__name__)


class Checkpointer:
    """Runs ``PRAGMA wal_checkpoint(PASSIVE)`` every ``interval_s`` seconds and on demand."""

    def __init__(self, path: Path, *, interval_s: float) -> None:
        self._path = path
        self._interval_s = interval_s
        self._wake = threading.Event()
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="hermes-checkpointer", daemon=True)
        self.checkpoints = 0

    def start(self) -> None:
        """Start the checkpoint thread."""
        self._thread.start()

    def nudge(self) -> None:
        """Ask for a checkpoint now (the writer calls this when the WAL has grown large)."""
        self._wake.set()

    def stop(self) -> None:
        """Stop the thread; the writer's final TRUNCATE checkpoint happens at close."""
        self._stopping = True
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join()

    def _run(self) -> None:
        # query_only: a checkpoint changes no data, and this connection must never write any.
        conn = open_connection(self._path, query_only=True)
        try:
            while True:
                self._wake.wait(self._interval_s)
                self._wake.clear()
                if self._stopping:
                    return
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                    self.checkpoints += 1
                except sqlite3.Error as exc:
                    log.debug("checkpoint skipped: %s", exc)
        finally:
            conn.close()
