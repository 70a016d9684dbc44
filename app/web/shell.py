"""The list page around its hits and rows: rendered once per view and remembered.

The page's header, filters and tools depend only on the view (its URL's parameters), while its search hits
and rows change with the store. Rendering the whole template on every request cost more than the listing it
shows, so the chrome is rendered once per distinct view with markers where the hits and the rows go, and
each request joins the remembered pieces around its own.
"""

from __future__ import annotations

import secrets
from collections.abc import Hashable
from typing import Any

from markupsafe import Markup

from app.web import listing
from app.web.listing import PageQuery
from app.web.templating import environment

# Views remembered; a stranger's stream of distinct ones costs one render each, as without.
CACHED_VIEWS = 256
# Random per process: no stored text, search or parameter can contain them.
_HITS = f"<!--hits-{secrets.token_hex(16)}-->"
_ROWS = f"<!--rows-{secrets.token_hex(16)}-->"

_pieces: dict[Hashable, tuple[str, str, str]] = {}


def _key(view: dict[str, Any]) -> Hashable:
    return tuple(sorted((name, tuple(v) if isinstance(v, list) else v) for name, v in view.items()))


def _render(params: PageQuery, view: dict[str, Any]) -> tuple[str, str, str]:
    html = (
        environment()
        .get_template("list.html")
        .render(
            params=params,
            view=view,
            search=params.search_text(),
            sources=listing.source_names(),
            hits_html=Markup(_HITS),
            rows_html=Markup(_ROWS),
        )
    )
    head, rest = html.split(_HITS)
    middle, tail = rest.split(_ROWS)
    return head, middle, tail


def list_page_html(params: PageQuery, hits_html: str, rows_html: str) -> str:
    """The whole list page of ``params``'s view with these hits and rows."""
    view = params.url_params()
    key = _key(view)
    pieces = _pieces.get(key)
    if pieces is None:
        if len(_pieces) >= CACHED_VIEWS:
            _pieces.clear()
        pieces = _pieces[key] = _render(params, view)
    head, middle, tail = pieces
    return f"{head}{hits_html}{middle}{rows_html}{tail}"
