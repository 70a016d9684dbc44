"""The append hot path, served without FastAPI's per-request machinery.

``POST /sessions/{id}/messages`` is what an agent calls for every turn. Under load FastAPI spends more CPU
routing over every route, solving dependencies and re-parsing the body than SQLite spends storing the
message (py-spy on ``bench/append.py``). This pure-ASGI layer serves the plain case itself: an authenticated
JSON body that validates, no ``Idempotency-Key``, at most ``reopen`` in the query. It uses the documented
route's own body model, writer job and rendering, so both paths answer alike. Every other request (anything
to be refused, idempotent retries, other media types, other query parameters) goes to that route unchanged,
body included, so error answers have one source.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

import orjson
from pydantic import TypeAdapter, ValidationError
from starlette.requests import Request
from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.problem import render_error
from app.api.routes.messages import append_effect, render_appended
from app.api.schemas.messages import AppendBody, MessageBatch, MessageCreate
from app.errors import HermesError

# The route's path pattern: one path segment as the session id, as Starlette's ``{session_id}`` matches.
_PATH = re.compile(r"/sessions/([^/]+)/messages")
_REOPEN = {b"": False, b"reopen=false": False, b"reopen=true": True}
_BODY: TypeAdapter[MessageCreate | MessageBatch] = TypeAdapter(AppendBody)
_JSON_HEADERS = [(b"content-type", b"application/json")]


class FastAppend:
    """ASGI middleware that answers plain appends and passes everything else through."""

    def __init__(self, app: ASGIApp, *, route: BaseRoute) -> None:
        self.app = app
        # Set on the scope so the metrics middleware labels these requests with the route's template.
        self.route = route

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope.get("root_path"):
            await self.app(scope, receive, send)
            return
        match = _PATH.fullmatch(scope["path"])
        reopen = _REOPEN.get(scope["query_string"])
        app: Any = scope["app"]
        if match is None or reopen is None or not _plain_headers(scope, app.state.api_token):
            await self.app(scope, receive, send)
            return
        body = await _read_body(receive)
        if body is None:  # the client went away before sending its body
            return
        parsed = _parse(body)
        if parsed is None:
            await self.app(scope, _replay(body, receive), send)
            return
        session_id = match.group(1)
        scope["route"] = self.route
        try:
            items = await app.state.db.write(append_effect(session_id, parsed, reopen=reopen))
        except HermesError as exc:
            await render_error(exc, Request(scope))(scope, receive, send)
            return
        status, payload, _ = render_appended(items)
        data = orjson.dumps(payload)
        headers = [*_JSON_HEADERS, (b"content-length", str(len(data)).encode())]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": data})
        app.state.auto_titler.notify(session_id)


def _plain_headers(scope: Scope, token: str | None) -> bool:
    """A JSON body, the right bearer token (when auth is on), and no Idempotency-Key."""
    json_body = authorized = False
    for name, value in scope["headers"]:
        if name == b"content-type":
            json_body = value.split(b";", 1)[0].strip().lower() == b"application/json"
        elif name == b"authorization" and token is not None:
            scheme, _, credentials = value.partition(b" ")
            authorized = scheme.lower() == b"bearer" and secrets.compare_digest(credentials, token.encode())
        elif name == b"idempotency-key":
            return False
    return json_body and (authorized or token is None)


async def _read_body(receive: Receive) -> bytes | None:
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


def _parse(body: bytes) -> MessageCreate | MessageBatch | None:
    try:
        return _BODY.validate_python(orjson.loads(body))
    except (orjson.JSONDecodeError, ValidationError):
        return None


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands the already-read body to the next app, then defers to the real one."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay
