"""The session listing's answer (a page, its cursor and ``Link`` header), for the route and the fast path."""

from __future__ import annotations

import functools
import hashlib
from dataclasses import astuple, replace
from functools import cache
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from app.api.pagination import decode_cursor, encode_cursor, set_next_link
from app.api.responses import json_response
from app.api.schemas.filters import session_filter
from app.api.schemas.sessions import SessionListQuery
from app.domain.session_filter import SessionFilter, TimeBounds
from app.errors import InvalidCursor
from app.services import sessions as svc
from app.services.sessions import ListPage, ListQuery
from app.storage.protocols import Store

_NO_BOUNDS = TimeBounds()
# The position member that carries the first page's resolved time window, [started_before, started_after].
_WINDOW = "w"


def cursor_kind(query: ListQuery, bounds: TimeBounds = _NO_BOUNDS) -> str:
    """The cursor kind of a listing: its order and a digest of everything that selects its rows, the time
    filters as typed (``5h``, not the instant it meant), so a cursor from one listing or filter set is
    refused by another."""
    q = query
    selection = (
        q.sources,
        q.exclude_sources,
        q.status,
        q.include_children,
        q.include_archived,
        q.search,
        q.pinned_only,
    )
    return f"sessions:{q.order}:{_digest(selection, q.filter, bounds)}"


@functools.lru_cache(maxsize=256)
def _digest(selection: tuple[Any, ...], flt: SessionFilter, bounds: TimeBounds) -> str:
    # Cached: the plain listing asks for the same digest on every page it serves.
    criteria = replace(flt, started_before=None, started_after=None)
    return hashlib.sha256(repr((selection, astuple(criteria), astuple(bounds))).encode()).hexdigest()[:16]


def cursor_position(kind: str, order: str, cursor: str) -> dict[str, Any]:
    """A listing cursor's position, its members checked (else 400 ``invalid_cursor``)."""
    position = decode_cursor(kind, cursor)
    number: tuple[type, ...] = (int, float)
    keys: dict[str, tuple[type, ...]] = {"s": number, "i": (str,)}
    if order == "last_active":
        keys["a"] = number
    for key, kinds in keys.items():
        value = position.get(key)
        if not isinstance(value, kinds) or isinstance(value, bool):
            raise InvalidCursor()
    return position


def pinned_window(query: ListQuery, bounds: TimeBounds, position: dict[str, Any]) -> ListQuery:
    """The next page of ``query`` from a cursor ``position``: its time window as the first page resolved
    it (the cursor carries it), so ``older_than=5h`` means the same instant on every page."""
    window = position.pop(_WINDOW, None)
    if not bounds.given():
        return replace(query, after=position)
    if (
        not isinstance(window, list)
        or len(window) != 2
        or not all(v is None or (isinstance(v, int | float) and not isinstance(v, bool)) for v in window)
    ):
        raise InvalidCursor()
    flt = replace(query.filter, started_before=window[0], started_after=window[1])
    return replace(query, filter=flt, after=position)


def next_page_cursor(query: ListQuery, bounds: TimeBounds, page: ListPage) -> str | None:
    """The cursor of the page after ``page`` (``None`` on the last); with time filters it carries the
    window the first page resolved."""
    if not page.next_position:
        return None
    position = page.next_position
    if bounds.given():
        position = {**position, _WINDOW: [query.filter.started_before, query.filter.started_after]}
    return encode_cursor(cursor_kind(query, bounds), position)


def listing_query(params: SessionListQuery) -> tuple[ListQuery, TimeBounds]:
    """The listing ``GET /sessions`` parameters ask for, and their time filters as typed; a cursor's page
    keeps the time window the first page resolved. 400 ``invalid_cursor``; 422 ``invalid_duration``,
    ``empty_time_window``."""
    sources = tuple(params.source or ())
    query = ListQuery(
        limit=params.limit,
        sources=sources,
        exclude_sources=(
            tuple(params.exclude_source) if params.exclude_source else svc.default_exclusions(sources)
        ),
        status=params.status,
        include_children=params.include_children,
        include_archived=params.include_archived,
        order=params.order,
        search=params.q,
        filter=session_filter(params),
    )
    bounds = params.bounds()
    if params.cursor is not None:
        position = cursor_position(cursor_kind(query, bounds), params.order, params.cursor)
        query = pinned_window(query, bounds, position)
    return query, bounds


async def list_body(db: Store, query: ListQuery, bounds: TimeBounds = _NO_BOUNDS) -> dict[str, Any]:
    """One page of the listing (``items``, ``next_cursor``, ``has_more``); with time filters the cursor
    carries the resolved window."""
    page = await db.read(lambda tx: svc.list_page(tx, query))
    next_cursor = next_page_cursor(query, bounds, page)
    return {"items": page.items, "next_cursor": next_cursor, "has_more": next_cursor is not None}


async def list_response(
    request: Request, db: Store, query: ListQuery, bounds: TimeBounds = _NO_BOUNDS
) -> Response:
    """Read one page of the listing and render it with its ``Link`` header."""
    body = await list_body(db, query, bounds)
    response = json_response(body)
    set_next_link(request, response, body["next_cursor"])
    return response


@cache  # one frozen query per valid limit (a few hundred at most), built once rather than per listing
def default_list_query(limit: int) -> ListQuery:
    """The listing with every filter at its default: what ``GET /sessions?limit=N`` means."""
    return replace(ListQuery(exclude_sources=svc.default_exclusions(())), limit=limit)
