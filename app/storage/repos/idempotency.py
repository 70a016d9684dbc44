"""``hs_idempotency_keys``: the first answer to each ``(key, method, path)``, stored with its effect."""

from __future__ import annotations

import time

import orjson

from app.storage.dialect import dialect_of
from app.storage.repos.repository import Repository, bound
from app.storage.rows import StoredAnswer
from app.storage.sqlite.driver import sqlite3


def find(conn: sqlite3.Connection, key: str, method: str, path: str) -> StoredAnswer | None:
    """The answer stored for ``(key, method, path)``, if any."""
    d = dialect_of(conn)
    row = conn.execute(
        "SELECT body_sha256, status, response, headers FROM hs_idempotency_keys "
        f"WHERE key = {d.p} AND method = {d.p} AND path = {d.p}",
        (key, method, path),
    ).fetchone()
    if row is None:
        return None
    return StoredAnswer(str(row[0]), int(row[1]), bytes(row[2]), orjson.loads(row[3]))


def store(conn: sqlite3.Connection, key: str, method: str, path: str, answer: StoredAnswer) -> None:
    """Record the first answer to ``(key, method, path)`` in the caller's transaction."""
    d = dialect_of(conn)
    conn.execute(
        "INSERT INTO hs_idempotency_keys "
        "(key, method, path, body_sha256, status, response, headers, created_at) "
        f"VALUES ({d.p}, {d.p}, {d.p}, {d.p}, {d.p}, {d.p}, {d.p}, {d.p})",
        (
            key,
            method,
            path,
            answer.body_sha256,
            answer.status,
            answer.body,
            orjson.dumps(answer.headers).decode(),
            time.time(),
        ),
    )


class Idempotency(Repository):
    """The stored answers of creating POSTs sent with an ``Idempotency-Key``."""

    __slots__ = ()
    find = bound(find)
    store = bound(store)
