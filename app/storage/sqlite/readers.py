"""Read connections: one per worker thread, ``query_only``, each read in its own short transaction; a job
receives the thread's :class:`SqliteTx`."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from app.storage.sqlite.connection import open_connection, translated
from app.storage.sqlite.driver import sqlite3
from app.storage.sqlite.read_only import open_read_only, shadow_missing_own_tables
from app.storage.sqlite.shape_watch import ShapeWatch
from app.storage.sqlite.tx import SqliteTx

T = TypeVar("T")


class ReaderPool:
    """Runs read functions on worker threads so SQLite never blocks the event loop."""

    def __init__(
        self,
        path: Path,
        *,
        threads: int,
        busy_timeout_ms: int,
        watch: ShapeWatch,
        file_read_only: bool = False,
    ) -> None:
        self._path = path
        self._watch = watch
        self._file_read_only = file_read_only
        self._busy_timeout_ms = busy_timeout_ms
        self._local = threading.local()
        self._lock = threading.Lock()
        self._all: list[sqlite3.Connection] = []
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="hermes-read")

    def _tx(self) -> SqliteTx:
        tx: SqliteTx | None = getattr(self._local, "tx", None)
        if tx is None:
            if self._file_read_only:
                conn = open_read_only(self._path, busy_timeout_ms=self._busy_timeout_ms)
                shadow_missing_own_tables(conn)
            else:
                conn = open_connection(self._path, busy_timeout_ms=self._busy_timeout_ms, query_only=True)
            conn.watch = self._watch  # type: ignore[attr-defined]
            tx = self._local.tx = SqliteTx(conn)
            with self._lock:
                self._all.append(conn)
        return tx

    def read_sync(self, fn: Callable[[SqliteTx], T]) -> T:
        """Run ``fn`` in one read transaction on the calling thread's connection (a consistent snapshot)."""
        tx = self._tx()
        conn = tx.conn
        conn.execute("BEGIN")
        try:
            with translated():
                return fn(tx)
        finally:
            conn.execute("COMMIT")

    async def read(self, fn: Callable[[SqliteTx], T]) -> T:
        """Run ``fn`` on a reader thread and await the result."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, self.read_sync, fn)

    def close(self) -> None:
        """Stop the threads and close every connection they opened."""
        self._pool.shutdown(wait=True)
        with self._lock:
            for conn in self._all:
                conn.close()
            self._all.clear()
