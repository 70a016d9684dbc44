"""RFC 9457 problem+json: the one shape every error response takes, and its OpenAPI description."""

from __future__ import annotations

import logging
from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.routing import iter_route_contexts
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response
from starlette.routing import Match

from app.api.json_body import is_json_media_type
from app.errors import (
    BodyNotObject,
    HermesError,
    InvalidJson,
    InvalidText,
    InvalidValue,
    UnreadableForm,
    UnsupportedBodyType,
)

log = logging.getLogger(__name__)
PROBLEM_MEDIA_TYPE = "application/problem+json"

_HTTP_CODES = {
    404: ("not_found", "Not Found"),
    405: ("method_not_allowed", "Method Not Allowed"),
}


class ValidationIssue(BaseModel):
    """One failed field check."""

    loc: list[str | int]
    msg: str
    type: str


class Problem(BaseModel):
    """The error body of every 4xx and 5xx response."""

    model_config = ConfigDict(extra="allow")

    type: str = Field(default="about:blank", description="URI identifying the problem type")
    title: str
    status: int
    detail: str = Field(description="A sentence a person can act on")
    code: str = Field(description="Stable snake_case machine code")
    request_id: str | None = None
    errors: list[ValidationIssue] | None = None


def problem_body(
    status: int, code: str, title: str, detail: str, request_id: str | None, extra: dict[str, Any]
) -> dict[str, Any]:
    """The problem+json document (``extra`` members with a ``None`` value are left out)."""
    body: dict[str, Any] = {
        "type": "about:blank",
        "title": title,
        "status": status,
        "detail": detail,
        "code": code,
        "request_id": request_id,
    }
    body.update({k: v for k, v in extra.items() if v is not None})
    return body


def error_body(exc: HermesError, request_id: str | None) -> dict[str, Any]:
    """The problem+json document of one of our errors."""
    return problem_body(exc.status, exc.code, exc.title, exc.detail, request_id, exc.extra)


def problem_response(
    status: int,
    code: str,
    title: str,
    detail: str,
    request: Request | None = None,
    *,
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> Response:
    """Render one problem+json response."""
    request_id = getattr(request.state, "request_id", None) if request is not None else None
    body = problem_body(status, code, title, detail, request_id, extra)
    return Response(orjson.dumps(body), status_code=status, media_type=PROBLEM_MEDIA_TYPE, headers=headers)


def render_error(exc: HermesError, request: Request | None) -> Response:
    """Turn a domain error into its problem+json response."""
    return problem_response(
        exc.status, exc.code, exc.title, exc.detail, request, headers=exc.headers(), **exc.extra
    )


def unexpected_error_response(exc: Exception, request: Request) -> Response:
    """The answer to an exception no handler claimed: a bug, logged, answered 500.

    A 500 closes the connection: whatever broke may have left the request half-read.
    """
    log.exception(
        "unhandled error on %s %s (request %s)",
        request.method,
        request.url.path,
        getattr(request.state, "request_id", None),
        exc_info=exc,
    )
    return problem_response(
        500,
        "internal_error",
        "Internal Server Error",
        "The server hit an unexpected error; it has been logged.",
        request,
        headers={"Connection": "close"},
    )


def _validation_error(request: Request, exc: RequestValidationError) -> HermesError:
    issues = exc.errors()
    if isinstance(exc.body, bytes) and not is_json_media_type(request.headers.get("content-type")):
        # FastAPI parses a body as JSON only when it is declared so; any other body reaches validation
        # as raw bytes, and the fault is the declared media type, not the content.
        return UnsupportedBodyType(
            "application/json", request.headers.get("content-type") or "no Content-Type"
        )
    for issue in issues:
        if issue.get("type") == "json_invalid":
            return InvalidJson(str(issue.get("ctx", {}).get("error", "parse error")))
        loc = tuple(issue.get("loc", ()))
        # The whole body is refused either at ("body",) or, for a tagged union of body shapes, at
        # ("body", <tag>) with the body itself as the failing input.
        whole_body = loc == ("body",) or (
            loc[:1] == ("body",) and len(loc) == 2 and issue.get("input") is exc.body
        )
        if whole_body and issue.get("type") in {"model_attributes_type", "dict_type", "model_type"}:
            return BodyNotObject()
    errors = [
        {
            "loc": [p if isinstance(p, int) else str(p) for p in issue.get("loc", ())],
            "msg": str(issue.get("msg", "")),
            "type": str(issue.get("type", "")),
        }
        for issue in issues
    ]
    if {str(issue.get("type")) for issue in issues} == {InvalidText.code}:
        return InvalidText(errors)
    return InvalidValue(errors)


def install_handlers(app: FastAPI) -> None:
    """Register the handlers that make every error path answer problem+json."""

    @app.exception_handler(HermesError)
    async def _hermes(request: Request, exc: HermesError) -> Response:
        return render_error(exc, request)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> Response:
        return render_error(_validation_error(request, exc), request)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        code, title = _HTTP_CODES.get(exc.status_code, ("http_error", "Error"))
        detail = exc.detail if isinstance(exc.detail, str) else title
        if exc.status_code == 400:
            # Starlette's own refusal of a body (a multipart form it cannot parse).
            return render_error(UnreadableForm(detail), request)
        if exc.status_code == 404 and detail == "Not Found":
            detail = f"No such endpoint: {request.method} {request.url.path}"
        headers = dict(exc.headers) if exc.headers else None
        if exc.status_code == 405:
            allowed = ", ".join(_allowed_methods(request))
            headers = {**(headers or {}), "Allow": allowed}
            detail = f"{request.method} is not allowed on {request.url.path}; it allows {allowed}."
        return problem_response(exc.status_code, code, title, detail, request, headers=headers)


def _allowed_methods(request: Request) -> list[str]:
    """Every method some route serves on this path (Starlette's 405 names only the first route's)."""
    methods: set[str] = set()
    for route in iter_route_contexts(request.app.router.routes):
        match, _ = route.matches(request.scope)
        if match is not Match.NONE:
            methods.update(route.methods or ())
    order = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
    return sorted(methods, key=lambda m: (order.index(m) if m in order else len(order), m))
