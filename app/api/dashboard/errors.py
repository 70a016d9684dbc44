"""The dashboard's error bodies, ``{"detail": ...}`` (FastAPI's own), for every route of this package only.

A foreign contract: the rest of the API answers problem+json. :class:`DashboardRoute` turns what a route
raises (a refusal of its own, a validation error, an error of the services) into the dashboard's body with
the same status the dashboard gives, so a client written for the dashboard reads our errors as its own.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import Request
from starlette.responses import Response

from app.api.json_body import PolicyRoute
from app.api.responses import json_response
from app.errors import HermesError, InvalidValue, NotFound, SessionNotFound

SESSION_NOT_FOUND = "Session not found"
UNAUTHORIZED = "Unauthorized"


class Detail(BaseModel):
    """The dashboard's error body."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"detail": "Session not found"}]})

    detail: Any = Field(description="A sentence; FastAPI's list of problems for a 422; an import's result")


_MEANING = {
    400: "Refused: a bad value, nothing to change, a title not allowed or taken",
    401: "No token, a wrong one, or a browser that is not signed in: `Unauthorized`",
    404: "`Session not found` (no session, or a prefix of several), or an unknown profile",
    422: "A parameter or body field of the wrong type or out of range",
}


def error_docs(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI responses for these statuses, each with the dashboard's body."""
    return {status: {"model": Detail, "description": _MEANING[status]} for status in statuses}


class DashboardError(Exception):
    """A refusal answered as the dashboard answers it: ``status`` with ``{"detail": detail}``."""

    def __init__(self, status: int, detail: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


def not_found() -> DashboardError:
    """The dashboard's 404 for an id that names no session (or, as a prefix, several)."""
    return DashboardError(404, SESSION_NOT_FOUND)


def detail_response(status: int, detail: Any) -> Response:
    """The dashboard's error body."""
    return json_response({"detail": detail}, status)


def service_error_response(exc: HermesError) -> Response:
    """A service's refusal (a 4xx) in the dashboard's body and status."""
    if isinstance(exc, InvalidValue):
        return detail_response(422, exc.extra.get("errors", exc.detail))
    if isinstance(exc, SessionNotFound):
        return detail_response(404, SESSION_NOT_FOUND)
    if isinstance(exc, NotFound):
        return detail_response(404, exc.detail)
    # The dashboard answers every refused change (a title taken, too long, not allowed) with a 400.
    status = 400 if 400 <= exc.status < 500 else exc.status
    return detail_response(status, exc.detail)


class DashboardRoute(PolicyRoute):
    """A route answering its errors with the dashboard's bodies (its JSON body judged by the JSON policy)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def answered(request: Request) -> Response:
            try:
                return await handler(request)
            except DashboardError as exc:
                return detail_response(exc.status, exc.detail)
            except RequestValidationError as exc:
                return detail_response(422, jsonable_encoder(exc.errors()))
            except HermesError as exc:
                if exc.status >= 500:
                    raise  # the server's own trouble (busy, read-only file) keeps its problem+json
                return service_error_response(exc)

        return answered
