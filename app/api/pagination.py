"""Opaque keyset cursors and the RFC 8288 ``Link`` header."""

from __future__ import annotations

import base64
import binascii
from typing import Any

import orjson
from fastapi import Request, Response

from app.errors import InvalidCursor

_VERSION = 1


def encode_cursor(kind: str, position: dict[str, Any]) -> str:
    """Encode a position in a listing; ``kind`` keeps a cursor from one listing out of another."""
    raw = orjson.dumps({"v": _VERSION, "k": kind, "p": position})
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def decode_cursor(kind: str, cursor: str) -> dict[str, Any]:
    """Decode a cursor made by :func:`encode_cursor`; anything else is 400 ``invalid_cursor``."""
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        data = orjson.loads(base64.urlsafe_b64decode(padded.encode("ascii")))
    except (binascii.Error, ValueError, UnicodeEncodeError, orjson.JSONDecodeError):
        data = None
    if not isinstance(data, dict) or data.get("v") != _VERSION:
        raise InvalidCursor()
    if data.get("k") != kind:
        raise InvalidCursor(other_listing=isinstance(data.get("k"), str))
    position = data.get("p")
    if not isinstance(position, dict):
        raise InvalidCursor()
    return position


def set_next_link(request: Request, response: Response, next_cursor: str | None) -> None:
    """Add ``Link: <...>; rel="next"`` pointing at the next page, if there is one."""
    if next_cursor is None:
        return
    url = request.url.include_query_params(cursor=next_cursor)
    response.headers["Link"] = f'<{url}>; rel="next"'


# The OpenAPI success entry of a paginated listing: its 200 carries the ``Link`` header set above.
NEXT_LINK_OK: dict[int | str, dict[str, Any]] = {
    200: {"headers": {"Link": {"description": 'rel="next" page', "schema": {"type": "string"}}}}
}
