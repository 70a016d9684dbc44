"""How a session goes out over HTTP, for every route that answers one (sessions and lineage): the body with
its strong ``ETag``, and the OpenAPI entries saying so (a created session's reply is
:func:`app.api.replies.session_created`)."""

from __future__ import annotations

from typing import Any

from fastapi import Response

from app.api.error_docs import ErrorGroup
from app.api.operations import Responses, operation
from app.api.responses import json_response
from app.api.schemas.sessions import SessionPublic
from app.domain.etag import session_etag
from app.services.sessions import SessionRow

ETAG_HEADER = {"ETag": {"description": "Strong entity tag of the session", "schema": {"type": "string"}}}
CREATED_HEADERS = {
    **ETAG_HEADER,
    "Location": {"description": "The new session", "schema": {"type": "string"}},
}


def session_response(public: SessionRow) -> Response:
    """200 with the session and its ``ETag``."""
    return json_response(public, 200, {"ETag": session_etag(public)})


# The OpenAPI success entry of a route answering a session: 200 with its ``ETag``.
SESSION_OK: Responses = {200: {"headers": ETAG_HEADER}}


def session_operation(name: str, summary: str, *errors: ErrorGroup) -> dict[str, Any]:
    """The decorator keywords of a route answering a session: 200 with the session and its ``ETag``, and the
    errors."""
    return operation(name, summary, SessionPublic, *errors, ok=SESSION_OK)


def created_session(
    name: str, summary: str, *errors: ErrorGroup, links: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The decorator keywords of a route creating a session: 201 with the session, its ``ETag`` and
    ``Location`` (and the OpenAPI ``links`` to what takes the new id), and the errors."""
    created_entry: dict[str, Any] = {"headers": CREATED_HEADERS}
    if links is not None:
        created_entry["links"] = links
    return operation(name, summary, SessionPublic, *errors, ok={201: created_entry}, status_code=201)
