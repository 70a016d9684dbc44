"""The one JSON response helper: orjson (non-ASCII unescaped), bypassing response-model re-validation on
hot paths; the route's ``response_model`` still documents the body in OpenAPI."""

from __future__ import annotations

import logging
from typing import Any

import orjson
from starlette.responses import Response

from app.domain.stored_json import renderable

log = logging.getLogger(__name__)


def encode_body(body: Any) -> bytes:
    """``body`` as JSON; never raises. Write routes render their answer after the commit, so a value
    orjson refuses (nested too deep, an integer beyond 64 bits, a lone surrogate, bytes) must not turn a
    committed write into a 500: such parts are answered as the unrenderable marker instead."""
    try:
        return orjson.dumps(body)
    except (TypeError, RecursionError) as exc:  # orjson.JSONEncodeError is a TypeError
        log.warning("response body not encodable as is (%s); unrenderable parts reported in place", exc)
        return orjson.dumps(renderable(body), default=str)


def json_response(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """Serialise ``body`` with orjson into an ``application/json`` response."""
    return Response(encode_body(body), status_code=status, media_type="application/json", headers=headers)
