"""One list row as HTML, written directly: the list page renders 50 of them per request, and a template
macro per row cost several times the listing itself. Every value goes through ``html.escape``."""

from __future__ import annotations

from html import escape
from typing import Any
from urllib.parse import quote

from markupsafe import Markup

from app.web.timefmt import relative_time, utc_time

# A session counts as live while it is open and had activity this recently (the dashboard's rule).
LIVE_WITHIN_S = 300


def _workspace(s: Any) -> str:
    path = s["git_repo_root"] or s["cwd"]
    if not path:
        return ""
    name = path.rstrip("/").rsplit("/", 1)[-1] or path
    return f'<span class="ws" title="{escape(path)}">{escape(name)}</span>'


def _marks(s: Any, now: float) -> str:
    marks = []
    if s["ended_at"] is None and now - s["last_active"] < LIVE_WITHIN_S:
        marks.append('<span class="mark live">live</span>')
    if s["pinned"]:
        marks.append('<span class="mark pinned">pinned</span>')
    if s["archived"]:
        marks.append('<span class="mark archived">archived</span>')
    return "".join(marks)


def row_html(s: Any, now: float) -> Markup:
    """The ``<li>`` of one listed session (a ``SessionRow``)."""
    sid = escape(s["id"])
    name = s["title"] or s["preview"] or s["id"]
    label = escape(name) if s["title"] else f'<span class="preview">{escape(name)}</span>'
    model = f'<span class="model">{escape(s["model"])}</span>' if s["model"] else ""
    tools = f'<span class="count">{s["tool_call_count"]} tools</span>' if s["tool_call_count"] else ""
    when = utc_time(s["last_active"])
    source = escape(s["source"])
    ago = relative_time(s["last_active"], now)
    return Markup(
        f'<li class="row" id="row-{sid}" data-id="{sid}"><input type="checkbox" class="pick" name="ids" '
        f'value="{sid}" form="bulk" aria-label="Select {escape(name)}">'
        f'<div class="cell"><a class="open" href="/s/{escape(quote(s["id"], safe=""))}">{label}</a>'
        f'<div class="meta"><span class="badge src-{source}">{source}</span>{_marks(s, now)}{_workspace(s)}'
        f'{model}<span class="count">{s["message_count"]} msg</span>{tools}'
        f'<time datetime="{when}" title="{when}">{ago}</time></div></div></li>'
    )
