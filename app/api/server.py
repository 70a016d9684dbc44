"""How ``hermes serve`` runs uvicorn: one HTTP protocol (httptools) with read limits, and the access log.

uvicorn's own protocol answers malformed requests with a plain-text 400, has no limit on the size of a
request's headers (httptools buffers a header value of any length) and no deadline for them, so one client
can hold thousands of connections open by sending a byte now and then. The subclass here answers every
request it refuses itself as problem+json, the shape of every other error:

- request line longer than ``max_header_bytes`` → 414 ``uri_too_long``;
- request line and headers longer than that → 431 ``request_header_too_large``;
- headers not complete within ``header_timeout_s`` of connecting (or of a kept-alive request's first byte)
  → 408 ``request_timeout`` (a connection that sent nothing at all is just closed);
- a bad or negative ``Content-Length`` → 400 ``invalid_content_length``; ``Content-Length`` together with
  ``Transfer-Encoding`` → 400 ``ambiguous_body_length``; a bad ``Transfer-Encoding`` → 400
  ``invalid_transfer_encoding``; anything else the parser refuses → 400 ``malformed_request``;
- more than ``max_connections`` open connections → 503 ``server_busy`` to the newcomer.

Connections that have not yet shown the API token (every new one, one that never finishes its headers, one
whose requests carry no token) share at most :data:`UNPROVEN_SHARE` of ``max_connections``; a newcomer past
that share, or past the cap while such connections are open, takes the place of the oldest of them. So
half-open sockets, however many, never keep an authenticated client or ``/healthz`` from being served: a
connection is proven by the first request whose headers carry the token.

Each of these is counted and logged like a routed request (route ``unmatched``). Body limits and the body
read timeout live in the ASGI edge middleware, which sees the request id and the response.
"""

from __future__ import annotations

import copy
import socket
from collections import OrderedDict
from enum import Enum
from typing import Any, ClassVar, NamedTuple

import httptools
import uvicorn
from fastapi import FastAPI
from uvicorn.config import LOGGING_CONFIG
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

from app.api.auth import token_matches
from app.api.instrumentation import ACCESS_LOGGER, UNMATCHED_ROUTE, HttpMetrics
from app.api.middleware import BUSY_RETRY_AFTER_S, new_request_id, raw_problem
from app.errors import (
    AmbiguousBodyLength,
    HeadersStalled,
    HermesError,
    InvalidContentLength,
    InvalidTransferEncoding,
    MalformedRequest,
    RequestHeaderTooLarge,
    TooManyConnections,
    UriTooLong,
)
from app.settings import Settings

# Seconds the server waits for in-flight requests on shutdown.
GRACEFUL_SHUTDOWN_S = 10
UNPROVEN_SHARE = 0.5
"""The part of ``max_connections`` that connections not yet proven by the API token may hold."""


class ReadLimits(NamedTuple):
    """The per-connection limits the protocol enforces before a request reaches the app."""

    header_timeout_s: float
    max_header_bytes: int
    max_connections: int
    token: str | None
    """The API token that proves a connection (``None``: auth disabled, complete headers prove it)."""

    @property
    def max_unproven(self) -> int:
        """How many unproven connections may be open at once."""
        return max(1, int(self.max_connections * UNPROVEN_SHARE))


class _Phase(Enum):
    HEAD = 1  # waiting for (the rest of) a request's line and headers
    BODY = 2  # headers complete, body still arriving
    DONE = 3  # request complete: the app is answering, or the connection idles between requests


class _HeadTooLarge(Exception):
    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class HermesHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with header limits, a header deadline and problem+json refusals.

    Bind the limits with :func:`protocol_class`; uvicorn builds one instance per connection.
    """

    limits: ClassVar[ReadLimits]
    metrics: ClassVar[HttpMetrics | None] = None
    unproven: ClassVar[OrderedDict[HermesHttpProtocol, None]]
    """The server's open connections not yet proven by the token, oldest first."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._phase = _Phase.HEAD
        self._head_bytes = 0
        self._head_since = 0.0
        self._head_timer: Any = None
        self._header_line_bytes = 0
        self._request_begun = False

    def connection_made(self, transport: Any) -> None:
        """Start the first request's header deadline; make room among the unproven connections, or refuse
        the connection when the proven ones alone fill the cap."""
        super().connection_made(transport)
        self._start_head()
        limits = self.limits
        if self.unproven and len(self.unproven) >= limits.max_unproven:
            self.unproven.popitem(last=False)[0]._shed()
        if len(self.connections) > limits.max_connections:
            # Shed connections stay in the set until their close completes: count the open ones.
            over = sum(not c.transport.is_closing() for c in self.connections) - limits.max_connections
            while over > 0 and self.unproven:
                self.unproven.popitem(last=False)[0]._shed()
                over -= 1
            if over > 0:
                self._refuse(TooManyConnections(limits.max_connections, BUSY_RETRY_AFTER_S))
                return
        self.unproven[self] = None

    def connection_lost(self, exc: Exception | None) -> None:
        """Drop the header deadline and the connection's place among the unproven."""
        self._cancel_head_timer()
        self.unproven.pop(self, None)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        """Feed the parser, refusing malformed and oversize requests as problem+json."""
        self._unset_keepalive_if_required()
        if self._phase is _Phase.HEAD:
            self._head_bytes += len(data)
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()
            return
        except httptools.HttpParserError as exc:
            self._refuse_unparsable(exc)
            return
        if self._phase is _Phase.HEAD and self._head_bytes > self.limits.max_header_bytes:
            self._refuse(RequestHeaderTooLarge(self.limits.max_header_bytes))

    # -- parser callbacks --------------------------------------------------------------------------

    def on_message_begin(self) -> None:
        """A kept-alive connection's next request starts its own header deadline."""
        super().on_message_begin()
        if self._phase is _Phase.DONE:
            self._start_head()
        self._request_begun = True

    def on_url(self, url: bytes) -> None:
        """Collect the request target, refusing it once it outgrows the header limit."""
        super().on_url(url)
        if len(self.url) > self.limits.max_header_bytes:
            raise _HeadTooLarge(414)

    def on_header(self, name: bytes, value: bytes) -> None:
        """Count each complete header line (httptools reports none before it ends)."""
        self._header_line_bytes += len(name) + len(value) + 4
        if len(self.url) + self._header_line_bytes > self.limits.max_header_bytes:
            raise _HeadTooLarge(431)
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        """The head arrived in time: stop its deadline, count the connection proven if the request carries
        the token, then hand the request to uvicorn."""
        self._phase = _Phase.BODY
        self._head_bytes = 0
        self._cancel_head_timer()
        if self in self.unproven and self._proves():
            del self.unproven[self]
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        """The body is complete."""
        self._phase = _Phase.DONE
        super().on_message_complete()

    # -- internals ---------------------------------------------------------------------------------

    def _proves(self) -> bool:
        token = self.limits.token
        if token is None:
            return True
        # The agent dashboard's clients send the token in their own header instead (app/api/dashboard).
        for name, value in self.headers:
            if name == b"authorization":
                scheme, _, presented = value.partition(b" ")
                if scheme.lower() == b"bearer" and token_matches(presented.strip(), token):
                    return True
            elif name == b"x-hermes-session-token" and token_matches(value.strip(), token):
                return True
        return False

    def _shed(self) -> None:
        """Give this unproven connection's place to a newcomer: a request whose headers are arriving is
        answered 503, any other connection is just closed."""
        if self._phase is _Phase.HEAD and self._request_begun:
            self._refuse(TooManyConnections(self.limits.max_connections, BUSY_RETRY_AFTER_S))
        else:
            self._cancel_head_timer()
            self.transport.close()

    def _start_head(self) -> None:
        self._phase = _Phase.HEAD
        self._head_bytes = 0
        self._header_line_bytes = 0
        self._request_begun = False
        self._head_since = self.loop.time()
        self._cancel_head_timer()
        self._head_timer = self.loop.call_later(self.limits.header_timeout_s, self._head_timed_out)

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self._phase is not _Phase.HEAD or self.transport.is_closing():
            return
        if not self._request_begun:
            self.transport.close()  # nothing was asked, so there is nothing to answer
            return
        self._refuse(HeadersStalled(self.limits.header_timeout_s))

    def _refuse_unparsable(self, exc: httptools.HttpParserError) -> None:
        cause = exc.__context__
        if isinstance(cause, _HeadTooLarge):
            limit = self.limits.max_header_bytes
            self._refuse(UriTooLong(limit) if cause.status == 414 else RequestHeaderTooLarge(limit))
            return
        reason = str(exc) or "malformed request"
        refusal: type[MalformedRequest] = MalformedRequest
        if "Content-Length" in reason and "Transfer-Encoding" in reason:
            refusal = AmbiguousBodyLength
        elif "Content-Length" in reason:
            refusal = InvalidContentLength
        elif "Transfer-Encoding" in reason:
            refusal = InvalidTransferEncoding
        self._refuse(refusal(reason))

    def _refuse(self, error: HermesError) -> None:
        """Answer a request the app never sees, then close the connection."""
        self._cancel_head_timer()
        if self.transport.is_closing():
            return
        request_id = new_request_id()
        cycle = self.cycle
        in_app = cycle is not None and not cycle.response_complete
        if cycle is not None and in_app:
            if cycle.response_started or self._phase is _Phase.HEAD:
                # The answer to this request, or to an earlier pipelined one, is under way; a second
                # status line cannot follow it, so the connection just ends.
                self.transport.close()
                return
            # The app is reading this request's body: it learns that the client is gone (its answer is
            # dropped) and this one is sent in its place, under the same request id.
            cycle.disconnected = True
            cycle.message_event.set()
            request_id = cycle.scope["state"].get("request_id") or request_id
        headers, body = raw_problem(error, request_id)
        content = [STATUS_LINE[error.status]]
        for name, value in [*self.server_state.default_headers, *headers]:
            content.extend([name, b": ", value, b"\r\n"])
        content.extend([b"\r\n", body])
        self.transport.write(b"".join(content))
        self.transport.close()
        if self.metrics is not None and not in_app:  # the app records the requests it saw itself
            seconds = self.loop.time() - self._head_since
            self.metrics.record("-", UNMATCHED_ROUTE, error.status, seconds, len(body), request_id)


def protocol_class(limits: ReadLimits, metrics: HttpMetrics | None) -> type[HermesHttpProtocol]:
    """A protocol class bound to these limits (uvicorn instantiates the class it is given)."""
    bound: dict[str, Any] = {"limits": limits, "metrics": metrics, "unproven": OrderedDict()}
    return type("BoundHermesHttpProtocol", (HermesHttpProtocol,), bound)


def log_config(*, access_log: bool) -> dict[str, Any]:
    """uvicorn's logging set-up plus ``hermes.access`` (one JSON line per request, on stdout) and ``app``."""
    config = copy.deepcopy(LOGGING_CONFIG)
    config["formatters"]["line"] = {"format": "%(message)s"}
    config["handlers"]["hermes_access"] = {
        "formatter": "line",
        "class": "logging.StreamHandler",
        "stream": "ext://sys.stdout",
    }
    config["loggers"][ACCESS_LOGGER] = {
        "handlers": ["hermes_access"],
        "level": "INFO" if access_log else "WARNING",
        "propagate": False,
    }
    config["loggers"]["app"] = {"handlers": ["default"], "level": "WARNING", "propagate": False}
    return config


def listening_socket(host: str, port: int) -> socket.socket:
    """The server's socket, bound now (``OSError`` when it cannot be), for uvicorn to listen on: a start
    that cannot have its port fails before it creates anything."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        # As uvicorn binds: a restart right after a stop does not wait out the old connections' TIME_WAIT.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def server_config(app: FastAPI, settings: Settings, *, configure_logging: bool = True) -> uvicorn.Config:
    """The uvicorn configuration ``hermes serve`` runs ``app`` with (tests run the same one in-process)."""
    limits = ReadLimits(
        header_timeout_s=settings.header_timeout_s,
        max_header_bytes=settings.max_header_bytes,
        max_connections=settings.max_connections,
        token=getattr(app.state, "api_token", None),
    )
    metrics: HttpMetrics | None = getattr(app.state, "http_metrics", None)
    return uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        http=protocol_class(limits, metrics),
        # No WebSocket routes exist; an upgrade request is served as plain HTTP.
        ws="none",
        log_config=log_config(access_log=settings.access_log) if configure_logging else None,
        log_level="info",
        # Replaced by the hermes.access line, which carries the route template and the request id.
        access_log=False,
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_S,
    )
