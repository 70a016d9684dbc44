"""Tidying through the page: rename, pin, archive, delete, bulk actions, prune and "delete empty".

Each change runs the same service function as the JSON API, so both agree by construction, and needs the
signed-in cookie plus htmx's header (:func:`app.web.access.changer`). Errors the services raise (a taken
title, say) leave as problem+json, whose ``detail`` the page shows.
"""

from __future__ import annotations

import time
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Form
from starlette.responses import Response

from app.api.deps import DB
from app.api.json_body import PolicyRoute
from app.api.params import SessionId
from app.api.schemas.common import SafeText
from app.domain.retention import cutoff
from app.domain.session_filter import SessionFilter
from app.services import lineage as lineage_svc
from app.services import maintenance
from app.services import sessions as svc
from app.storage.protocols import Tx
from app.web.access import changer
from app.web.responses import page

# PolicyRoute: a JSON body sent here instead of a form is judged like any other (app.api.json_body).
router = APIRouter(include_in_schema=False, dependencies=[Depends(changer)], route_class=PolicyRoute)

Flag = Literal["pin", "unpin", "archive", "unarchive"]
BulkAction = Literal["pin", "unpin", "archive", "unarchive", "delete"]
# At most this many sessions change in one bulk request (a page shows 50 at a time).
MAX_BULK = 500
MAX_PRUNE_DAYS = 36500.0


def _apply(tx: Tx, session_id: str, action: BulkAction) -> None:
    if action == "delete":
        svc.delete_session(tx, session_id, None)
    elif action in ("pin", "unpin"):
        svc.set_pinned(tx, session_id, action == "pin")
    else:
        svc.update_session(tx, session_id, {"archived": action == "archive"}, None)


async def _head(db: DB, session_id: str) -> Response:
    session = await db.read(lambda tx: svc.get_session(tx, session_id))
    family = await db.read(lambda tx: lineage_svc.family(tx, session_id))
    return page("head.html", session=session, family=family)


@router.post("/s/{session_id}/title", name="web-rename")
async def rename(
    db: DB, session_id: SessionId, title: Annotated[SafeText, Form(max_length=4096)] = ""
) -> Response:
    """Rename a session (a blank title clears it), as ``PATCH /sessions/{id}`` does."""
    changes = {"title": title.strip() or None}
    await db.write(lambda tx: svc.update_session(tx, session_id, changes, None))
    return await _head(db, session_id)


@router.post("/s/{session_id}/delete", name="web-delete")
async def delete(db: DB, session_id: SessionId) -> Response:
    """Delete a session and its messages (the page asked for confirmation), then go back to the list."""
    await db.write(lambda tx: svc.delete_session(tx, session_id, None))
    return Response(status_code=204, headers={"HX-Redirect": "/"})


@router.post("/s/{session_id}/{flag}", name="web-flag")
async def set_flag(db: DB, session_id: SessionId, flag: Flag) -> Response:
    """Pin, unpin, archive or unarchive one session."""
    await db.write(lambda tx: _apply(tx, session_id, flag))
    return await _head(db, session_id)


@router.post("/bulk", name="web-bulk")
async def bulk(
    db: DB,
    action: Annotated[BulkAction, Form()],
    ids: Annotated[list[SafeText], Form(max_length=MAX_BULK)],
) -> Response:
    """One action on every selected session, in one transaction; the list then reloads."""
    chosen = list(dict.fromkeys(ids))

    def run(tx: Tx) -> None:
        for session_id in chosen:
            if tx.sessions.session_exists(session_id):
                _apply(tx, session_id, action)

    await db.write(run)
    return Response(status_code=204, headers={"HX-Refresh": "true"})


def _prune_filter(kind: str, days: float, source: str | None) -> SessionFilter:
    # Archived sessions stay out, as in POST /maintenance/prune without include_archived.
    if kind == "empty":
        return SessionFilter(max_messages=0, archived=False)
    return SessionFilter(started_before=cutoff(time.time(), days), source=source or None, archived=False)


@router.post("/prune", name="web-prune")
async def prune(
    db: DB,
    kind: Annotated[Literal["old", "empty"], Form()] = "old",
    days: Annotated[float, Form(ge=0, le=MAX_PRUNE_DAYS)] = 90,
    source: Annotated[SafeText | None, Form(max_length=64)] = None,
    confirm: Annotated[bool, Form()] = False,
    ids: Annotated[list[SafeText] | None, Form(max_length=100_000)] = None,
) -> Response:
    """A dry run listing exactly what would go; with ``confirm``, delete those sessions (re-checked, so a
    session reopened or pinned since the preview stays)."""
    if source:
        svc.parse_source(source)
    flt = _prune_filter(kind, days, source)
    if not confirm or not ids:
        result = await maintenance.prune_matching(db, flt, dry_run=True)
        return page("prune.html", result=result, kind=kind, days=days, source=source or "", done=False)
    result = await maintenance.prune_matching(db, flt, dry_run=False, ids=list(ids))
    return page("prune.html", result=result, kind=kind, days=days, source=source or "", done=True)
