"""Pure-ASGI middleware (cheap on the append hot path): request ids, host check, security headers, limits.

Every refusal made here (wrong Host, body too large, too many body bytes in flight, a stalled body) and
every unexpected exception below it leaves as problem+json carrying the request id and the security
headers, with ``Connection: close`` so a keep-alive client never has its next request reset.
"""

from __future__ import annotations

import asyncio
import ipaddress
import itertools
import secrets
import time
from collections.abc import Iterable
from typing import Any

import orjson
from starlette.requests import ClientDisconnect, Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.problem import PROBLEM_MEDIA_TYPE, error_body, unexpected_error_response
from app.errors import BodyStalled, HermesError, HostNotAllowed, PayloadTooLarge, TooManyBodies

SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"cache-control", b"no-store"),
]
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
# Seconds a client is told to wait after a 503 server_busy.
BUSY_RETRY_AFTER_S = 1


# Request ids: a random per-process prefix plus a counter. Unique and unguessable across restarts, and far
# cheaper than drawing from the OS random source on every request of the append hot path.
_ID_PREFIX = secrets.token_hex(4)
_ID_COUNTER = itertools.count(1)


def new_request_id() -> str:
    """A fresh request id (the ``X-Request-ID`` of a request that brought none)."""
    return f"{_ID_PREFIX}-{next(_ID_COUNTER):x}"


def raw_problem(error: HermesError, request_id: str) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """Headers and body of a problem+json answer made below the routes; it always closes the connection."""
    body = orjson.dumps(error_body(error, request_id))
    headers: list[tuple[bytes, bytes]] = [
        (b"content-type", PROBLEM_MEDIA_TYPE.encode()),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
        (b"x-request-id", request_id.encode()),
        *SECURITY_HEADERS,
    ]
    headers.extend((name.lower().encode(), value.encode()) for name, value in (error.headers() or {}).items())
    return headers, body


class HostPolicy:
    """Which ``Host`` names a request may carry: the DNS-rebinding guard.

    A rebinding attack needs a DNS name that the attacker controls to resolve to us, and a browser then
    sends that name as ``Host``. So allowed are: loopback names, the bound host, the configured names, any
    IP literal (no DNS involved), and the name the ASGI server reports as its own address. A request
    without ``Host`` (HTTP/1.0 tools) is no browser and is allowed; ``*`` among the names allows all.
    """

    _CACHE_MAX = 256

    def __init__(self, bind_host: str, extra: Iterable[str] = ()) -> None:
        names = {*LOOPBACK_NAMES, bind_host, *extra}
        self.any_host = "*" in names
        self.names = frozenset(_host_name(n.encode("latin-1")) for n in names if n != "*")
        self._allowed: set[bytes] = set()

    def allows(self, host: bytes | None, scope: Scope) -> bool:
        """True when a request with this ``Host`` header value may be served."""
        if host is None or self.any_host or host in self._allowed:
            return True
        name = _host_name(host)
        server: Any = scope.get("server")
        ok = name in self.names or _is_ip_literal(name) or (server is not None and name == server[0])
        if ok and len(self._allowed) < self._CACHE_MAX:
            self._allowed.add(host)
        return ok


def _host_name(host: bytes) -> str:
    """The host part of a ``Host`` value, lower-cased, without port or IPv6 brackets."""
    text = host.decode("latin-1").strip().lower()
    if text.startswith("["):
        return text[1 : text.find("]")] if "]" in text else text
    name, sep, port = text.rpartition(":")
    return name if sep and port.isdigit() else text


def _is_ip_literal(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class _Refused(Exception):
    """Raised from the wrapped ``receive`` when a body must be refused; the middleware answers instead."""

    def __init__(self, error: HermesError) -> None:
        super().__init__(error.detail)
        self.error = error


class _BodyStalled(Exception):
    """No body bytes arrived within the body timeout."""


class EdgeMiddleware:
    """Request ids, host check, security headers, body limits and the last-resort 500 for everything below.

    Body limits: one request's body (413), all bodies in flight together (503 ``server_busy``, checked
    against ``Content-Length`` before anything is read and against the bytes received while a chunked
    body streams) and the longest silence while a body arrives (408 ``request_timeout``).
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        max_body_bytes: int,
        inflight_cap: int,
        body_timeout_s: float,
        hosts: HostPolicy,
    ) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.inflight_cap = inflight_cap
        self.body_timeout_s = body_timeout_s
        self.hosts = hosts
        # Bytes reserved by requests being served; one event loop, so no lock.
        self.inflight = 0
        # Tasks waiting for body bytes, since when. One sweeper per loop cancels those waiting too long:
        # a timer per receive (asyncio.timeout) would cost more than the rest of this middleware.
        self._waiting: dict[asyncio.Task[Any], float] = {}
        self._stalled: set[asyncio.Task[Any]] = set()
        self._sweeper: asyncio.Task[None] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = content_length = transfer_encoding = incoming_id = None
        for name, value in scope["headers"]:
            if name == b"host":
                host = value
            elif name == b"content-length":
                content_length = value
            elif name == b"transfer-encoding":
                transfer_encoding = value
            elif name == b"x-request-id":
                incoming_id = value
        request_id = _safe_request_id(incoming_id) or new_request_id()
        scope.setdefault("state", {})["request_id"] = request_id
        rid = request_id.encode()

        if not self.hosts.allows(host, scope):
            shown = host.decode("latin-1")[:100] if host is not None else ""
            await _answer(
                send,
                request_id,
                _Refused(HostNotAllowed(shown)),
            )
            return
        declared = _as_int(content_length)
        if declared is not None and declared > self.max_body_bytes:
            await _answer(send, request_id, self._too_large())
            return
        reserved = 0
        if declared:
            if self.inflight + declared > self.inflight_cap:
                await _answer(send, request_id, self._busy())
                return
            reserved = declared
            self.inflight += declared
        body_pending = bool(declared) or transfer_encoding is not None

        received = 0
        response_started = False
        refusal: _Refused | None = None

        async def limited_receive() -> Message:
            nonlocal received, reserved, refusal, body_pending
            if not body_pending:
                # The body is complete (or there is none): later receives wait for a disconnect, which
                # may take as long as a response streams.
                return await receive()
            try:
                message = await self._receive_body(receive)
            except _BodyStalled:
                refusal = self._timed_out()
                raise refusal from None
            if message["type"] != "http.request":
                return message
            body_pending = message.get("more_body", False)
            received += len(message.get("body", b""))
            if received > reserved:
                if received > self.max_body_bytes:
                    refusal = self._too_large()
                    raise refusal
                if self.inflight + received - reserved > self.inflight_cap:
                    refusal = self._busy()
                    raise refusal
                self.inflight += received - reserved
                reserved = received
            return message

        async def send_with_headers(message: Message) -> None:
            nonlocal response_started
            if refusal is not None:
                # FastAPI turns any exception while reading the body into its own 400; answer with the
                # refusal instead and drop whatever the app rendered.
                if not response_started:
                    response_started = True
                    await _answer(send, request_id, refusal)
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
        except _Refused as exc:
            if not response_started:
                response_started = True
                await _answer(send, request_id, exc)
        except ClientDisconnect:
            pass  # nobody is left to answer
        except Exception as exc:
            if response_started:
                raise  # mid-response: the server aborts the connection, which is all a client can be told
            response = unexpected_error_response(exc, Request(scope))
            await response(scope, limited_receive, send_with_headers)
        finally:
            self.inflight -= reserved

    async def _receive_body(self, receive: Receive) -> Message:
        """``receive()``, raising :class:`_BodyStalled` when it waits longer than the body timeout."""
        task = asyncio.current_task()
        assert task is not None  # receive is only ever awaited from a task
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep(), name="hermes-body-timeout")
        self._waiting[task] = time.monotonic()
        try:
            return await receive()
        except asyncio.CancelledError:
            if task not in self._stalled:
                raise
            # The sweeper's cancellation, which surfaces here because it only cancels tasks waiting here.
            self._stalled.discard(task)
            task.uncancel()
            raise _BodyStalled from None
        finally:
            del self._waiting[task]

    async def _sweep(self) -> None:
        period = min(1.0, self.body_timeout_s / 4)
        while True:
            await asyncio.sleep(period)
            cutoff = time.monotonic() - self.body_timeout_s
            for task, since in list(self._waiting.items()):
                if since <= cutoff and task not in self._stalled:
                    self._stalled.add(task)
                    task.cancel()

    def _too_large(self) -> _Refused:
        return _Refused(PayloadTooLarge(self.max_body_bytes))

    def _busy(self) -> _Refused:
        return _Refused(TooManyBodies(self.inflight_cap, BUSY_RETRY_AFTER_S))

    def _timed_out(self) -> _Refused:
        return _Refused(BodyStalled(self.body_timeout_s))


async def _answer(send: Send, request_id: str, refusal: _Refused) -> None:
    headers, body = raw_problem(refusal.error, request_id)
    await send({"type": "http.response.start", "status": refusal.error.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _as_int(raw: bytes | None) -> int | None:
    if raw is None:
        return None
    try:
        return int(raw)
    except ValueError:
        return None


def _safe_request_id(raw: bytes | None) -> str | None:
    if raw is None:
        return None
    text = raw.decode("latin-1")
    # Only echo ids that are safe to put in logs and headers.
    if 0 < len(text) <= 64 and all(c.isalnum() or c in "-_." for c in text):
        return text
    return None
