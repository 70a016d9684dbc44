"""``Idempotency-Key`` on creating POSTs: the stored response is written in the same transaction as
the effect, so a retry after a crash either replays the committed answer or runs the effect afresh."""

from __future__ import annotations

import hashlib
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

import orjson
from fastapi import Depends, Header, Request
from starlette.responses import Response

from app.api.responses import encode_body
from app.errors import IdempotencyKeyReused, InvalidIdempotencyKey, RequestInFlight
from app.storage.database import Database

Render = Callable[[Any], tuple[int, Any, dict[str, str]]]


@dataclass(frozen=True)
class _Outcome:
    status: int
    body: bytes
    headers: dict[str, str]
    replayed: bool


class Idempotency:
    """Runs a write effect at most once per ``(Idempotency-Key, method, path)``."""

    def __init__(self, request: Request, key: str | None) -> None:
        self.request = request
        self.key = key

    async def execute(
        self, db: Database, effect: Callable[[sqlite3.Connection], Any], render: Render
    ) -> Response:
        """Run ``effect`` on the writer and answer with ``render(result) -> (status, body, headers)``.

        With a key: a retry with the same body replays the first response, the same key with another
        body is 422 ``idempotency_key_reused``, and a retry while the first is running is 409
        ``request_in_flight``.
        """
        if self.key is None:
            result = await db.write(effect)
            status, body, headers = render(result)
            return _response(_Outcome(status, encode_body(body), headers, False))

        method, path = self.request.method, self.request.url.path
        digest = hashlib.sha256(await self.request.body()).hexdigest()
        slot = (self.key, method, path)
        in_flight: set[tuple[str, str, str]] = self.request.app.state.idempotency_in_flight
        if slot in in_flight:
            raise RequestInFlight()
        in_flight.add(slot)
        key = self.key

        def run(conn: sqlite3.Connection) -> _Outcome:
            row = conn.execute(
                "SELECT body_sha256, status, response, headers FROM hs_idempotency_keys "
                "WHERE key = ? AND method = ? AND path = ?",
                slot,
            ).fetchone()
            if row is not None:
                if row["body_sha256"] != digest:
                    raise IdempotencyKeyReused()
                return _Outcome(row["status"], bytes(row["response"]), orjson.loads(row["headers"]), True)
            status, body, headers = render(effect(conn))
            payload = encode_body(body)
            conn.execute(
                "INSERT INTO hs_idempotency_keys "
                "(key, method, path, body_sha256, status, response, headers, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (key, method, path, digest, status, payload, orjson.dumps(headers).decode(), time.time()),
            )
            return _Outcome(status, payload, headers, False)

        try:
            return _response(await db.write(run))
        finally:
            in_flight.discard(slot)


def _response(outcome: _Outcome) -> Response:
    headers = dict(outcome.headers)
    if outcome.replayed:
        headers["Idempotent-Replayed"] = "true"
    return Response(outcome.body, status_code=outcome.status, media_type="application/json", headers=headers)


async def _idempotency(
    request: Request,
    idempotency_key: Annotated[
        str | None,
        Header(
            alias="Idempotency-Key",
            description="Retry-safe key: the same key and body replay the first response",
        ),
    ] = None,
) -> Idempotency:
    valid = idempotency_key is None or (1 <= len(idempotency_key) <= 255 and idempotency_key.isprintable())
    if not valid:
        raise InvalidIdempotencyKey()
    return Idempotency(request, idempotency_key)


IdempotencyDep = Annotated[Idempotency, Depends(_idempotency)]
