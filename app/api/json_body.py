"""JSON request bodies parsed under the JSON policy (``app.domain.json_policy``), for routes and fast paths.

FastAPI parses a body with the standard library, which recurses (a deeply nested body is a RecursionError)
and keeps integers of any size. Every route that takes a body is a :class:`PolicyRoute`: it parses the body
itself before FastAPI does and refuses what the policy refuses with a 422 problem, so nothing unstorable
reaches a handler. FastAPI then validates the already-parsed value.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import Response

from app.domain import json_policy
from app.errors import IntegerOutOfRange, InvalidValue, JsonTooDeep, NumberNotFinite

_VIOLATIONS: dict[str, type[InvalidValue]] = {
    json_policy.JSON_TOO_DEEP: JsonTooDeep,
    json_policy.INTEGER_OUT_OF_RANGE: IntegerOutOfRange,
    json_policy.NUMBER_NOT_FINITE: NumberNotFinite,
}


def parse_json_body(body: bytes) -> Any:
    """The parsed body, or the policy's 422 (``json_too_deep``, ...); ``json.JSONDecodeError`` if not JSON."""
    value, violation = json_policy.loads(body)
    if violation is not None:
        raise _VIOLATIONS[violation.code](
            [{"loc": ["body", *violation.loc], "msg": violation.detail, "type": violation.code}]
        )
    return value


def is_json_media_type(content_type: str | None) -> bool:
    """``application/json`` or any ``application/*+json``: the media types FastAPI parses as JSON."""
    if not content_type:
        return False
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))


class _PolicyRequest(Request):
    """A request whose ``json()`` is the policy's parse (cached, as Starlette caches its own)."""

    _parsed: Any

    async def json(self) -> Any:
        if not hasattr(self, "_parsed"):
            self._parsed = parse_json_body(await self.body())
        return self._parsed


class PolicyRoute(APIRoute):
    """A route whose JSON body is judged by the JSON policy before FastAPI validates it."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        if self.body_field is None:
            return handler

        async def judged(request: Request) -> Response:
            policed = _PolicyRequest(request.scope, request.receive)
            if is_json_media_type(policed.headers.get("content-type")) and await policed.body():
                # Parsed here, outside FastAPI's body handling, which would turn a refusal into a 400. Text
                # that is not JSON is left to FastAPI: it parses it again and answers its own invalid_json.
                with contextlib.suppress(json.JSONDecodeError):
                    await policed.json()
            return await handler(policed)

        return judged
