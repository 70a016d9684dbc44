"""Sessions endpoints: create, list, get, patch, delete, end, reopen, usage."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import Body, Header, Query, Request, Response

from app.api import replies
from app.api.deps import DB
from app.api.error_docs import IDEMPOTENT, IF_MATCH, JSON_BODY, READ, WRITE
from app.api.idempotency import IdempotencyDep, reply_response
from app.api.operations import api_router, operation
from app.api.pagination import NEXT_LINK_OK
from app.api.params import SessionId
from app.api.schemas.sessions import (
    SessionCreate,
    SessionEnd,
    SessionListQuery,
    SessionPage,
    SessionUpdate,
    UsageMode,
    UsageUpdate,
)
from app.api.session_listing import list_response, listing_query
from app.api.session_responses import created_session, session_operation, session_response
from app.errors import (
    EmptyTimeWindow,
    InvalidCursor,
    InvalidDuration,
    InvalidSessionId,
    InvalidTitle,
    ParentNotFound,
    SessionExists,
    SessionNotFound,
    TitleTaken,
    TitleTooLong,
    TrigramMembershipLocked,
    UnknownSource,
)
from app.services import sessions as svc
from app.services.sessions import Usage

router = api_router("sessions")

IfMatch = Annotated[
    str | None,
    Header(alias="If-Match", description="Only act when the session's current ETag matches (else 412)"),
]

# OpenAPI links from a created session to what takes its id: clients (and schemathesis' stateful phase) follow
# them to chain calls.
_SESSION_LINKS = {
    name: {"operationId": operation, "parameters": {"session_id": "$response.body#/id"}}
    for name, operation in {
        "GetSession": "sessions-get",
        "UpdateSession": "sessions-update",
        "EndSession": "sessions-end",
        "ReportUsage": "sessions-usage",
        "AppendMessages": "messages-append",
        "ListMessages": "messages-list",
        "ForkSession": "sessions-fork",
        "ContinueSession": "sessions-continue",
        "DeleteSession": "sessions-delete",
    }.items()
}


@router.post(
    "/sessions",
    **created_session(
        "sessions-create",
        "Create a session",
        WRITE,
        JSON_BODY,
        IDEMPOTENT,
        SessionExists,
        TitleTaken,
        InvalidSessionId,
        UnknownSource,
        ParentNotFound,
        TitleTooLong,
        InvalidTitle,
        links=_SESSION_LINKS,
    ),
)
async def create_session(
    db: DB, idem: IdempotencyDep, body: Annotated[SessionCreate | None, Body()] = None
) -> Response:
    """Create a session. Codes: 409 ``session_exists``, ``title_in_use``; 422 ``invalid_session_id``,
    ``unknown_source``, ``parent_not_found``, ``title_too_long``, ``invalid_title``."""
    data = body or SessionCreate()
    new = svc.NewSession(**data.model_dump(by_alias=True))

    reply = await idem.run(db, lambda tx: svc.create_session(tx, new), replies.session_created)
    return reply_response(reply)


@router.get(
    "/sessions",
    **operation(
        "sessions-list",
        "List sessions",
        SessionPage,
        READ,
        InvalidCursor,
        InvalidDuration,
        EmptyTimeWindow,
        ok=NEXT_LINK_OK,
    ),
)
async def list_sessions(request: Request, db: DB, params: Annotated[SessionListQuery, Query()]) -> Response:
    """List sessions, newest first, one row per conversation (compression lineages shown as their tip).

    The agent's filter set (`older_than` ... `max_tool_calls`, as `hermes sessions prune` takes it) narrows
    the listing: the time bounds judge the listed row's start, every other criterion the row as shown (a
    compression lineage by its tip). Codes: 400 `invalid_cursor`; 422 `invalid_duration`,
    `empty_time_window`.
    """
    query, bounds = listing_query(params)
    return await list_response(request, db, query, bounds)


@router.get(
    "/sessions/{session_id}",
    **session_operation("sessions-get", "Get a session", READ, SessionNotFound),
)
async def get_session(
    db: DB,
    session_id: SessionId,
    include: Annotated[
        Literal["system_prompt"] | None, Query(description="system_prompt: add the full system prompt")
    ] = None,
) -> Response:
    """One session. 404 ``session_not_found``."""
    public = await db.read(
        lambda tx: svc.get_session(tx, session_id, include_system_prompt=include == "system_prompt")
    )
    return session_response(public)


@router.patch(
    "/sessions/{session_id}",
    **session_operation(
        "sessions-update",
        "Update a session (title, archived, model, end)",
        WRITE,
        JSON_BODY,
        IF_MATCH,
        SessionNotFound,
        TitleTaken,
        TitleTooLong,
        InvalidTitle,
        TrigramMembershipLocked,
    ),
)
async def update_session(
    db: DB, session_id: SessionId, body: SessionUpdate, if_match: IfMatch = None
) -> Response:
    """Change title (null clears; a title held by a compression ancestor moves here), archived, model,
    model_config, the workspace (cwd, git_branch, git_repo_root, profile_name; null clears one), or end it
    with end_reason. Codes: 409 ``title_in_use`` (with ``holder`` and ``suggested_title``), 409
    ``session_kind_locked`` (a newer agent's file: the change would move a session with messages into or out
    of its substring index), 412 ``precondition_failed``, 422 ``title_too_long``, ``invalid_title``."""
    changes = body.model_dump(include=body.model_fields_set)
    if "model_config_" in changes:
        changes["model_config"] = changes.pop("model_config_")
    public = await db.write(lambda tx: svc.update_session(tx, session_id, changes, if_match))
    return session_response(public)


@router.delete(
    "/sessions/{session_id}",
    **operation(
        "sessions-delete",
        "Delete a session and its messages",
        None,
        WRITE,
        IF_MATCH,
        SessionNotFound,
        status_code=204,
        response_class=Response,
    ),
)
async def delete_session(db: DB, session_id: SessionId, if_match: IfMatch = None) -> Response:
    """Delete a session and its messages; delegate children go too, other children are orphaned."""
    await db.write(lambda tx: svc.delete_session(tx, session_id, if_match))
    return Response(status_code=204)


@router.post(
    "/sessions/{session_id}/end",
    **session_operation("sessions-end", "End a session", WRITE, JSON_BODY, SessionNotFound),
)
async def end_session(db: DB, session_id: SessionId, body: SessionEnd) -> Response:
    """End a session; if it is already ended the first end_reason stays."""
    public = await db.write(lambda tx: svc.end_session(tx, session_id, body.end_reason))
    return session_response(public)


@router.post(
    "/sessions/{session_id}/reopen",
    **session_operation("sessions-reopen", "Reopen an ended session", WRITE, SessionNotFound),
)
async def reopen_session(db: DB, session_id: SessionId) -> Response:
    """Clear ended_at and end_reason so the session can continue."""
    public = await db.write(lambda tx: svc.reopen_session(tx, session_id))
    return session_response(public)


@router.post(
    "/sessions/{session_id}/usage",
    **session_operation("sessions-usage", "Report token usage and cost", WRITE, JSON_BODY, SessionNotFound),
)
async def add_usage(db: DB, session_id: SessionId, body: UsageUpdate) -> Response:
    """Add (``mode=increment``) or set (``mode=absolute``) token and cost counters; the model is only
    recorded when the session has none."""
    usage = Usage(**body.model_dump(exclude={"mode"}), absolute=body.mode is UsageMode.absolute)
    public = await db.write(lambda tx: svc.add_usage(tx, session_id, usage))
    return session_response(public)


@router.put(
    "/sessions/{session_id}/pin",
    **session_operation(
        "sessions-pin", "Pin a session (keep it from prune, auto-prune and archive)", WRITE, SessionNotFound
    ),
)
async def pin_session(db: DB, session_id: SessionId) -> Response:
    """Pin a session: prune, auto-prune and archive never touch it. Idempotent. The flag lives in our own
    table, never in the agent's columns, and goes when the session is deleted."""
    public = await db.write(lambda tx: svc.set_pinned(tx, session_id, True))
    return session_response(public)


@router.delete(
    "/sessions/{session_id}/pin",
    **session_operation("sessions-unpin", "Unpin a session", WRITE, SessionNotFound),
)
async def unpin_session(db: DB, session_id: SessionId) -> Response:
    """Remove a session's pin (prune and archive may select it again). Idempotent."""
    public = await db.write(lambda tx: svc.set_pinned(tx, session_id, False))
    return session_response(public)
