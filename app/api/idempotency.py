"""``Idempotency-Key`` on creating POSTs: the stored response is written in the same transaction as
the effect, so a retry after a crash either replays the committed answer or runs the effect afresh."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Header, Request
from starlette.responses import Response

from app.api.responses import encode_body
from app.errors import BadRequest, Conflict, Unprocessable
from app.storage.database import Database
from app.storage.protocols import StoredAnswer, Tx

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

    async def execute(self, db: Database, effect: Callable[[Tx], Any], render: Render) -> Response:
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
            raise Conflict(
                "A request with this Idempotency-Key is still being processed; retry when it has finished.",
                code="request_in_flight",
            )
        in_flight.add(slot)
        key = self.key

        def run(tx: Tx) -> _Outcome:
            stored = tx.idempotency.find(key, method, path)
            if stored is not None:
                if stored.body_sha256 != digest:
                    raise Unprocessable(
                        "This Idempotency-Key was already used with a different request body; "
                        "use a new key for a new request.",
                        code="idempotency_key_reused",
                    )
                return _Outcome(stored.status, stored.body, stored.headers, True)
            status, body, headers = render(effect(tx))
            payload = encode_body(body)
            tx.idempotency.store(key, method, path, StoredAnswer(digest, status, payload, headers))
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
        raise BadRequest(
            "Idempotency-Key must be 1-255 printable characters.", code="invalid_idempotency_key"
        )
    return Idempotency(request, idempotency_key)


IdempotencyDep = Annotated[Idempotency, Depends(_idempotency)]
