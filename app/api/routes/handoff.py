"""Handoff endpoints (docs/api.md, "Handoff and events"): the CLI queues, a gateway
claims (long-poll) and settles, anyone reads the state."""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import Query, Response

from app import errors
from app.api.deps import DB, AppSettings, GatewayService, Hub
from app.api.error_docs import JSON_BODY, READ, WRITE
from app.api.operations import api_router, operation
from app.api.params import SessionId
from app.api.responses import json_response
from app.api.schemas.gateway import HandoffCompleted
from app.api.schemas.handoff import (
    HandoffClaim,
    HandoffClaimed,
    HandoffComplete,
    HandoffFail,
    HandoffPublic,
    HandoffQueued,
    HandoffRequest,
)
from app.services import handoff as svc
from app.services.platforms import check_platform

router = api_router("handoff")

MAX_CLAIM_WAIT_S = 60.0


@router.post(
    "/handoff",
    **operation(
        "handoff-request",
        "Queue a handoff to a messaging platform",
        HandoffQueued,
        WRITE,
        JSON_BODY,
        errors.SessionNotFound,
        errors.PlatformNotEnabled,
        errors.NoHomeChannel,
        errors.AgentBusy,
        errors.HandoffInFlight,
        errors.UnknownPlatform,
        status_code=202,
    ),
)
async def request_handoff(db: DB, body: HandoffRequest) -> Response:
    """Queue a handoff of a session to a messaging platform (state ``pending``); a gateway claims it.
    Codes, checked in this order: 422 ``unknown_platform`` (with ``platforms``), 404 ``session_not_found``,
    409 ``platform_not_enabled``, ``no_home_channel`` (run /sethome in the destination chat),
    ``agent_busy`` (the caller sent ``busy: true``), ``handoff_in_flight`` (pending or running).
    A completed or failed handoff can be requested again. Untitled sessions get ``handoff-<id[:8]>``."""
    queued = await db.write(
        lambda tx: svc.request_handoff(tx, body.session_id, body.platform, busy=body.busy)
    )
    return json_response(queued, 202)


@router.post(
    "/handoff/claim",
    **operation(
        "handoff-claim",
        "Claim the next pending handoff (long-poll)",
        HandoffClaimed,
        WRITE,
        JSON_BODY,
        errors.UnknownPlatform,
        ok={204: {"description": "Nothing to claim within `wait` seconds"}},
    ),
)
async def claim_handoff(
    db: DB,
    hub: Hub,
    settings: AppSettings,
    body: HandoffClaim,
    wait: Annotated[
        float, Query(ge=0, le=MAX_CLAIM_WAIT_S, description="Long-poll: wait up to this many seconds (≤ 60)")
    ] = 0,
) -> Response:
    """Claim the oldest pending handoff (by session start), atomically pending → running: of two
    concurrent claimers exactly one gets it. With ``wait``, hold the request until one is queued (woken
    right after the commit that queued it; requests the agent queued directly are seen within the poll
    interval). 204 when nothing came. 422 ``unknown_platform``. No connection is held while waiting."""
    if body.platform is not None:
        check_platform(body.platform)
    deadline = time.monotonic() + wait
    with hub.listening():
        while True:
            generation = hub.generation
            if await db.read(lambda tx: svc.has_pending(tx, body.platform)):
                claimed = await db.write(lambda tx: svc.claim_next(tx, body.platform, body.worker))
                if claimed is not None:
                    return json_response(claimed)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return Response(status_code=204)
            await hub.wait(generation, min(remaining, settings.events_poll_s))


@router.get(
    "/handoff/{session_id}",
    **operation("handoff-get", "Get a session's handoff state", HandoffPublic, READ, errors.SessionNotFound),
)
async def get_handoff(db: DB, session_id: SessionId) -> Response:
    """A session's handoff: ``state`` (null if never requested), ``platform``, ``error``, ``thread``.
    404 ``session_not_found``."""
    return json_response(await db.read(lambda tx: svc.get_handoff(tx, session_id)))


@router.post(
    "/handoff/{session_id}/complete",
    **operation(
        "handoff-complete",
        "Mark a running handoff delivered and route its destination chat to the session",
        HandoffCompleted,
        WRITE,
        JSON_BODY,
        errors.SessionNotFound,
        errors.HandoffStateChanged,
        errors.NoHomeChannel,
    ),
)
async def complete_handoff(
    gateway: GatewayService, session_id: SessionId, body: HandoffComplete | None = None
) -> Response:
    """The gateway delivered the session: running → completed, recording where it now lives
    (``thread``; a ``thread_id`` in it is the topic or thread the gateway created), and, as the agent's
    gateway does, the destination chat's routing key now points at the session (the one it held is
    ended ``session_switch``; the session is re-peered to the chat), all in one transaction. Answers
    ``session_key`` and the ``synthetic_turn`` to dispatch. 404 ``session_not_found``, 409
    ``handoff_state_changed`` (not running), ``no_home_channel``."""
    thread: Any = None if body is None else body.thread
    return json_response(await gateway.complete_handoff(session_id, thread))


@router.post(
    "/handoff/{session_id}/fail",
    **operation(
        "handoff-fail",
        "Mark a handoff failed",
        HandoffPublic,
        WRITE,
        JSON_BODY,
        errors.SessionNotFound,
        errors.HandoffStateChanged,
        errors.InvalidOnlyStates,
    ),
)
async def fail_handoff(db: DB, session_id: SessionId, body: HandoffFail) -> Response:
    """The handoff failed: → failed with ``error`` (first 500 characters kept), only from
    ``only_states`` (default pending or running). 404 ``session_not_found``, 409 ``handoff_state_changed``
    (it moved on, e.g. the gateway claimed it as the CLI gave up)."""
    states = None if body.only_states is None else list(body.only_states)
    return json_response(await db.write(lambda tx: svc.fail_handoff(tx, session_id, body.error, states)))
