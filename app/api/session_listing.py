"""The session listing's answer (a page, its cursor and ``Link`` header), for the route and the fast path."""

from __future__ import annotations

import hashlib
from dataclasses import replace

from starlette.requests import Request
from starlette.responses import Response

from app.api.pagination import encode_cursor, set_next_link
from app.api.responses import json_response
from app.services import sessions as svc
from app.services.sessions import ListQuery
from app.storage.protocols import Store


def cursor_kind(query: ListQuery) -> str:
    """The cursor kind of a listing: a search listing's cursors carry a digest of its ``q``, so a cursor
    from one search (or from the plain listing) is refused by another."""
    kind = f"sessions:{query.order}"
    if query.search is None:
        return kind
    return f"{kind}:q:{hashlib.sha256(query.search.encode()).hexdigest()[:16]}"


async def list_response(request: Request, db: Store, query: ListQuery) -> Response:
    """Read one page of the listing and render it with its ``Link`` header."""
    page = await db.read(lambda tx: svc.list_page(tx, query))
    next_cursor = encode_cursor(cursor_kind(query), page.next_position) if page.next_position else None
    response = json_response(
        {"items": page.items, "next_cursor": next_cursor, "has_more": next_cursor is not None}
    )
    set_next_link(request, response, next_cursor)
    return response


def default_list_query(limit: int) -> ListQuery:
    """The listing with every filter at its default: what ``GET /sessions?limit=N`` means."""
    return replace(ListQuery(exclude_sources=svc.default_exclusions(())), limit=limit)
