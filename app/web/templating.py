"""The Jinja2 environment of the page: templates from the package, every value escaped by default."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from app.web.timefmt import utc_time
from app.web.urls import query

if TYPE_CHECKING:
    from jinja2 import Environment

TEMPLATES = Path(__file__).parent / "templates"
STATIC = Path(__file__).parent / "static"


@cache
def environment() -> Environment:
    """The one environment, built on first use."""
    # Imported here: the server starts (and most processes that import the app run) without rendering a page.
    from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

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
    return env


def render(template: str, **values: object) -> str:
    """``template`` rendered with ``values``."""
    return environment().get_template(template).render(**values)
