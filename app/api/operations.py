"""How route modules declare their routes: ``router = api_router(tag)``, then one call describes each
route's OpenAPI operation: ``@router.get(path, **operation(...))``.

The operation id, summary and response model, then the error classes the route can raise (classes or the
groups of :mod:`app.api.error_docs`); ``ok`` holds the documented success entries (headers, links,
examples) that precede the error responses.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter

from app.api.error_docs import ErrorGroup, error_responses
from app.api.json_body import PolicyRoute

Responses = Mapping[int | str, dict[str, Any]]


def api_router(tag: str) -> APIRouter:
    """A router whose routes carry the OpenAPI ``tag`` and apply the JSON body policy (``PolicyRoute``)."""
    return APIRouter(tags=[tag], route_class=PolicyRoute)


def operation(
    name: str,
    summary: str,
    model: Any,
    *errors: ErrorGroup,
    ok: Responses | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """The keyword arguments of a route decorator: ``name`` (the operation id), ``summary``, ``model`` (the
    response model, ``None`` for none), the responses (``ok``, then the errors), and any other keyword
    (``status_code``, ``description``, ...) as given."""
    kwargs: dict[str, Any] = {
        "name": name,
        "summary": summary,
        "responses": {**(ok or {}), **error_responses(*errors)},
        **extra,
    }
    if model is not None:
        kwargs["response_model"] = model
    return kwargs
