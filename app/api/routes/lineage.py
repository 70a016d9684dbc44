"""Lineage endpoints: resolve, lineage, continuations, fork, recap.

Registered before the sessions router so the literal ``/sessions/resolve`` wins over ``/sessions/{id}``.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Body, Query, Response

from app.api import replies
from app.api.deps import DB
from app.api.error_docs import APPEND, IDEMPOTENT, JSON_BODY, READ, WRITE
from app.api.idempotency import IdempotencyDep, reply_response
from app.api.operations import api_router, operation
from app.api.params import SessionId
from app.api.responses import json_response
from app.api.schemas.lineage import (
    ContinuationCreate,
    ForkCreate,
    RecapPublic,
    ResolvedSession,
    SessionLineage,
)
from app.api.session_responses import SESSION_OK, created_session
from app.domain.etag import session_etag
from app.domain.recap import DEFAULT_EXCHANGES
from app.errors import (
    AmbiguousSessionRef,
    InvalidResolveQuery,
    InvalidSessionId,
    InvalidTitle,
    MessageNotFound,
    NoSessionToContinue,
    SessionExists,
    SessionNotFound,
    TitleTaken,
    TitleTooLong,
    UnknownSource,
)
from app.services import lineage as svc
from app.services.sessions import parse_source

router = api_router("lineage")


@router.get(
    "/sessions/resolve",
    **operation(
        "sessions-resolve",
        "Resolve an id prefix, title or 'latest' to a session",
        ResolvedSession,
        READ,
        InvalidResolveQuery,
        SessionNotFound,
        NoSessionToContinue,
        AmbiguousSessionRef,
        UnknownSource,
        ok=SESSION_OK,
    ),
)
async def resolve_session(
    db: DB,
    ref: Annotated[
        str | None, Query(description="Exact id, unique id prefix, or title (the newest 'title #N' wins)")
    ] = None,
    latest: Annotated[
        bool, Query(description="Instead of ref: the most recently active session of `source`")
    ] = False,
    source: Annotated[
        list[str] | None,
        Query(description="With latest: only these sources (repeatable); default all but tool, subagent"),
    ] = None,
) -> Response:
    """Find the session a user means, then follow compression continuations to the live tip.

    Give exactly one of ``ref`` and ``latest=true`` (400 ``invalid_resolve_query`` otherwise).
    Codes: 404 ``session_not_found``; 409 ``ambiguous_session_ref`` when an id prefix matches several
    sessions (``candidates``: up to 10 ``{id, title}``, ``more``: whether others exist); 422
    ``unknown_source``.
    """
    if latest == (ref is not None):
        raise InvalidResolveQuery()
    sources = tuple(parse_source(s).value for s in source or ())
    resolution = await db.read(lambda tx: svc.resolve(tx, ref, latest=latest, sources=sources))
    public = resolution.session
    body = {**public, "matched_by": resolution.matched_by.value, "requested": resolution.requested}
    return json_response(body, headers={"ETag": session_etag(public)})


@router.get(
    "/sessions/{session_id}/lineage",
    **operation(
        "sessions-lineage", "Get a session's compression lineage", SessionLineage, READ, SessionNotFound
    ),
)
async def session_lineage(db: DB, session_id: SessionId) -> Response:
    """The compression chain containing the session, root → tip (each with ``end_reason``).

    404 ``session_not_found``.
    """
    items = await db.read(lambda tx: svc.lineage(tx, session_id))
    return json_response({"items": items})


@router.post(
    "/sessions/{session_id}/continuations",
    **created_session(
        "sessions-continue",
        "Continue a session after context compression",
        APPEND,
    ),
)
async def continue_session(
    db: DB,
    session_id: SessionId,
    idem: IdempotencyDep,
    body: Annotated[ContinuationCreate | None, Body()] = None,
) -> Response:
    """Context compression in one transaction: end the session with ``compression`` and create its
    continuation (same source and model, ``parent_session_id`` = this session, title ``base #N`` when
    titled — a title that cannot be given leaves the child untitled), with the optional system prompt
    and initial messages. Honours ``Idempotency-Key``.

    Codes: 404 ``session_not_found``; 409 ``session_ended`` when it already ended for another reason.
    """
    data = body or ContinuationCreate()
    continuation = svc.Continuation(system_prompt=data.system_prompt, messages=data.message_dicts())
    reply = await svc.continue_session(db, idem, session_id, continuation, replies.session_created)
    return reply_response(reply)


@router.post(
    "/sessions/{session_id}/fork",
    **created_session(
        "sessions-fork",
        "Fork (branch) a session",
        WRITE,
        JSON_BODY,
        IDEMPOTENT,
        SessionNotFound,
        MessageNotFound,
        SessionExists,
        TitleTaken,
        InvalidSessionId,
        TitleTooLong,
        InvalidTitle,
    ),
)
async def fork_session(
    db: DB,
    session_id: SessionId,
    idem: IdempotencyDep,
    body: Annotated[ForkCreate | None, Body()] = None,
) -> Response:
    """Branch: end the session with ``branched`` (unless already ended) and create a child marked
    ``model_config._branched_from`` holding a copy of its active messages (up to and including
    ``message_id``), same source, model and system prompt, titled ``title`` or the next ``base #N``.
    Honours ``Idempotency-Key``.

    Codes: 404 ``session_not_found``, ``message_not_found``; 409 ``session_exists`` for a taken ``id``,
    ``title_in_use`` for an explicit title; 422 ``invalid_session_id``, ``title_too_long``,
    ``invalid_title``.
    """
    data = body or ForkCreate()
    fork = svc.Fork(message_id=data.message_id, title=data.title, id=data.id)
    return reply_response(await svc.fork_session(db, idem, session_id, fork, replies.session_created))


@router.get(
    "/sessions/{session_id}/recap",
    **operation("sessions-recap", "Get a session's resume recap", RecapPublic, READ, SessionNotFound),
)
async def session_recap(
    db: DB,
    session_id: SessionId,
    exchanges: Annotated[
        int, Query(ge=1, le=100, description="How many user/assistant exchanges to show")
    ] = DEFAULT_EXCHANGES,
) -> Response:
    """The resume recap: system and tool messages hidden, user text ≤ 300 chars, assistant ≤ 3 lines and
    200 chars with reasoning blocks removed, tool calls collapsed; the last ``2 × exchanges`` entries and
    the number ``omitted`` before them. 404 ``session_not_found``.
    """
    result = await db.read(lambda tx: svc.recap(tx, session_id, exchanges))
    entries = [{"role": e.role, "text": e.text} for e in result.entries]
    return json_response({"entries": entries, "omitted": result.omitted})
