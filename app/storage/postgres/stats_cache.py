"""Planner statistics read from ``pg_stats``, kept per database and process for a minute.

Statistics change with ``ANALYZE`` (autovacuum's, after a tenth of a table changed): a minute is fresh
enough for choosing a way to read, and keeps the catalog read off nearly every request. What is read only
ever chooses a plan, never a result.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

import psycopg

Conn = psycopg.Connection[Any]
T = TypeVar("T")

_FRESH_SECONDS = 60.0
_cache: dict[tuple[str, int, str, str], tuple[float, Any]] = {}
_cache_lock = threading.Lock()


def per_database(conn: Conn, kind: str, read: Callable[[Conn], T]) -> T:
    """``read(conn)`` for ``conn``'s database, reused under ``kind`` while younger than a minute."""
    key = (conn.info.host, conn.info.port, conn.info.dbname, kind)
    now = time.monotonic()
    with _cache_lock:
        cached = _cache.get(key)
    if cached is not None and now - cached[0] < _FRESH_SECONDS:
        value: T = cached[1]
        return value
    value = read(conn)
    with _cache_lock:
        _cache[key] = (now, value)
    return value


def forget() -> None:
    """Drop every cached read, so that the next one sees an ``ANALYZE`` the caller has just run."""
    with _cache_lock:
        _cache.clear()
