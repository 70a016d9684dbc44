"""``hs_idempotency_keys``: the stored answer of each creating POST sent with an ``Idempotency-Key``."""

from __future__ import annotations

import sqlite3

from app.domain.records import StoredAnswer


def stored_response(conn: sqlite3.Connection, key: str, method: str, path: str) -> StoredAnswer | None:
    """The answer recorded for ``(key, method, path)``, or ``None`` when the key is new."""
    row = conn.execute(
        "SELECT body_sha256, status, response, headers FROM hs_idempotency_keys "
        "WHERE key = ? AND method = ? AND path = ?",
        (key, method, path),
    ).fetchone()
    if row is None:
        return None
    return StoredAnswer(row["body_sha256"], row["status"], bytes(row["response"]), row["headers"])


def record_response(
    conn: sqlite3.Connection,
    key: str,
    method: str,
    path: str,
    answer: StoredAnswer,
    now: float,
) -> None:
    """Record the answer to replay for ``(key, method, path)``, in the effect's transaction."""
    conn.execute(
        "INSERT INTO hs_idempotency_keys "
        "(key, method, path, body_sha256, status, response, headers, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (key, method, path, *answer, now),
    )
