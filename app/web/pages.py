"""The pages people read: the session list (with search), a transcript, and the fragments htmx loads."""

from __future__ import annotations

import asyncio
import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from starlette.responses import Response

from app.api.deps import DB
from app.api.params import SessionId
from app.api.session_listing import cursor_kind, cursor_position, next_page_cursor, pinned_window
from app.domain.highlight import marked_snippet, query_terms
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
from app.web.entry_html import entries_html
from app.web.listing import PageQuery, View
from app.web.responses import html_response, page
from app.web.row_html import rows_html
from app.web.shell import list_page_html
from app.web.templating import render

router = APIRouter(include_in_schema=False, dependencies=[Depends(reader)])

# Messages per transcript page, and either side of a message a link opens at.
TRANSCRIPT_PAGE = 60
AROUND = 30

MessageId = Annotated[int, Query(ge=0, le=INT64_MAX)]


async def _rows(db: DB, params: PageQuery) -> tuple[list[Any], str | None]:
    """One page of the view's listing and the cursor after it."""
    query, bounds = listing.list_query(params)
    shown = query
    if params.cursor is not None:
        position = cursor_position(cursor_kind(query, bounds), params.order, params.cursor)
        shown = pinned_window(query, bounds, position)
    found = await db.read(lambda tx: sessions_svc.list_page(tx, shown))
    return found.items, next_page_cursor(query, bounds, found)


def _hits(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [{**hit, "marked": marked_snippet(str(hit.get("snippet") or ""))} for hit in result["results"]]


def _rows_html(params: PageQuery, rows: list[Any], cursor: str | None, first: bool) -> str:
    groups = listing.days(rows, params.order, time.time())
    return rows_html(groups, params.url_params(), cursor, first)


@router.get("/", name="web-list")
async def list_page(db: DB, params: View) -> Response:
    """The session list in day groups with its filters, stats and, for a search, the matching messages."""
    text = params.search_text()
    hits_html = ""
    if text is None:
        rows, cursor = await _rows(db, params)
    else:
        request = listing.search_request(params, text)
        # Titles and ids (the listing's search) and message content, on two reader threads at once.
        (rows, cursor), found = await asyncio.gather(
            _rows(db, params), db.read(lambda tx: search_svc.search(tx, request))
        )
        hits_html = render("hits.html", search=text, hits=_hits(found))
    return html_response(list_page_html(params, hits_html, _rows_html(params, rows, cursor, first=True)))


@router.get("/stats-bar", name="web-stats")
async def stats_fragment(db: DB) -> Response:
    """The stats bar with each source's count, loaded after the list so the list never waits for it."""
    return page("stats.html", stats=await maintenance.stats(db))


@router.get("/rows", name="web-rows")
async def rows_fragment(db: DB, params: View) -> Response:
    """The rows of one page of the list (the next page, or the first again after a live change)."""
    rows, cursor = await _rows(db, params)
    return html_response(_rows_html(params, rows, cursor, first=params.cursor is None))


def _transcript_values(items: list[Any], session_id: str, q: str | None) -> dict[str, Any]:
    return {"entries_html": entries_html(entries(items), session_id, query_terms(q or ""))}


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
        **_transcript_values(items, session_id, q),
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
        **_transcript_values(items, session_id, q),
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
        **_transcript_values(items, session_id, q),
    )
