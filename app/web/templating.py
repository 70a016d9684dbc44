"""The Jinja2 environment of the page: templates from the package, every value escaped by default."""

from __future__ import annotations

import datetime
import math
import time
from functools import cache
from pathlib import Path
from urllib.parse import urlencode

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

TEMPLATES = Path(__file__).parent / "templates"
STATIC = Path(__file__).parent / "static"

_UNITS = ((86400 * 365, "y"), (86400 * 30, "mo"), (86400 * 7, "w"), (86400, "d"), (3600, "h"), (60, "m"))


def relative_time(ts: float | None, now: float | None = None) -> str:
    """``5m ago``, ``3d ago``; ``just now`` under a minute."""
    if ts is None:
        return ""
    seconds = (time.time() if now is None else now) - ts
    if seconds < 60:
        return "just now"
    for size, unit in _UNITS:
        if seconds >= size:
            return f"{math.floor(seconds / size)}{unit} ago"
    return "just now"


def utc_time(ts: float | None) -> str:
    """An ISO date and time in UTC, for ``datetime`` attributes and titles."""
    if ts is None:
        return ""
    return datetime.datetime.fromtimestamp(ts, datetime.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


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
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["ago"] = relative_time
    env.filters["utc"] = utc_time
    env.globals["query"] = query
    return env
