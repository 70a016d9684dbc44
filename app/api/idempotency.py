"""``Idempotency-Key`` over HTTP: the header read and checked, the request's retry key, and a use case's
:class:`~app.services.idempotency.Reply` as a response. The rule itself is the use case's
(:mod:`app.services.idempotency`)."""

from __future__ import annotations

import hashlib
from typing import Annotated

from fastapi import Depends, Header, Request
from starlette.responses import Response

from app.errors import InvalidIdempotencyKey
from app.services.idempotency import Idempotency, InFlight, Reply, RetryKey


def valid_key(key: str) -> bool:
    """Whether an ``Idempotency-Key`` value is acceptable: 1-255 printable characters."""
    return 1 <= len(key) <= 255 and key.isprintable()


def idempotency_of(request: Request, key: str | None, body: bytes) -> Idempotency:
    """The idempotency of a request whose (valid) key header is ``key`` and whose body is ``body``."""
    in_flight: InFlight = request.app.state.idempotency_in_flight
    if key is None:
        return Idempotency(in_flight)
    digest = hashlib.sha256(body).hexdigest()
    return Idempotency(in_flight, RetryKey(key, request.method, request.url.path, digest))


def reply_response(reply: Reply) -> Response:
    """A use case's reply as the response (``Idempotent-Replayed: true`` on a replay)."""
    headers = dict(reply.headers)
    if reply.replayed:
        headers["Idempotent-Replayed"] = "true"
    return Response(reply.body, status_code=reply.status, media_type="application/json", headers=headers)


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
    if idempotency_key is not None and not valid_key(idempotency_key):
        raise InvalidIdempotencyKey()
    body = await request.body() if idempotency_key is not None else b""
    return idempotency_of(request, idempotency_key, body)


IdempotencyDep = Annotated[Idempotency, Depends(_idempotency)]
