"""The two hottest requests, served without FastAPI's per-request machinery.

``POST /sessions/{id}/messages`` is what an agent calls for every turn, and ``GET /sessions?limit=N`` is what
the CLI and third-party tools call to pick a session. Under load FastAPI spends more CPU routing over every
route, solving dependencies and parsing parameters than SQLite spends on the work itself (py-spy on
``bench/append.py`` and ``bench/list_sessions.py``). This pure-ASGI layer serves their plain cases itself:

- append: an authenticated JSON body that the JSON policy and the body model accept, no ``Idempotency-Key``,
  at most ``reopen`` in the query;
- list: an authenticated ``GET /sessions`` with no parameter but ``limit``.

It uses the documented routes' own body model, service calls and rendering, so both paths answer alike.
Every other request (anything to be refused, idempotent retries, other media types, other parameters) goes
to the routes unchanged, body included, so error answers have one source.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import TypeAdapter, ValidationError
from starlette.requests import Request
from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.auth import authorization_accepted
from app.api.json_body import parse_json_body
from app.api.problem import render_error
from app.api.responses import encode_body
from app.api.routes.messages import append_effect, render_appended
from app.api.routes.sessions import default_list_query, list_response
from app.api.schemas.messages import AppendBody, MessageBatch, MessageCreate
from app.api.schemas.sessions import MAX_LIST_LIMIT
from app.errors import HermesError

# The route's path pattern: one path segment as the session id, as Starlette's ``{session_id}`` matches.
_APPEND_PATH = re.compile(r"/sessions/([^/]+)/messages")
_REOPEN = {b"": False, b"reopen=false": False, b"reopen=true": True}
_LIMIT = re.compile(rb"limit=([1-9][0-9]{0,2})")
_BODY: TypeAdapter[MessageCreate | MessageBatch] = TypeAdapter(AppendBody)
_JSON_HEADERS = [(b"content-type", b"application/json")]


class FastPaths:
    """ASGI middleware that answers plain appends and plain listings and passes everything else through."""

    def __init__(self, app: ASGIApp, *, append_route: BaseRoute, list_route: BaseRoute) -> None:
        self.app = app
        # Set on the scope so the metrics middleware labels these requests with the routes' templates.
        self.append_route = append_route
        self.list_route = list_route

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not scope.get("root_path"):
            method = scope["method"]
            if method == "POST" and await self._append(scope, receive, send):
                return
            if method == "GET" and scope["path"] == "/sessions" and await self._list(scope, receive, send):
                return
        await self.app(scope, receive, send)

    async def _append(self, scope: Scope, receive: Receive, send: Send) -> bool:
        match = _APPEND_PATH.fullmatch(scope["path"])
        reopen = _REOPEN.get(scope["query_string"])
        app: Any = scope["app"]
        if match is None or reopen is None or not _authorized(scope, app.state.api_token, body=True):
            return False
        body = await _read_body(receive)
        if body is None:  # the client went away before sending its body
            return True
        parsed = _parse(body)
        if parsed is None:
            await self.app(scope, _replay(body, receive), send)
            return True
        session_id = match.group(1)
        scope["route"] = self.append_route
        try:
            items = await app.state.db.write(append_effect(session_id, parsed, reopen=reopen))
        except HermesError as exc:
            await render_error(exc, Request(scope))(scope, receive, send)
            return True
        status, payload, _ = render_appended(items)
        data = encode_body(payload)  # after the commit: never raises
        headers = [*_JSON_HEADERS, (b"content-length", str(len(data)).encode())]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": data})
        app.state.auto_titler.notify(session_id)
        return True

    async def _list(self, scope: Scope, receive: Receive, send: Send) -> bool:
        app: Any = scope["app"]
        query = scope["query_string"]
        match = _LIMIT.fullmatch(query)
        limit = int(match.group(1)) if match else None
        if query and (limit is None or limit > MAX_LIST_LIMIT):
            return False
        if not _authorized(scope, app.state.api_token, body=False):
            return False
        scope["route"] = self.list_route
        request = Request(scope, receive)
        try:
            response = await list_response(request, app.state.db, default_list_query(limit))
        except HermesError as exc:
            response = render_error(exc, request)
        await response(scope, receive, send)
        return True


def _authorized(scope: Scope, token: str | None, *, body: bool) -> bool:
    """The right bearer token (when auth is on), no Idempotency-Key, and a JSON body when one is expected."""
    json_body = False
    authorization: bytes | None = None
    for name, value in scope["headers"]:
        if name == b"content-type":
            json_body = value.split(b";", 1)[0].strip().lower() == b"application/json"
        elif name == b"authorization":
            authorization = value
        elif name == b"idempotency-key":
            return False
    return (json_body or not body) and authorization_accepted(authorization, token)


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
    """The body when it is JSON that the JSON policy and the body model accept, else ``None`` (the route
    answers it, so refusals have one source)."""
    try:
        return _BODY.validate_python(parse_json_body(body))
    except (json.JSONDecodeError, HermesError, ValidationError):
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
