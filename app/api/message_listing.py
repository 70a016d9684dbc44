"""A page of a session's messages as ``GET /sessions/{id}/messages`` answers it, for the route and the MCP
``session_messages`` tool: the arguments checked, the cursor read and written, the body. The route's query
parameters are declared once, on :func:`message_query`, which the route takes as its dependency."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Query

from app.api.pagination import decode_cursor, encode_cursor
from app.api.params import SessionId
from app.api.schemas.messages import MAX_MESSAGE_ID, Role
from app.errors import ConflictingParameters, InvalidCursor
from app.services import messages as svc
from app.storage.protocols import Store
from app.storage.rows import MessageQuery

_CURSOR_KIND = "messages"


async def message_query(
    session_id: SessionId,
    limit: Annotated[int, Query(ge=1, le=1000, description="Page size 1-1000")] = 100,
    cursor: Annotated[str | None, Query(description="next_cursor of the previous page")] = None,
    after: Annotated[int | None, Query(ge=1, le=MAX_MESSAGE_ID, description="Messages after this id")] = None,
    before: Annotated[
        int | None, Query(ge=1, le=MAX_MESSAGE_ID, description="The newest messages before this id")
    ] = None,
    around: Annotated[
        int | None, Query(ge=1, le=MAX_MESSAGE_ID, description="Anchor id: a window of messages around it")
    ] = None,
    window: Annotated[int, Query(ge=1, le=100, description="With around: messages on each side")] = 5,
    role: Annotated[list[Role] | None, Query(description="Only these roles (repeatable)")] = None,
    include_inactive: Annotated[bool, Query(description="Include rewound and compacted messages")] = False,
) -> MessageQuery:
    """The page asked for; ``cursor`` overrides ``after``/``before``, and ``around`` goes with neither.
    400 ``invalid_cursor``; 422 ``conflicting_parameters``."""
    # async: FastAPI would run a plain function on a worker thread, for a few checks.
    if cursor is not None:
        position = decode_cursor(_CURSOR_KIND, cursor)
        after, before = _cursor_id(position, "after"), _cursor_id(position, "before")
        if (after is None) == (before is None):
            raise InvalidCursor()
    if after is not None and before is not None:
        raise ConflictingParameters("after", "before")
    if around is not None and (after is not None or before is not None):
        raise ConflictingParameters("around", "after, before or cursor")
    return MessageQuery(
        session_id=session_id,
        limit=limit,
        after=after,
        before=before,
        around=around,
        window=window,
        roles=tuple(dict.fromkeys(role or ())),
        include_inactive=include_inactive,
    )


async def message_page(db: Store, query: MessageQuery) -> dict[str, Any]:
    """The page's body: ``items``, ``next_cursor``, ``has_more`` (and the window's counts with ``around``).
    404 ``session_not_found``, ``message_not_in_session``."""
    page = await db.read(lambda tx: svc.list_messages(tx, query))
    next_cursor = None if page.next_position is None else encode_cursor(_CURSOR_KIND, page.next_position)
    return {"items": page.items, "next_cursor": next_cursor, "has_more": page.has_more, **page.window}


def _cursor_id(position: dict[str, Any], key: str) -> int | None:
    value = position.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_MESSAGE_ID:
        raise InvalidCursor()
    return value
