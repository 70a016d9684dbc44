"""How the creating use cases' results are answered over HTTP (status, body, headers), for the routes and
the fast path alike; the reply is also what an ``Idempotency-Key`` replays."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from app.api.responses import encode_body
from app.domain.etag import session_etag
from app.services.idempotency import Reply


def appended(items: list[dict[str, Any]]) -> Reply:
    """201 with the stored messages."""
    return Reply(201, encode_body({"items": items}))


def session_created(public: dict[str, Any]) -> Reply:
    """201 with the new session, its ``Location`` and ``ETag``."""
    location = f"/sessions/{quote(public['id'], safe='')}"
    return Reply(201, encode_body(public), {"Location": location, "ETag": session_etag(public)})
