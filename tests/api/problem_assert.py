"""One check for the shape of every error response (RFC 9457 problem+json with our members), and one count of
the rows a refused write must not have added."""

from __future__ import annotations

from typing import Any

from app.settings import Settings
from tests.conftest import HttpResponse, count_rows

PROBLEM_MEMBERS = {"type", "title", "status", "detail", "code", "request_id"}


def assert_problem(
    resp: HttpResponse, status: int, code: str | None = None, *, extra: tuple[str, ...] = ()
) -> dict[str, Any]:
    """Assert ``resp`` is a problem+json error with ``status`` and ``code``; return the body.

    The body must carry exactly the problem members, ``errors`` when present (validation failures), and
    the operation-specific members named in ``extra`` (e.g. ``holder``, ``suggested_title``).
    """
    assert resp.status_code == status, (resp.status_code, resp.text[:500])
    assert resp.headers["content-type"].split(";")[0].strip() == "application/problem+json", resp.headers
    body = resp.json()
    assert isinstance(body, dict)
    allowed = PROBLEM_MEMBERS | {"errors"} | set(extra)
    assert PROBLEM_MEMBERS | set(extra) <= set(body) <= allowed, sorted(body)
    assert body["status"] == status
    assert isinstance(body["type"], str) and body["type"]
    assert isinstance(body["title"], str) and body["title"]
    assert isinstance(body["detail"], str) and body["detail"]
    assert isinstance(body["code"], str) and body["code"].islower() and " " not in body["code"]
    assert body["request_id"] == resp.headers.get("x-request-id")
    if "errors" in body:
        assert isinstance(body["errors"], list)
        for issue in body["errors"]:
            assert set(issue) == {"loc", "msg", "type"}, issue
    if code is not None:
        assert body["code"] == code, body
    return body


def stored_messages(settings: Settings) -> int:
    """How many message rows the store holds (a refused write must leave it unchanged)."""
    return count_rows(settings, "messages")
