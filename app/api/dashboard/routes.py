"""The dashboard's ``/api/status`` and ``/api/sessions*`` routes.

Literal paths (``search``, ``stats``, ``empty``, ``bulk-delete``, ``import``, ``prune``) are declared before
``/api/sessions/{session_id}``, which would otherwise take them for ids. ``{session_id}`` is an exact id or
a unique prefix; an ambiguous prefix names no session, as there.
"""

from __future__ import annotations

import io
import json
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Annotated, Any, TypeVar

import orjson
from fastapi import APIRouter, Depends, Path, Query, Request
from pydantic import ValidationError
from starlette.responses import Response

from app import __version__
from app.api.dashboard import examples as ex
from app.api.dashboard import shapes
from app.api.dashboard.auth import dashboard_auth
from app.api.dashboard.errors import DashboardError, DashboardRoute, error_docs, not_found
from app.api.dashboard.schemas import PRUNE_CRITERIA, BulkDelete, SessionChange, SessionImport, SessionPrune
from app.api.deps import DB, Indexer
from app.api.json_body import parse_json_body
from app.api.responses import json_response
from app.domain.retention import cutoff
from app.domain.session_filter import SessionFilter
from app.services import dashboard as dash
from app.services import transfer
from app.services.maintenance import prune_matching
from app.storage.protocols import Store, Tx
from app.storage.rows import ListQuery

TAG = "Agent dashboard API"
# 0.20's cap on one listing page.
MAX_PAGE = 100
SEARCH_MAX = 100
MESSAGES_MAX = 500
DEFAULT_PROFILE = "default"
T = TypeVar("T")
# The archived filter each choice adds (archived rows are left out of "exclude" by the listing itself).
_ARCHIVED = {"exclude": None, "only": True, "include": None}

public = APIRouter(prefix="/api", tags=[TAG], route_class=DashboardRoute)
router = APIRouter(
    prefix="/api",
    tags=[TAG],
    route_class=DashboardRoute,
    dependencies=[Depends(dashboard_auth)],
    responses=error_docs(400, 401, 404, 422),
)

Profile = Annotated[str | None, Query(description="Only the default profile is served here")]
SessionRef = Annotated[str, Path(description="A session id, or a prefix of exactly one")]
_IMPORT_BODY = {
    "requestBody": {
        "required": True,
        "content": {"application/json": {"schema": SessionImport.model_json_schema()}},
    }
}


def _profile(profile: str | None) -> str | None:
    """The profile asked for (``None``: none named); this server holds one store, the default profile's."""
    name = (profile or "").strip().lower()
    if not name:
        return None
    if name in (DEFAULT_PROFILE, "current"):
        return DEFAULT_PROFILE
    raise DashboardError(404, f"Profile '{name}' does not exist.")


async def _found(db: Store, job: Callable[[Tx], T | None]) -> T:
    """What ``job`` reads of the session a route names; 404 ``Session not found`` when there is none."""
    found = await db.read(job)
    if found is None:
        raise not_found()
    return found


def _bounded(value: int) -> int:
    """A count or position as a database takes it: below zero is none, beyond any store is all."""
    return min(max(0, value), dash.ALL_ROWS)


@public.get(
    "/status",
    **ex.operation(
        "dashboard-status",
        "Server status and version (no token needed)",
        "The server's version, and that the session API wants a token",
        ex.STATUS,
    ),
)
async def status(request: Request) -> dict[str, Any]:
    """What the dashboard's probe reads: the version, and whether the session API wants a token."""
    return {
        "version": __version__,
        "server": "hermes-sessions",
        "auth_required": request.app.state.api_token is not None,
    }


@router.get(
    "/sessions",
    **ex.operation(
        "dashboard-sessions-list",
        "List sessions, an offset page",
        "One page of rows and the total",
        ex.LISTING,
    ),
)
async def list_sessions(
    db: DB,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE, description="Rows on the page (1 to 100)")] = 20,
    offset: Annotated[int, Query(ge=0, le=dash.ALL_ROWS, description="Rows to skip")] = 0,
    min_messages: Annotated[int, Query(description="Only sessions with at least this many messages")] = 0,
    archived: Annotated[str, Query(description="`exclude` (default), `only` or `include`")] = "exclude",
    order: Annotated[
        str, Query(description="`created` (newest first) or `recent` (latest activity)")
    ] = "created",
    source: Annotated[str | None, Query(description="Only this source (`cli`, `telegram`, ...)")] = None,
    exclude_sources: Annotated[str | None, Query(description="Sources to leave out, comma-separated")] = None,
    cwd_prefix: Annotated[str | None, Query(description="Only sessions whose cwd starts with this")] = None,
    full: Annotated[
        bool, Query(description="Include the heavy columns (system prompt, model config)")
    ] = False,
    profile: Profile = None,
) -> Response:
    """Conversations newest first (``order=recent``: by latest activity in the compression chain), one row
    per conversation (a compression chain shown as its tip), children hidden; ``total`` counts them all."""
    # The fast path calls this too, with the parameters as the route parses them.
    if archived not in _ARCHIVED:
        raise DashboardError(400, "archived must be one of: exclude, only, include")
    if order not in ("created", "recent"):
        raise DashboardError(400, "order must be one of: created, recent")
    shown_profile = _profile(profile)
    query = ListQuery(
        limit=limit,
        offset=offset,
        sources=(source,) if source else (),
        exclude_sources=tuple(s for s in (exclude_sources or "").split(",") if s.strip()),
        include_archived=archived != "exclude",
        order="started" if order == "created" else "last_active",
        filter=SessionFilter(
            min_messages=_bounded(min_messages) or None,
            cwd=cwd_prefix or None,
            archived=_ARCHIVED[archived],
        ),
    )
    found = await db.read(lambda tx: dash.listing(tx, query))
    now = time.time()
    rows = [shapes.listed(row, now, full=full, profile=shown_profile) for row in found.rows]
    return json_response({"sessions": rows, "total": found.total, "limit": limit, "offset": offset})


@router.get(
    "/sessions/search",
    **ex.operation(
        "dashboard-sessions-search", "Search ids and messages", "The hits, one per lineage", ex.SEARCH
    ),
)
async def search_sessions(
    db: DB,
    q: Annotated[str, Query(description="Words to find (each a prefix), or the start of a session id")] = "",
    limit: Annotated[int, Query(description="At most this many results (1 to 100)")] = 20,
    profile: Profile = None,
) -> Response:
    """Sessions whose id starts with ``q`` first, then message hits (each term a prefix, ``>>>x<<<`` marking
    the match), one per compression lineage named by its tip, over the whole store."""
    _profile(profile)
    if not q.strip():
        return json_response({"results": []})
    wanted = max(1, min(limit or 20, SEARCH_MAX))
    hits = await db.read(lambda tx: dash.search(tx, q, wanted))
    return json_response({"results": [shapes.search_result(hit) for hit in hits]})


@router.get(
    "/sessions/stats",
    **ex.operation("dashboard-sessions-stats", "Session and message counts", "The counts", ex.STATS),
)
async def session_stats(db: DB, profile: Profile = None) -> Response:
    """Sessions in all, kept (not archived), archived, messages, and sessions per source."""
    _profile(profile)
    return json_response(await db.read(dash.stats))


@router.get(
    "/sessions/empty/count",
    **ex.operation(
        "dashboard-sessions-empty-count",
        "Count empty sessions",
        "How many a delete of the empty sessions would take",
        ex.EMPTY_COUNT,
    ),
)
async def count_empty(db: DB, profile: Profile = None) -> Response:
    """Ended, unarchived sessions without messages that ``DELETE /api/sessions/empty`` would delete (never
    a pinned one)."""
    _profile(profile)
    return json_response({"count": await db.read(dash.count_empty)})


@router.delete(
    "/sessions/empty",
    **ex.operation(
        "dashboard-sessions-empty-delete", "Delete empty sessions", "How many were deleted", ex.DELETED
    ),
)
async def delete_empty(db: DB, profile: Profile = None) -> Response:
    """Delete the ended, unarchived sessions without messages (through prune: never open or pinned)."""
    _profile(profile)
    return json_response({"ok": True, "deleted": await dash.delete_empty(db)})


@router.post(
    "/sessions/bulk-delete",
    **ex.operation("dashboard-sessions-bulk-delete", "Delete sessions", "How many were deleted", ex.DELETED),
)
async def bulk_delete(db: DB, body: BulkDelete) -> Response:
    """Delete up to 500 sessions by exact id, as ``DELETE /sessions/{id}`` does; unknown ids are skipped."""
    _profile(body.profile)
    if len(body.ids) > dash.BULK_DELETE_MAX:
        raise DashboardError(400, f"ids must contain at most {dash.BULK_DELETE_MAX} entries")
    deleted = await db.write(lambda tx: dash.delete_many(tx, body.ids))
    return json_response({"ok": True, "deleted": deleted})


@router.post(
    "/sessions/import",
    **ex.operation(
        "dashboard-sessions-import",
        "Import exported sessions",
        "What went in, what was already there",
        ex.IMPORTED,
        openapi_extra=_IMPORT_BODY,
    ),
)
async def import_sessions(request: Request, db: DB, indexer: Indexer) -> Response:
    """Import sessions as ``GET /api/sessions/{id}/export`` gives them; existing ids are skipped."""
    # Parsed under the JSON policy (a refusal is its 422), then validated: anything else is the dashboard's
    # 400 for a payload it cannot read.
    try:
        body = SessionImport.model_validate(parse_json_body(await request.body()))
    except (json.JSONDecodeError, ValidationError):
        raise DashboardError(400, "Invalid session import payload") from None
    _profile(body.profile)
    lines = b"".join(orjson.dumps(session) + b"\n" for session in body.sessions)
    with io.BytesIO(lines) as stream:
        report = await transfer.import_stream(db, stream, transfer.ImportRun("skip", False, indexer))
    result = shapes.imported(report)
    if not result["ok"]:
        raise DashboardError(400, result)
    return json_response(result)


@router.post(
    "/sessions/prune",
    **ex.operation(
        "dashboard-sessions-prune",
        "Prune ended sessions",
        "How many went; a dry run lists them instead",
        ex.PRUNED,
    ),
)
async def prune(db: DB, body: SessionPrune) -> Response:
    """Delete the ended sessions every given criterion selects, never an open or a pinned one; a bare prune
    takes those started more than 90 days ago. ``dry_run`` lists them instead."""
    _profile(body.profile)
    window = body.started_before is not None or body.started_after is not None
    if body.older_than_days is not None and body.older_than_days < 1 and not window:
        raise DashboardError(400, "older_than_days must be >= 1")
    criteria = {ours: getattr(body, theirs) for theirs, ours in PRUNE_CRITERIA.items()}
    criteria = {key: value for key, value in criteria.items() if value is not None and value != ""}
    # As the CLI: the implicit 90 days apply to a bare prune only, unless older_than_days was sent.
    older = body.older_than_days
    if window or (criteria and "older_than_days" not in body.model_fields_set):
        older = None
    flt = SessionFilter(
        started_before=body.started_before,
        started_after=body.started_after,
        archived=None if body.include_archived else False,
        **criteria,
    )
    if older is not None:
        flt = replace(flt, started_before=cutoff(time.time(), older))
    result = await prune_matching(db, flt, body.dry_run)
    return json_response(shapes.pruned(result, dry_run=body.dry_run))


@router.get(
    "/sessions/{session_id}",
    **ex.operation(
        "dashboard-sessions-get",
        "One session, every column",
        "The session's row, every column of the agent's table",
        ex.SESSION,
    ),
)
async def get_session(db: DB, session_id: SessionRef, profile: Profile = None) -> Response:
    """The session's row as stored (``archived`` as 0 or 1). 404 ``Session not found``."""
    shown_profile = _profile(profile)
    row = await _found(db, lambda tx: dash.session_columns(tx, session_id))
    if shown_profile is not None:
        row["profile"] = shown_profile
    return json_response(row)


@router.get(
    "/sessions/{session_id}/latest-descendant",
    **ex.operation(
        "dashboard-sessions-latest-descendant",
        "The newest descendant of a session",
        "The walk down to the newest leaf",
        ex.LATEST,
    ),
)
async def latest_descendant(db: DB, session_id: SessionRef, profile: Profile = None) -> Response:
    """The walk from the session down to its newest leaf, through the most recently started child."""
    _profile(profile)
    path = await _found(db, lambda tx: dash.latest_descendant(tx, session_id))
    return json_response(
        {"requested_session_id": path[0], "session_id": path[-1], "path": path, "changed": len(path) > 1}
    )


@router.get(
    "/sessions/{session_id}/messages",
    **ex.operation(
        "dashboard-sessions-messages",
        "A session's messages",
        "One page of the conversation's messages, every column",
        ex.MESSAGES,
    ),
)
async def get_messages(
    db: DB,
    session_id: SessionRef,
    profile: Profile = None,
    limit: Annotated[
        int | None, Query(ge=-dash.ALL_ROWS, description="At most 500 messages; none: all, negative: none")
    ] = None,
    offset: Annotated[
        int, Query(ge=-dash.ALL_ROWS, le=dash.ALL_ROWS, description="Messages to skip from the oldest")
    ] = 0,
) -> Response:
    """The conversation's messages where it goes on (its compression tip), oldest first; ``limit`` (at most
    500; none: all) and ``offset`` page them."""
    _profile(profile)
    shown = None if limit is None else min(limit, MESSAGES_MAX)
    # As SQLite takes them there: a negative limit is none, a negative offset is 0.
    take = None if shown is None or shown < 0 else shown
    sid, rows = await _found(db, lambda tx: dash.messages(tx, session_id, take, _bounded(offset)))
    return json_response(
        {
            "session_id": sid,
            "messages": rows,
            "pagination": {"limit": shown, "offset": offset, "returned": len(rows)},
        }
    )


@router.delete(
    "/sessions/{session_id}",
    **ex.operation(
        "dashboard-sessions-delete",
        "Delete a session",
        "Deleted, or already gone (`already_absent`)",
        ex.REMOVED,
    ),
)
async def delete_session(db: DB, session_id: SessionRef, profile: Profile = None) -> Response:
    """Delete the session as ``DELETE /sessions/{id}`` does; one already gone is a success too."""
    _profile(profile)
    if await db.write(lambda tx: dash.delete_one(tx, session_id)):
        return json_response({"ok": True})
    return json_response({"ok": True, "already_absent": True})


@router.patch(
    "/sessions/{session_id}",
    **ex.operation(
        "dashboard-sessions-update",
        "Rename, archive, pin",
        "The title now, and each flag asked for",
        ex.CHANGED,
    ),
)
async def update_session(db: DB, session_id: SessionRef, body: SessionChange) -> Response:
    """Rename (an empty title clears it), archive or restore, pin or unpin. 400 when nothing is asked or
    the title is refused; 404 ``Session not found``."""
    _profile(body.profile)
    changes = dash.Changes(title=body.title, archived=body.archived, pinned=body.pinned)
    if changes == dash.Changes():
        if await db.read(lambda tx: dash.resolve_id(tx, session_id)) is None:
            raise not_found()
        raise DashboardError(400, "Nothing to update; provide 'title' and/or 'archived'.")
    session = await db.write(lambda tx: dash.update(tx, session_id, changes))
    return json_response(shapes.changed(session, archived=body.archived, pinned=body.pinned))


@router.get(
    "/sessions/{session_id}/export",
    **ex.operation(
        "dashboard-sessions-export",
        "A session and its messages",
        "The row with every message, as the import takes it",
        ex.EXPORT,
    ),
)
async def export_session(db: DB, session_id: SessionRef, profile: Profile = None) -> Response:
    """The session's row with all its messages, as ``POST /api/sessions/import`` takes it back."""
    _profile(profile)
    return json_response(await _found(db, lambda tx: dash.export(tx, session_id)))


@router.api_route(
    "/{rest:path}",
    methods=["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"],
    include_in_schema=False,
)
async def unknown(rest: str) -> Response:
    """Every other ``/api/`` path: the dashboard's 404."""
    raise DashboardError(404, f"No such API endpoint: /api/{rest}")
