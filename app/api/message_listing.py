"""A page of a session's messages as ``GET /sessions/{id}/messages`` answers it, for the route and the MCP
``session_messages`` tool: the arguments checked, the cursor read and written, the body."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.api.pagination import decode_cursor, encode_cursor
from app.api.schemas.messages import MAX_MESSAGE_ID
from app.errors import ConflictingParameters, InvalidCursor
from app.services import messages as svc
from app.storage.protocols import Store
from app.storage.rows import MessageQuery

_CURSOR_KIND = "messages"


def message_query(
    session_id: str,
    *,
    limit: int,
    cursor: str | None,
    after: int | None,
    before: int | None,
    around: int | None,
    window: int,
    role: Sequence[str] | None,
    include_inactive: bool,
) -> MessageQuery:
    """The page asked for; ``cursor`` overrides ``after``/``before``, and ``around`` goes with neither.
    400 ``invalid_cursor``; 422 ``conflicting_parameters``."""
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
