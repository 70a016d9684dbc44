"""Pure-ASGI middleware (cheap on the hot append path): request ids, security headers, body limit."""

from __future__ import annotations

import itertools
import secrets
from typing import Any

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.problem import PROBLEM_MEDIA_TYPE

SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"cache-control", b"no-store"),
]


# Request ids: a random per-process prefix plus a counter. Unique and unguessable across restarts, and far
# cheaper than drawing from the OS random source on every request of the append hot path.
_ID_PREFIX = secrets.token_hex(4)
_ID_COUNTER = itertools.count(1)


def _new_request_id() -> str:
    return f"{_ID_PREFIX}-{next(_ID_COUNTER):x}"


class _TooLarge(Exception):
    pass


class EdgeMiddleware:
    """Assigns ``X-Request-ID``, adds security headers, and refuses bodies over the configured limit."""

    def __init__(self, app: ASGIApp, *, max_body_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = _incoming_request_id(scope) or _new_request_id()
        scope.setdefault("state", {})["request_id"] = request_id
        rid = request_id.encode()

        declared = _content_length(scope)
        if declared is not None and declared > self.max_body_bytes:
            await self._reject(send, rid)
            return

        received = 0
        response_started = False
        too_large = False

        async def limited_receive() -> Message:
            nonlocal received, too_large
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body_bytes:
                    too_large = True
                    raise _TooLarge
            return message

        async def send_with_headers(message: Message) -> None:
            nonlocal response_started
            if too_large:
                # FastAPI turns any exception while reading the body into its own 400; answer 413 instead
                # and drop whatever the app rendered.
                if not response_started:
                    response_started = True
                    await self._reject(send, rid)
                return
            if message["type"] == "http.response.start":
                response_started = True
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                headers.extend(h for h in SECURITY_HEADERS if h[0] not in present)
                headers.append((b"x-request-id", rid))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, limited_receive, send_with_headers)
        except _TooLarge:
            if not response_started:
                await self._reject(send, rid)

    async def _reject(self, send: Send, rid: bytes) -> None:
        body = orjson.dumps(
            {
                "type": "about:blank",
                "title": "Content Too Large",
                "status": 413,
                "detail": f"The request body exceeds the limit of {self.max_body_bytes} bytes.",
                "code": "payload_too_large",
                "request_id": rid.decode(),
            }
        )
        headers: list[tuple[bytes, bytes]] = [
            (b"content-type", PROBLEM_MEDIA_TYPE.encode()),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
            (b"x-request-id", rid),
            *SECURITY_HEADERS,
        ]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def _header(scope: Scope, name: bytes) -> bytes | None:
    headers: Any = scope.get("headers", [])
    for key, value in headers:
        if key == name:
            return bytes(value)
    return None


def _content_length(scope: Scope) -> int | None:
    raw = _header(scope, b"content-length")
    if raw is None:
        return None
    try:
        return int(raw)
    except ValueError:
        return None


def _incoming_request_id(scope: Scope) -> str | None:
    raw = _header(scope, b"x-request-id")
    if raw is None:
        return None
    text = raw.decode("latin-1")
    # Only echo ids that are safe to put in logs and headers.
    if 0 < len(text) <= 64 and all(c.isalnum() or c in "-_." for c in text):
        return text
    return None
