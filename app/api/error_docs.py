"""Per-operation error documentation, built from the error classes an operation can raise.

Each problem+json response lists the stable ``code`` values its status can carry for that operation, with
one example body per class, rendered from the class's own example instance
(:meth:`app.errors.HermesError.example`): the documented sentence is the one the code produces.

Routes name the shared groups below plus the classes their own code raises in their declaration
(:func:`app.api.operations.operation`): ``operation("sessions-end", "End a session", SessionPublic, WRITE,
JSON_BODY, SessionNotFound)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.api.problem import PROBLEM_MEDIA_TYPE, Problem, error_body
from app.errors import (
    AgentFileReadOnly,
    AmbiguousBodyLength,
    BodyNotObject,
    BodyStalled,
    DatabaseBusy,
    DatabaseReadOnly,
    ETagMismatch,
    HeadersStalled,
    HermesError,
    HostNotAllowed,
    IdempotencyKeyReused,
    IntegerOutOfRange,
    InvalidContentLength,
    InvalidIdempotencyKey,
    InvalidJson,
    InvalidText,
    InvalidToken,
    InvalidTransferEncoding,
    InvalidValue,
    JsonTooDeep,
    MalformedRequest,
    MissingToken,
    NumberNotFinite,
    PayloadTooLarge,
    RequestHeaderTooLarge,
    RequestInFlight,
    SessionEnded,
    SessionNotFound,
    StorageFull,
    TooManyBodies,
    TooManyConnections,
    UnknownAttachment,
    UnsupportedBodyType,
    UriTooLong,
)

Errors = Sequence[type[HermesError]]
# What a route lists among its errors: a class, or a group of them.
ErrorGroup = type[HermesError] | Errors

_SUMMARIES = {
    400: "Bad request",
    401: "Missing or invalid bearer token",
    404: "Not found",
    408: "The request stalled",
    409: "Conflict",
    412: "If-Match did not match the current ETag",
    413: "Request body too large",
    414: "Request target too long",
    415: "Unsupported media type",
    421: "The Host header names a host this server does not answer for",
    422: "Validation failed",
    431: "Request headers too large",
    501: "Not available on this server's storage backend (nothing was done)",
    503: "Service unavailable (nothing was written)",
    507: "Disk full; nothing was written",
}
_REQUEST_ID = "01JH2Z8Q5V6X3YF4N7C9B2K1MD"

# What the server answers before any route sees a request: the HTTP parser's refusals, the host guard,
# the body and connection limits.
EDGE: Errors = (
    MalformedRequest,
    InvalidContentLength,
    AmbiguousBodyLength,
    InvalidTransferEncoding,
    HeadersStalled,
    UriTooLong,
    RequestHeaderTooLarge,
    PayloadTooLarge,
    HostNotAllowed,
    TooManyBodies,
    TooManyConnections,
)
# The bearer token.
AUTH: Errors = (MissingToken, InvalidToken)
# Every operation behind the bearer token, reading only.
READ: Errors = (*AUTH, *EDGE, InvalidValue, DatabaseBusy)
# Every operation that writes (a file a newer agent migrated is served read-only).
WRITE: Errors = (*READ, AgentFileReadOnly, DatabaseReadOnly, StorageFull)
# Every operation with a JSON request body (the JSON policy, the body model, and the edge's body limits).
JSON_BODY: Errors = (
    InvalidJson,
    BodyNotObject,
    BodyStalled,
    UnsupportedBodyType,
    InvalidText,
    JsonTooDeep,
    IntegerOutOfRange,
    NumberNotFinite,
)
# Operations that honour ``Idempotency-Key``.
IDEMPOTENT: Errors = (InvalidIdempotencyKey, RequestInFlight, IdempotencyKeyReused)
# Operations that append messages to an open session, idempotently (an append; a continuation's initial
# messages).
APPEND: Errors = (*WRITE, *JSON_BODY, *IDEMPOTENT, SessionNotFound, SessionEnded, UnknownAttachment)
# Operations that take an If-Match header.
IF_MATCH: Errors = (ETagMismatch,)


def _flatten(groups: Sequence[ErrorGroup]) -> list[type[HermesError]]:
    flat: list[type[HermesError]] = []
    for group in groups:
        for cls in (group,) if isinstance(group, type) else group:
            if cls not in flat:
                flat.append(cls)
    return flat


def error_responses(*groups: ErrorGroup) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses=`` entries for the error classes in ``groups`` (classes or groups of them,
    merged in order): per status, a description naming its codes and one named example body per class."""
    by_status: dict[int, list[type[HermesError]]] = {}
    for cls in _flatten(groups):
        by_status.setdefault(cls.status, []).append(cls)
    responses: dict[int | str, dict[str, Any]] = {}
    for status, classes in sorted(by_status.items()):
        codes = list(dict.fromkeys(cls.code for cls in classes))
        examples: dict[str, dict[str, Any]] = {}
        for cls in classes:
            # Classes sharing a code each get an example; the first one is named after the code itself.
            name = cls.code if cls.code not in examples else f"{cls.code} ({cls.__name__})"
            examples[name] = {"summary": cls.code, "value": error_body(cls.example(), _REQUEST_ID)}
        listed = ", ".join(f"`{code}`" for code in codes)
        media = {"schema": {"$ref": "#/components/schemas/Problem"}, "examples": examples}
        # ``model`` registers the Problem schema; FastAPI then also lists it as application/json, so that
        # entry carries the same examples.
        responses[status] = {
            "model": Problem,
            "description": f"{_SUMMARIES.get(status, 'Error')}. Codes: {listed}.",
            "content": {PROBLEM_MEDIA_TYPE: media, "application/json": media},
        }
    return responses
