"""The Jinja2 environment of the page: templates from the package, every value escaped by default."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from urllib.parse import urlencode

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from app.web.row_html import row_html
from app.web.timefmt import utc_time

TEMPLATES = Path(__file__).parent / "templates"
STATIC = Path(__file__).parent / "static"


def query(params: dict[str, object]) -> str:
    """A query string from the non-empty values of ``params`` (lists repeat their name)."""
    pairs: list[tuple[str, str]] = []
    for name, value in params.items():
        values = value if isinstance(value, list | tuple) else [value]
        pairs.extend((name, str(v)) for v in values if v not in (None, "", False))
    return urlencode(pairs)


@cache
def environment() -> Environment:
    """The one environment, built on first use."""
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(["html"], default_for_string=True),
        undefined=StrictUndefined,
        # Package data: nothing edits the templates while the server runs, so no stat() per render.
        auto_reload=False,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["utc"] = utc_time
    env.globals["query"] = query
    env.globals["row_html"] = row_html
    return env
