"""Server-Sent Events (docs/api.md): the whole store or one session, replayable by event id."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Header, Query
from fastapi.responses import StreamingResponse
from pydantic import BaseModel

from app.api.deps import DB, AppSettings, Hub
from app.api.error_docs import READ
from app.api.operations import api_router, operation
from app.api.params import SessionId
from app.api.schemas.events import (
    HandoffUpdated,
    MessageCreated,
    SessionEnded,
    SessionExpiring,
    SessionUpdated,
)
from app.domain.json_policy import INT64_MAX
from app.errors import InvalidLastEventId, SessionNotFound
from app.services import events as svc
from app.services.sessions import get_session

router = api_router("events")

SSE_MEDIA_TYPE = "text/event-stream"
_STREAM_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}

LastEventIdHeader = Annotated[
    str | None,
    Header(alias="Last-Event-ID", description="Replay events after this id (sent by reconnecting clients)"),
]
LastEventIdQuery = Annotated[
    str | None,
    Query(description="Same as the Last-Event-ID header, for clients that cannot set headers"),
]


def _payload_schemas() -> dict[str, Any]:
    models: dict[str, type[BaseModel]] = {
        "message.created": MessageCreated,
        "session.updated": SessionUpdated,
        "session.ended": SessionEnded,
        "handoff.updated": HandoffUpdated,
        "session.expiring": SessionExpiring,
    }
    return {name: model.model_json_schema() for name, model in models.items()}


_SSE_RESPONSE: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "An endless `text/event-stream`. Each event has `id:` (monotonic, durable), `event:` "
        "(message.created, session.updated, session.ended, handoff.updated, session.expiring) and `data:` "
        "(one JSON object, see x-event-payloads). `: keepalive` comments come after 15 s of silence. "
        "Without a last event id only new events are sent. Handoff changes made by the agent's own "
        "SessionDB are not events.",
        "content": {
            SSE_MEDIA_TYPE: {
                "schema": {"type": "string"},
                "example": 'id: 1042\nevent: message.created\ndata: {"session_id": "20260105_101500_a1b2c3", '
                '"message_id": 42, "role": "user"}\n\n: keepalive\n\n',
                "x-event-payloads": _payload_schemas(),
            }
        },
    },
}


def _last_event_id(header: LastEventIdHeader = None, last_event_id: LastEventIdQuery = None) -> int | None:
    """Where to resume: the header's id, else the query's (``None`` for neither, or a blank one)."""
    value = header if header is not None else last_event_id
    if value is None or value.strip() == "":
        return None
    try:
        parsed = int(value.strip())
    except ValueError:
        parsed = -1
    if not 0 <= parsed <= INT64_MAX:
        raise InvalidLastEventId(value)
    return parsed


LastEventId = Annotated[int | None, Depends(_last_event_id)]


def _response(
    db: DB, hub: svc.EventHub, settings: AppSettings, session_id: str | None, last: int | None
) -> StreamingResponse:
    frames = svc.stream(
        db,
        hub,
        session_id=session_id,
        last_id=last,
        keepalive_s=settings.events_keepalive_s,
    )
    return StreamingResponse(frames, media_type=SSE_MEDIA_TYPE, headers=_STREAM_HEADERS)


@router.get(
    "/events",
    **operation(
        "events-stream",
        "Stream every event (Server-Sent Events)",
        None,
        READ,
        InvalidLastEventId,
        ok=_SSE_RESPONSE,
        response_class=StreamingResponse,
    ),
)
async def all_events(db: DB, hub: Hub, settings: AppSettings, last: LastEventId) -> StreamingResponse:
    """Every event of the store, live. 400 ``invalid_last_event_id``."""
    return _response(db, hub, settings, None, last)


@router.get(
    "/sessions/{session_id}/events",
    **operation(
        "sessions-events",
        "Stream one session's events (Server-Sent Events)",
        None,
        READ,
        InvalidLastEventId,
        SessionNotFound,
        ok=_SSE_RESPONSE,
        response_class=StreamingResponse,
    ),
)
async def session_events(
    db: DB,
    hub: Hub,
    settings: AppSettings,
    session_id: SessionId,
    last: LastEventId,
) -> StreamingResponse:
    """The events of one session, live. 404 ``session_not_found`` (checked when the stream opens);
    400 ``invalid_last_event_id``."""
    await db.read(lambda tx: get_session(tx, session_id))
    return _response(db, hub, settings, session_id, last)
