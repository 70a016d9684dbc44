"""The pages people read: the session list (with search), a transcript, and the fragments htmx loads."""

from __future__ import annotations

import asyncio
import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from starlette.responses import Response

from app.api.deps import DB
from app.api.params import SessionId
from app.api.session_listing import cursor_position, next_page_cursor
from app.domain.highlight import marked_snippet, marked_terms, query_terms
from app.domain.json_policy import INT64_MAX
from app.domain.transcript import entries
from app.errors import MessageNotInSession, SessionNotFound
from app.services import lineage as lineage_svc
from app.services import maintenance
from app.services import messages as messages_svc
from app.services import search as search_svc
from app.services import sessions as sessions_svc
from app.storage.protocols import Tx
from app.storage.rows import MessageQuery, SessionRow
from app.web import listing
from app.web.access import reader
from app.web.listing import PageQuery, View
from app.web.responses import page

router = APIRouter(include_in_schema=False, dependencies=[Depends(reader)])

# Messages per transcript page, and either side of a message a link opens at.
TRANSCRIPT_PAGE = 60
AROUND = 30

MessageId = Annotated[int, Query(ge=0, le=INT64_MAX)]


async def _rows(db: DB, params: PageQuery) -> tuple[list[Any], str | None]:
    """One page of the view's listing and the cursor after it."""
    query, bounds = listing.list_query(params)
    position = None
    if params.cursor is not None:
        position = cursor_position(listing.kind(params), params.order, params.cursor)
    shown = listing.page_query(params, position)
    found = await db.read(lambda tx: sessions_svc.list_page(tx, shown))
    return found.items, next_page_cursor(query, bounds, found)


def _hits(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [{**hit, "marked": marked_snippet(str(hit.get("snippet") or ""))} for hit in result["results"]]


@router.get("/", name="web-list")
async def list_page(db: DB, params: View) -> Response:
    """The session list in day groups with its filters, stats and, for a search, the matching messages."""
    text = params.search_text()
    hits: list[dict[str, Any]] = []
    if text is None:
        rows, cursor = await _rows(db, params)
    else:
        request = listing.search_request(params, text)
        # Titles and ids (the listing's search) and message content, on two reader threads at once.
        (rows, cursor), found = await asyncio.gather(
            _rows(db, params), db.read(lambda tx: search_svc.search(tx, request))
        )
        hits = _hits(found)
    now = time.time()
    return page(
        "list.html",
        params=params,
        view=params.url_params(),
        groups=listing.days(rows, params.order, now),
        cursor=cursor,
        hits=hits,
        first=True,
        search=text,
        sources=listing.source_names(),
    )


@router.get("/stats-bar", name="web-stats")
async def stats_fragment(db: DB) -> Response:
    """The stats bar with each source's count, loaded after the list so the list never waits for it."""
    return page("stats.html", stats=await maintenance.stats(db))


@router.get("/rows", name="web-rows")
async def rows_fragment(db: DB, params: View) -> Response:
    """The rows of one page of the list (the next page, or the first again after a live change)."""
    rows, cursor = await _rows(db, params)
    now = time.time()
    return page(
        "rows.html",
        view=params.url_params(),
        groups=listing.days(rows, params.order, now),
        cursor=cursor,
        first=params.cursor is None,
    )


def _transcript_values(items: list[Any], q: str | None) -> dict[str, Any]:
    terms = query_terms(q or "")
    return {"entries": entries(items), "terms": terms, "mark": marked_terms}


@router.get("/s/{session_id}", name="web-transcript")
async def transcript_page(
    db: DB, session_id: SessionId, at: MessageId | None = None, q: str | None = None
) -> Response:
    """A transcript from its newest end (or around message ``at``), its lineage strip and actions."""
    if at is None:
        query = MessageQuery(session_id=session_id, limit=TRANSCRIPT_PAGE, before=INT64_MAX)
    else:
        query = MessageQuery(session_id=session_id, around=at, window=AROUND)

    def read(tx: Tx) -> tuple[messages_svc.MessageListing, SessionRow, lineage_svc.Family]:
        found = messages_svc.list_messages(tx, query)
        return found, sessions_svc.get_session(tx, session_id), lineage_svc.family(tx, session_id)

    try:
        found, session, family = await db.read(read)
    except (SessionNotFound, MessageNotInSession) as exc:
        # A person followed a stale link: a page saying so, not a JSON problem.
        return page("missing.html", status_code=404, detail=exc.detail)
    items = found.items
    return page(
        "transcript.html",
        session=session,
        family=family,
        around=at,
        q=q or "",
        first_id=items[0]["id"] if items else None,
        last_id=items[-1]["id"] if items else 0,
        older=bool(items) and (at is not None or found.has_more),
        newer=at is not None,
        **_transcript_values(items, q),
    )


@router.get("/s/{session_id}/older", name="web-older")
async def older_fragment(db: DB, session_id: SessionId, before: MessageId, q: str | None = None) -> Response:
    """The page of messages before ``before``, with a button for the one before it."""
    query = MessageQuery(session_id=session_id, limit=TRANSCRIPT_PAGE, before=before)
    found = await db.read(lambda tx: messages_svc.list_messages(tx, query))
    items = found.items
    return page(
        "older.html",
        session_id=session_id,
        q=q or "",
        first_id=items[0]["id"] if items else None,
        older=found.has_more,
        **_transcript_values(items, q),
    )


@router.get("/s/{session_id}/newer", name="web-newer")
async def newer_fragment(
    db: DB, session_id: SessionId, after: MessageId, q: str | None = None, live: bool = False
) -> Response:
    """Messages after ``after``: the next page for a button, or what arrived since, for the live tail."""
    query = MessageQuery(session_id=session_id, limit=TRANSCRIPT_PAGE, after=after)
    found = await db.read(lambda tx: messages_svc.list_messages(tx, query))
    items = found.items
    if live and not items:
        return Response(status_code=204)
    return page(
        "newer.html",
        session_id=session_id,
        q=q or "",
        last_id=items[-1]["id"] if items else after,
        newer=found.has_more,
        live=live,
        **_transcript_values(items, q),
    )
