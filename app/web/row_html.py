"""The list's rows as HTML, written directly, each row remembered: the list page shows 50 rows per request,
and a template per row cost several times the listing itself. Every value goes through ``html.escape``.

A row's HTML depends only on the row: the relative time and the live mark, which change with the clock,
are filled in by the page's script from the ``data-ts`` and ``data-live-until`` attributes.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from html import escape
from operator import itemgetter
from typing import Any
from urllib.parse import quote

from markupsafe import Markup

from app.web.listing import Day
from app.web.timefmt import utc_time
from app.web.urls import query

# A session counts as live while it is open and had activity this recently (the dashboard's rule).
LIVE_WITHIN_S = 300
# Rows remembered: a few pages of several views.
CACHED_ROWS = 4096

_FIELDS = (
    "id",
    "title",
    "preview",
    "source",
    "git_repo_root",
    "cwd",
    "model",
    "message_count",
    "tool_call_count",
    "last_active",
    "ended_at",
    "pinned",
    "archived",
)


_fields = itemgetter(*_FIELDS)


def rows_html(groups: Sequence[Day], view: dict[str, Any], cursor: str | None, first: bool) -> str:
    """One page of the list: its day groups and, when there is more, the button loading the next page;
    the first page of an empty view says so."""
    out: list[str] = []
    for day in groups:
        out.append(f'<h2 class="day">{escape(day.label)}</h2>\n<ul class="rows">\n')
        out.extend(row_html(s) for s in day.rows)
        out.append("\n</ul>\n")
    if not groups and first:
        out.append('<p class="empty">No sessions here.</p>\n')
    if cursor:
        more = escape(query({**view, "cursor": cursor}))
        out.append(
            f'<button type="button" class="more" hx-get="/rows?{more}" hx-target="this" '
            'hx-swap="outerHTML">Load more</button>\n'
        )
    return "".join(out)


def row_html(s: Any) -> Markup:
    """The ``<li>`` of one listed session (a ``SessionRow``)."""
    return _row(*_fields(s))


@lru_cache(maxsize=CACHED_ROWS)
def _row(
    session_id: str,
    title: str | None,
    preview: str | None,
    source: str,
    repo: str | None,
    cwd: str | None,
    model: str | None,
    messages: int,
    tools: int,
    last_active: float,
    ended_at: float | None,
    pinned: bool,
    archived: bool,
) -> Markup:
    sid = escape(session_id)
    name = title or preview or session_id
    label = escape(name) if title else f'<span class="preview">{escape(name)}</span>'
    marks = []
    if ended_at is None:
        marks.append(
            f'<span class="mark live" data-live-until="{last_active + LIVE_WITHIN_S}" hidden>live</span>'
        )
    if pinned:
        marks.append('<span class="mark pinned">pinned</span>')
    if archived:
        marks.append('<span class="mark archived">archived</span>')
    path = repo or cwd
    workspace = ""
    if path:
        short = path.rstrip("/").rsplit("/", 1)[-1] or path
        workspace = f'<span class="ws" title="{escape(path)}">{escape(short)}</span>'
    shown_model = f'<span class="model">{escape(model)}</span>' if model else ""
    tool_count = f'<span class="count">{tools} tools</span>' if tools else ""
    when = utc_time(last_active)
    src = escape(source)
    return Markup(
        f'<li class="row" id="row-{sid}" data-id="{sid}"><input type="checkbox" class="pick" name="ids" '
        f'value="{sid}" form="bulk" aria-label="Select {escape(name)}">'
        f'<div class="cell"><a class="open" href="/s/{escape(quote(session_id, safe=""))}">{label}</a>'
        f'<div class="meta"><span class="badge src-{src}">{src}</span>{"".join(marks)}{workspace}'
        f'{shown_model}<span class="count">{messages} msg</span>{tool_count}'
        f'<time datetime="{when}" title="{when}" data-ts="{last_active}">{when[:16]}</time></div></div></li>'
    )
