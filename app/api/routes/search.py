"""Search endpoints: ``GET /search`` and ``POST /search`` share one implementation."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query, Response

from app.api.deps import DB
from app.api.error_docs import JSON_BODY, READ
from app.api.operations import api_router, operation
from app.api.responses import json_response
from app.api.schemas.search import SearchBody, SearchQuery, SearchResponse
from app.errors import AnchorInCurrentLineage, InvalidRole, InvalidText, MessageNotInSession, SessionNotFound
from app.services import search as svc

router = api_router("search")

_ERRORS = (SessionNotFound, MessageNotInSession, AnchorInCurrentLineage, InvalidRole)
_DESCRIPTION = (
    "The shape follows from the arguments: `session_id` + `around_message_id` → scroll; `session_id` → read;"
    ' `q` → discover; nothing (or a blank `q`) → browse. `q` accepts FTS5 syntax (implicit AND, `"phrases"`,'
    " `OR`, `NOT`, `prefix*`); anything else is made safe. Errors: 404 `session_not_found`,"
    " 404 `message_not_in_session`, 409 `anchor_in_current_lineage` (scroll inside the caller's own lineage),"
    " 422 `invalid_role`."
)


def names(value: str | list[str] | None) -> tuple[str, ...] | None:
    """Comma-separated and/or repeated names as a tuple (``None`` when none were given)."""
    if value is None:
        return None
    items = [value] if isinstance(value, str) else value
    found = tuple(part.strip() for item in items for part in item.split(",") if part.strip())
    return found or None


def searched_roles(value: str | list[str] | None) -> tuple[str, ...]:
    """The roles a search looks at (user and assistant unless named). 422 ``invalid_role``."""
    roles = names(value)
    if roles is None:
        return svc.DEFAULT_ROLES
    unknown = sorted(set(roles) - svc.ROLES)
    if unknown:
        raise InvalidRole(unknown, sorted(svc.ROLES))
    return roles


def _request(body: SearchQuery | SearchBody) -> svc.SearchRequest:
    return svc.SearchRequest(
        q=body.q,
        session_id=body.session_id,
        around_message_id=body.around_message_id,
        window=body.window,
        limit=body.limit,
        sort=svc.Sort(body.sort),
        roles=searched_roles(body.role),
        sources=names(body.source),
        exclude_sources=names(body.exclude_source) or (),
        home=body.home,
        cwd=body.cwd or None,
        workspace=(body.workspace or "").strip() or None,
        current_session_id=body.current_session_id,
        detail=svc.Detail(body.detail),
    )


async def _run(db: DB, body: SearchQuery | SearchBody) -> Response:
    request = _request(body)
    result = await db.read(lambda tx: svc.search(tx, request))
    return json_response(result)


@router.get(
    "/search",
    **operation(
        "search-run",
        "Search past sessions",
        SearchResponse,
        READ,
        _ERRORS,
        InvalidText,
        description=_DESCRIPTION,
    ),
)
async def search_get(db: DB, query: Annotated[SearchQuery, Query()]) -> Response:
    """Search past sessions (discover, scroll, read or browse)."""
    return await _run(db, query)


@router.post(
    "/search",
    **operation(
        "search-post",
        "Search past sessions (arguments as a JSON body)",
        SearchResponse,
        READ,
        JSON_BODY,
        _ERRORS,
        description=_DESCRIPTION,
    ),
)
async def search_post(db: DB, body: SearchBody) -> Response:
    """Search past sessions with the arguments as a JSON body (same fields as ``GET /search``)."""
    return await _run(db, body)
