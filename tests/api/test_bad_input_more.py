"""More refusals: ended sessions, search text that is not valid FTS5, attachments, huge query values."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.settings import Settings
from tests.api.problem_assert import assert_problem, stored_messages

NASTY_QUERIES = [
    '"',
    '"unbalanced',
    "AND",
    "OR OR",
    "NOT",
    "*",
    "a*b*",
    "NEAR(",
    "NEAR(a b, -1)",
    "col:term",
    "messages_fts:x",
    "^start",
    "-minus",
    "(",
    ")",
    "{a b}",
    "a + b",
    "'; DROP TABLE messages; --",
    "%_\\",
    "\u200b",
    "日",
    "日本",
    "🦘",
    "x" * 5000,
]


@pytest.fixture
def seeded(client: TestClient) -> str:
    sid = client.post("/sessions", json={"source": "cli", "title": "Seeded"}).json()["id"]
    resp = client.post(
        f"/sessions/{sid}/messages",
        json={
            "messages": [
                {"role": "user", "content": "日本語 and kangaroo 🦘"},
                {"role": "assistant", "content": "ok"},
            ]
        },
    )
    assert resp.status_code == 201, resp.text
    return str(sid)


def test_append_to_ended_session(client: TestClient, settings: Settings, seeded: str) -> None:
    assert client.post(f"/sessions/{seeded}/end", json={"end_reason": "user_exit"}).status_code == 200
    resp = client.post(f"/sessions/{seeded}/messages", json={"role": "user", "content": "late"})
    assert_problem(resp, 409, "session_ended", extra=("session_id",))
    assert stored_messages(settings) == 2
    reopened = client.post(
        f"/sessions/{seeded}/messages?reopen=true", json={"role": "user", "content": "late"}
    )
    assert reopened.status_code == 201, reopened.text
    assert client.get(f"/sessions/{seeded}").json()["ended_at"] is None


@pytest.mark.parametrize("query", NASTY_QUERIES)
def test_search_never_500(client: TestClient, seeded: str, query: str) -> None:
    for resp in (
        client.get("/search", params={"q": query}),
        client.post("/search", json={"q": query, "sort": "newest"}),
    ):
        assert resp.status_code < 500, (query, resp.text[:300])
        if resp.status_code >= 400:
            assert_problem(resp, resp.status_code)


def test_search_bad_arguments(client: TestClient, seeded: str) -> None:
    assert_problem(
        client.get("/search", params={"session_id": "nope"}), 404, "session_not_found", extra=("session_id",)
    )
    # Search clamps limit to 1-50 like the agent's tool; out-of-range values must simply never fail.
    for limit in (0, 51, -3, 10**30):
        assert client.get("/search", params={"q": "x", "limit": limit}).status_code in (200, 422)
    resp = client.get("/search", params={"session_id": seeded, "around_message_id": "99999999999999999999"})
    assert resp.status_code < 500, resp.text
    assert_problem(resp, resp.status_code)


def test_missing_attachment(client: TestClient) -> None:
    resp = client.get("/attachments/does-not-exist")
    assert_problem(resp, 404, extra=("attachment_id",))
    resp = client.get("/attachments/" + "../" * 5 + "etc/passwd")
    assert resp.status_code < 500
    assert resp.headers["content-type"].startswith("application/problem+json")


def test_attachment_for_missing_session(client: TestClient) -> None:
    resp = client.post("/sessions/nope/attachments", files={"file": ("a.txt", b"hello", "text/plain")})
    assert_problem(resp, 404, "session_not_found", extra=("session_id",))


def test_attachment_without_file_part(client: TestClient, seeded: str) -> None:
    resp = client.post(f"/sessions/{seeded}/attachments", data={"not_file": "x"})
    assert resp.status_code in (400, 415, 422), resp.text
    assert_problem(resp, resp.status_code)
    resp = client.post(
        f"/sessions/{seeded}/attachments",
        content=b"raw bytes",
        headers={"Content-Type": "application/octet-stream"},
    )
    assert resp.status_code in (400, 415, 422), resp.text
    assert_problem(resp, resp.status_code)
