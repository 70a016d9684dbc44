"""Messages endpoints: append (single or batch), list, get, rewind."""

from __future__ import annotations

from typing import Annotated

from fastapi import Body, Depends, Path, Query, Request, Response

from app.api import replies
from app.api.deps import DB
from app.api.error_docs import APPEND, JSON_BODY, READ, WRITE
from app.api.idempotency import IdempotencyDep, reply_response
from app.api.message_listing import message_page, message_query
from app.api.operations import api_router, operation
from app.api.pagination import set_next_link
from app.api.params import SessionId
from app.api.responses import json_response
from app.api.schemas.messages import (
    MAX_MESSAGE_ID,
    AppendBody,
    MessageItems,
    MessagePage,
    MessagePublic,
    RewindRequest,
    RewindResult,
    appended_messages,
)
from app.errors import (
    ConflictingParameters,
    InvalidCursor,
    MessageNotFound,
    MessageNotInSession,
    NotAUserMessage,
    SessionNotFound,
)
from app.services import messages as svc
from app.storage.rows import MessageQuery

router = api_router("messages")

# OpenAPI links from an appended message to the operations that take its id.
_APPENDED_LINKS = {
    "GetMessage": {
        "operationId": "messages-get",
        "parameters": {
            "session_id": "$response.body#/items/0/session_id",
            "message_id": "$response.body#/items/0/id",
        },
    },
    "RewindToMessage": {
        "operationId": "messages-rewind",
        "parameters": {"session_id": "$response.body#/items/0/session_id"},
        "requestBody": {"message_id": "$response.body#/items/0/id"},
    },
}

MessageId = Annotated[int, Path(ge=1, le=MAX_MESSAGE_ID, description="A message id (1..2^63-1)")]


@router.post(
    "/sessions/{session_id}/messages",
    **operation(
        "messages-append",
        "Append messages to a session",
        MessageItems,
        APPEND,
        ok={201: {"links": _APPENDED_LINKS}},
        status_code=201,
    ),
)
async def append_messages(
    session_id: SessionId,
    body: Annotated[AppendBody, Body()],
    db: DB,
    idem: IdempotencyDep,
    reopen: Annotated[bool, Query(description="Reopen an ended session instead of answering 409")] = False,
) -> Response:
    """Append one message, or ``{"messages": [...]}`` (1-1000) in one transaction: all or nothing.

    Updates ``message_count`` and ``tool_call_count`` (tool calls of assistant messages only) in the same
    transaction; answered only after commit. Codes: 404 ``session_not_found``; 409 ``session_ended``
    (unless ``reopen=true``), ``request_in_flight``; 422 ``unknown_attachment``, ``invalid_text``,
    ``validation_error``, ``idempotency_key_reused``, and the JSON policy's codes (as for every JSON body):
    ``json_too_deep`` (over 128 levels of objects and arrays, the body counted as one),
    ``integer_out_of_range`` (beyond -2^63 .. 2^63-1), ``number_not_finite`` (NaN, Infinity).
    """
    reply = await svc.append(
        db, idem, session_id, appended_messages(body), reopen=reopen, render=replies.appended
    )
    return reply_response(reply)


@router.get(
    "/sessions/{session_id}/messages",
    **operation(
        "messages-list",
        "List a session's messages",
        MessagePage,
        READ,
        InvalidCursor,
        SessionNotFound,
        MessageNotInSession,
        ConflictingParameters,
        ok={200: {"headers": {"Link": {"description": "rel=next page", "schema": {"type": "string"}}}}},
    ),
)
async def list_messages(
    request: Request, db: DB, query: Annotated[MessageQuery, Depends(message_query)]
) -> Response:
    """Messages of a session in id order. ``cursor`` (from ``next_cursor``) overrides ``after``/``before``;
    ``around`` cannot be combined with them and answers one window (``has_more`` false). Codes: 400
    ``invalid_cursor``; 404 ``session_not_found``, ``message_not_in_session``; 422 ``conflicting_parameters``.
    """
    body = await message_page(db, query)
    response = json_response(body)
    set_next_link(request, response, body["next_cursor"])
    return response


@router.get(
    "/sessions/{session_id}/messages/{message_id}",
    **operation("messages-get", "Get one message", MessagePublic, READ, SessionNotFound, MessageNotFound),
)
async def get_message(session_id: SessionId, message_id: MessageId, db: DB) -> Response:
    """One message of the session, active or not. Codes: 404 ``session_not_found``, ``message_not_found``."""
    return json_response(await db.read(lambda tx: svc.get_message(tx, session_id, message_id)))


@router.post(
    "/sessions/{session_id}/rewind",
    **operation(
        "messages-rewind",
        "Rewind a session to before a user message",
        RewindResult,
        WRITE,
        JSON_BODY,
        SessionNotFound,
        MessageNotFound,
        NotAUserMessage,
    ),
)
async def rewind(session_id: SessionId, body: RewindRequest, db: DB) -> Response:
    """Rewind to before a user message: it and every later message become inactive (kept on disk, hidden
    from the default listing, replay and search) and ``rewind_count`` goes up by one. ``message_count``
    is unchanged, as in the agent. Codes: 404 ``session_not_found``, ``message_not_found``; 422
    ``not_a_user_message``."""
    return json_response(await db.write(lambda tx: svc.rewind(tx, session_id, body.message_id)))
