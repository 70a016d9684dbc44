"""The hottest requests, served without FastAPI's per-request machinery.

``POST /sessions/{id}/messages`` is what an agent calls for every turn, ``GET /sessions?limit=N`` is what
the CLI and third-party tools call to pick a session, and ``GET /api/sessions`` is what a page written for
the agent's dashboard polls. Under load FastAPI spends more CPU routing over every
route, solving dependencies and parsing parameters than SQLite spends on the work itself (py-spy on
``bench/append.py`` and ``bench/list_sessions.py``). This pure-ASGI layer serves them in three steps:

1. match the request with the documented route's own compiled route (``route.matches``), and read its path
   and query parameters and its body with the route's own fields (FastAPI's parsing and validation);
2. call the same use case as the route, with the same reply;
3. send it.

Anything the route would refuse or treat specially (a missing or wrong token, a body that is not JSON or
that the JSON policy or the body model refuse, an invalid parameter or ``Idempotency-Key``, a listing with
any parameter but ``limit``, a dashboard listing without a token) goes to the routes unchanged, body
included, so error answers have one source.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

from fastapi.dependencies.utils import request_params_to_args
from fastapi.routing import APIRoute
from starlette.datastructures import QueryParams
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api import replies
from app.api.auth import authorization_accepted
from app.api.dashboard.auth import presented_token, token_accepted
from app.api.dashboard.errors import DashboardError, detail_response, service_error_response
from app.api.dashboard.routes import list_sessions
from app.api.idempotency import idempotency_of, reply_response, valid_key
from app.api.json_body import is_json_media_type, parse_json_body
from app.api.problem import render_error
from app.api.schemas.messages import appended_messages
from app.api.session_listing import default_list_query, list_response
from app.errors import HermesError
from app.services import messages as messages_svc

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class _Memo(Generic[K, V]):
    """Results of a pure function by argument, at most ``size`` of them (all dropped when full: clients
    repeat a few arguments, and a stranger's stream of distinct ones costs one parse each, as without)."""

    __slots__ = ("_fn", "_results", "_size")

    def __init__(self, fn: Callable[[K], V], size: int) -> None:
        self._fn = fn
        self._size = size
        self._results: dict[K, V] = {}

    def __call__(self, arg: K) -> V:
        try:
            return self._results[arg]
        except KeyError:
            pass
        if len(self._results) >= self._size:
            self._results.clear()
        value = self._results[arg] = self._fn(arg)
        return value


class FastPaths:
    """ASGI middleware that answers plain appends and plain listings and passes everything else through."""

    def __init__(
        self, app: ASGIApp, *, append_route: APIRoute, list_route: APIRoute, dashboard_list_route: APIRoute
    ) -> None:
        self.app = app
        self.append_route = append_route
        self.list_route = list_route
        self.dashboard_list_route = dashboard_list_route
        # The dashboard polls a few listing queries: each distinct query string is parsed once.
        self._dashboard_query = _Memo(self._parse_dashboard_query, _MAX_MEMO)
        assert append_route.body_field is not None, "the append route takes a body"
        self._append_body = append_route.body_field
        # Most appends carry no query: the route's parse of an empty one, done once.
        self._append_plain = request_params_to_args(append_route.dependant.query_params, QueryParams(""))
        # The route's parse of the path parameters costs several times their match, and an agent appends
        # to the same session turn after turn: each distinct session id is parsed once.
        self._append_path = _Memo(self._parse_append_path, _MAX_MEMO)
        # Every listing parameter at its default: the listing this path serves, whatever its limit.
        defaults, _ = request_params_to_args(list_route.dependant.query_params, QueryParams(""))
        (self._list_defaults,) = defaults.values()  # the route's one query model
        # The route's parse of a listing query costs more than the listing itself (one model of the whole
        # filter set), and clients repeat the same few queries: each distinct query string is parsed once.
        self._plain_listing = _Memo(self._parse_plain_listing, _MAX_MEMO)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not scope.get("root_path"):
            method = scope["method"]
            if method == "POST" and await self._append(scope, receive, send):
                return
            if method == "GET" and (
                await self._list(scope, receive, send) or await self._dashboard_list(scope, receive, send)
            ):
                return
        await self.app(scope, receive, send)

    async def _append(self, scope: Scope, receive: Receive, send: Send) -> bool:
        route = self.append_route
        matched, child = route.matches(scope)
        if matched is not Match.FULL:
            return False
        path, path_errors = self._append_path(tuple(child["path_params"].items()))
        raw_query = scope["query_string"]
        query, query_errors = (
            request_params_to_args(route.dependant.query_params, QueryParams(raw_query))
            if raw_query
            else self._append_plain
        )
        headers = _Headers(scope)
        app: Any = scope["app"]
        key = headers.idempotency_key
        if (
            path_errors
            or query_errors
            or not is_json_media_type(headers.content_type)
            or not authorization_accepted(headers.authorization, app.state.api_token)
            or (key is not None and not valid_key(key))
        ):
            return False
        body = await _read_body(receive)
        if body is None:  # the client went away before sending its body
            return True
        parsed = self._parse(body)
        if parsed is None:
            await self.app(scope, _replay(body, receive), send)
            return True
        scope.update(child)
        request = Request(scope)
        try:
            reply = await messages_svc.append(
                app.state.db,
                idempotency_of(request, key, body),
                path["session_id"],
                appended_messages(parsed),
                reopen=query["reopen"],
                render=replies.appended,
            )
            response = reply_response(reply)
        except HermesError as exc:
            response = render_error(exc, request)
        await response(scope, receive, send)
        return True

    def _parse(self, body: bytes) -> Any:
        """The body as the route's body field validates it, or ``None`` when the JSON policy or the field
        refuse it (the route answers it, so refusals have one source)."""
        try:
            value = parse_json_body(body)
        except (json.JSONDecodeError, HermesError):
            return None
        parsed, errors = self._append_body.validate(value, {}, loc=("body",))
        return None if errors else parsed

    async def _list(self, scope: Scope, receive: Receive, send: Send) -> bool:
        route = self.list_route
        matched, child = route.matches(scope)
        if matched is not Match.FULL:
            return False
        params = self._plain_listing(scope["query_string"])
        app: Any = scope["app"]
        if params is None or not authorization_accepted(_Headers(scope).authorization, app.state.api_token):
            return False
        scope.update(child)
        request = Request(scope, receive)
        response: Response
        try:
            response = await list_response(request, app.state.db, default_list_query(params.limit))
        except HermesError as exc:
            response = render_error(exc, request)
        await response(scope, receive, send)
        return True

    async def _dashboard_list(self, scope: Scope, receive: Receive, send: Send) -> bool:
        matched, child = self.dashboard_list_route.matches(scope)
        if matched is not Match.FULL:
            return False
        params = self._dashboard_query(scope["query_string"])
        app: Any = scope["app"]
        headers = _Headers(scope)
        presented = presented_token(headers.session_token, headers.authorization_text)
        if params is None or not token_accepted(presented, app.state.api_token):
            return False
        scope.update(child)
        response: Response
        try:
            response = await list_sessions(app.state.db, **params)
        except DashboardError as exc:
            response = detail_response(exc.status, exc.detail)
        except HermesError as exc:
            response = (
                render_error(exc, Request(scope, receive))
                if exc.status >= 500
                else service_error_response(exc)
            )
        await response(scope, receive, send)
        return True

    def _parse_dashboard_query(self, raw: bytes) -> dict[str, Any] | None:
        """The dashboard listing route's parse of a query string, ``None`` when it refuses it."""
        values, errors = request_params_to_args(
            self.dashboard_list_route.dependant.query_params, QueryParams(raw)
        )
        return None if errors else values

    def _parse_append_path(
        self, path_params: tuple[tuple[str, Any], ...]
    ) -> tuple[dict[str, Any], list[Any]]:
        """The append route's parse of its path parameters (values and errors)."""
        return request_params_to_args(self.append_route.dependant.path_params, dict(path_params))

    def _parse_plain_listing(self, raw: bytes) -> Any:
        """The route's parse of a listing query that sets nothing but ``limit``, else ``None``."""
        raw_query = QueryParams(raw)
        if not all(name == "limit" for name in raw_query):
            return None
        query, errors = request_params_to_args(self.list_route.dependant.query_params, raw_query)
        parsed = None if errors else next(iter(query.values()))
        if parsed is not None and parsed == self._list_defaults.model_copy(update={"limit": parsed.limit}):
            return parsed
        return None


# Distinct arguments remembered per memo (session ids appended to, listing query strings).
_MAX_MEMO = 256


class _Headers:
    """The request headers the fast paths decide on, read in one pass (the first of each, as Starlette's
    ``Headers.get`` reads them)."""

    __slots__ = ("authorization", "content_type", "idempotency_key", "session_token")

    def __init__(self, scope: Scope) -> None:
        authorization = content_type = key = session_token = None
        for name, value in scope["headers"]:
            if name == b"authorization":
                if authorization is None:
                    authorization = value
            elif name == b"content-type":
                if content_type is None:
                    content_type = value
            elif name == b"idempotency-key":
                if key is None:
                    key = value
            elif name == b"x-hermes-session-token" and session_token is None:
                session_token = value
        self.authorization: bytes | None = authorization
        self.session_token = None if session_token is None else session_token.decode("latin-1")
        self.content_type = None if content_type is None else content_type.decode("latin-1")
        self.idempotency_key = None if key is None else key.decode("latin-1")

    @property
    def authorization_text(self) -> str | None:
        """``Authorization`` as text, as Starlette's ``Headers`` gives it."""
        return None if self.authorization is None else self.authorization.decode("latin-1")


async def _read_body(receive: Receive) -> bytes | None:
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


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
