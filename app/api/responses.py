"""The one JSON response helper: orjson (non-ASCII unescaped), bypassing response-model re-validation on
hot paths; the route's ``response_model`` still documents the body in OpenAPI."""

from __future__ import annotations

from typing import Any

import orjson
from starlette.responses import Response


def json_response(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """Serialise ``body`` with orjson into an ``application/json`` response."""
    return Response(orjson.dumps(body), status_code=status, media_type="application/json", headers=headers)
