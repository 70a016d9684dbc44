"""Query strings of the page's links."""

from __future__ import annotations

from urllib.parse import urlencode


def query(params: dict[str, object]) -> str:
    """A query string from the non-empty values of ``params`` (lists repeat their name)."""
    pairs: list[tuple[str, str]] = []
    for name, value in params.items():
        values = value if isinstance(value, list | tuple) else [value]
        pairs.extend((name, str(v)) for v in values if v not in (None, "", False))
    return urlencode(pairs)
