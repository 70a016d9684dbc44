"""``hs_idempotency_keys``: the first answer to each ``(key, method, path)``, stored with its effect."""

from __future__ import annotations

import time

import orjson

from app.storage.repos.repository import Repository
from app.storage.rows import StoredAnswer


class Idempotency(Repository):
    """The stored answers of creating POSTs sent with an ``Idempotency-Key``."""

    __slots__ = ()

    def find(self, key: str, method: str, path: str) -> StoredAnswer | None:
        """The answer stored for ``(key, method, path)``, if any."""
        row = self.conn.execute(
            "SELECT body_sha256, status, response, headers FROM hs_idempotency_keys "
            f"WHERE key = {self.d.p} AND method = {self.d.p} AND path = {self.d.p}",
            (key, method, path),
        ).fetchone()
        if row is None:
            return None
        return StoredAnswer(str(row[0]), int(row[1]), bytes(row[2]), orjson.loads(row[3]))

    def store(self, key: str, method: str, path: str, answer: StoredAnswer) -> None:
        """Record the first answer to ``(key, method, path)`` in the caller's transaction."""
        self.conn.execute(
            "INSERT INTO hs_idempotency_keys "
            "(key, method, path, body_sha256, status, response, headers, created_at) "
            f"VALUES ({self.d.p}, {self.d.p}, {self.d.p}, {self.d.p}, {self.d.p}, {self.d.p}, {self.d.p},"
            f" {self.d.p})",
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
