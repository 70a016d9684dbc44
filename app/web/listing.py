"""The list page's query: its filters as they live in the URL, turned into the listing's and search's own.

Every filter of the page is a query parameter, so a filtered view is a link that can be kept and shared;
the page adds a few of its own (a source preset, the archive and pinned views) on top of the listing's
filter set, which it reuses as it is.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal

from fastapi import Depends, Request
from fastapi.exceptions import RequestValidationError
from pydantic import Field, ValidationError

from app.api.schemas.common import SafeText
from app.api.schemas.filters import SessionFilterFields, session_filter
from app.api.schemas.sessions import MAX_SEARCH_LENGTH
from app.domain.session_filter import TimeBounds
from app.domain.sources import AUTOMATION_SOURCES, HIDDEN_SOURCES, Source
from app.services import sessions as svc
from app.services.search import SearchRequest
from app.storage.rows import ListQuery, SessionRow

PAGE_SIZE = 50
# Sessions whose messages match a search, shown with their snippet (the search service's most).
SEARCH_RESULTS = 50

Preset = Literal["chats", "automation", "all"]
ArchivedView = Literal["hide", "include", "only"]


class PageQuery(SessionFilterFields):
    """The list page's URL: search, sources, the page's views, then the listing's filter set."""

    q: SafeText | None = Field(default=None, max_length=MAX_SEARCH_LENGTH)
    source: list[str] | None = None
    preset: Preset = "chats"
    archived: ArchivedView = "hide"
    pinned: bool = False
    order: Literal["started", "last_active"] = "started"
    cursor: str | None = Field(default=None, max_length=4096)

    def search_text(self) -> str | None:
        """The search as typed, or ``None`` when blank."""
        text = (self.q or "").strip()
        return text or None

    def url_params(self) -> dict[str, Any]:
        """The parameters that select this view (not the cursor), for links that keep it."""
        values = self.model_dump(exclude={"cursor"}, exclude_defaults=True)
        return {k: v for k, v in values.items() if v not in (None, "", [])}


# Views whose parsed parameters are remembered, by query string (all dropped when full).
PARSED_VIEWS = 256
_parsed: dict[bytes, PageQuery] = {}


async def view_params(request: Request) -> PageQuery:
    """The view's parameters from the query string (``source`` repeated), validated in one step: FastAPI's
    per-field reading of a 30-field query model cost more than the listing it selects. A page reloads the
    same few views, so each distinct query string is validated once (the result is never changed)."""
    raw: bytes = request.scope["query_string"]
    found = _parsed.get(raw)
    if found is not None:
        return found
    values: dict[str, Any] = dict(request.query_params)
    values["source"] = request.query_params.getlist("source") or None
    try:
        parsed = PageQuery.model_validate(values)
    except ValidationError as exc:
        raise RequestValidationError(
            [{**error, "loc": ("query", *error["loc"])} for error in exc.errors(include_url=False)]
        ) from None
    if len(_parsed) >= PARSED_VIEWS:
        _parsed.clear()
    _parsed[raw] = parsed
    return parsed


View = Annotated[PageQuery, Depends(view_params)]


def _sources(params: PageQuery) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The sources to list and to leave out: named ones win over the preset."""
    named = tuple(svc.parse_source(s).value for s in params.source or ())
    if named:
        return named, svc.default_exclusions(named)
    if params.preset == "automation":
        return tuple(sorted(s.value for s in AUTOMATION_SOURCES)), ()
    hidden = HIDDEN_SOURCES | AUTOMATION_SOURCES if params.preset == "chats" else HIDDEN_SOURCES
    return (), tuple(sorted(s.value for s in hidden))


def list_query(params: PageQuery) -> tuple[ListQuery, TimeBounds]:
    """The listing this view shows (first page), and the time bounds as typed (the cursor's kind)."""
    sources, excluded = _sources(params)
    flt = session_filter(params)
    if params.archived == "only":
        flt = replace(flt, archived=True)
    query = ListQuery(
        limit=PAGE_SIZE,
        sources=sources,
        exclude_sources=excluded,
        include_archived=params.archived != "hide",
        order=params.order,
        search=params.search_text(),
        filter=flt,
        pinned_only=params.pinned,
    )
    return query, params.bounds()


def search_request(params: PageQuery, text: str) -> SearchRequest:
    """Search over the messages of the sources this view shows."""
    sources, excluded = _sources(params)
    return SearchRequest(
        q=text,
        limit=SEARCH_RESULTS,
        window=1,
        sources=sources or None,
        exclude_sources=excluded,
        cwd=params.cwd or None,
        workspace=(params.workspace or "").strip() or None,
    )


@dataclass
class Day:
    """Sessions started (or last active, in that order) on one UTC day."""

    label: str
    rows: list[SessionRow]


def day_label(ts: float, today: datetime.date) -> str:
    """``Today``, ``Yesterday``, a weekday within the week, else the date."""
    day = datetime.datetime.fromtimestamp(ts, datetime.UTC).date()
    age = (today - day).days
    if age == 0:
        return "Today"
    if age == 1:
        return "Yesterday"
    if 1 < age < 7:
        return day.strftime("%A")
    return day.isoformat()


def days(rows: list[SessionRow], order: str, now: float) -> list[Day]:
    """Rows grouped by day, in their order (a day split by a page boundary continues on the next)."""
    today = datetime.datetime.fromtimestamp(now, datetime.UTC).date()
    groups: list[Day] = []
    for row in rows:
        ts = row["last_active"] if order == "last_active" else row["started_at"]
        label = day_label(ts, today)
        if not groups or groups[-1].label != label:
            groups.append(Day(label, []))
        groups[-1].rows.append(row)
    return groups


def source_names() -> list[str]:
    """Every source, for the filter's choices."""
    return [s.value for s in Source]
