"""The fast paths (``app.api.fast_paths``): plain appends and listings never reach the router, everything
else does with its body intact, and both paths answer alike."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient
from starlette.types import Message

from app.api.fast_paths import FastPaths
from app.api.routes import messages, sessions
from tests.api.problem_assert import assert_problem
from tests.conftest import TOKEN

AUTH = (b"authorization", f"Bearer {TOKEN}".encode())
JSON = (b"content-type", b"application/json")
APPEND = next(r for r in messages.router.routes if getattr(r, "name", "") == "messages-append")
LIST = next(r for r in sessions.router.routes if getattr(r, "name", "") == "sessions-list")


@pytest.fixture
def sid(client: TestClient) -> str:
    """A fresh CLI session."""
    session_id: str = client.post("/sessions", json={"source": "cli"}).json()["id"]
    return session_id


class _Inner:
    """Stands in for the router: records what reached it."""

    def __init__(self) -> None:
        self.bodies: list[bytes] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        message = await receive()
        self.bodies.append(message.get("body", b""))
        await send({"type": "http.response.start", "status": 299, "headers": []})
        await send({"type": "http.response.body", "body": b""})


def _call(
    client: TestClient,
    path: str,
    body: bytes,
    headers: list[tuple[bytes, bytes]],
    *,
    query: bytes = b"",
    method: str = "POST",
) -> tuple[_Inner, list[Message]]:
    inner = _Inner()
    sent: list[Message] = []
    chunks = [body[: len(body) // 2], body[len(body) // 2 :]]  # a body in two pieces, as a socket delivers

    async def receive() -> Message:
        if chunks:
            piece = chunks.pop(0)
            return {"type": "http.request", "body": piece, "more_body": bool(chunks)}
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "root_path": "",
        "query_string": query,
        "headers": headers,
        "app": client.app,
    }

    async def run() -> None:
        await FastPaths(inner, append_route=APPEND, list_route=LIST)(scope, receive, send)

    assert client.portal is not None
    client.portal.call(run)
    return inner, sent


def test_a_plain_append_is_stored_without_the_router(client: TestClient, sid: str) -> None:
    body = orjson.dumps({"role": "user", "content": "straight through"})
    inner, sent = _call(client, f"/sessions/{sid}/messages", body, [AUTH, JSON])
    assert inner.bodies == []
    assert sent[0]["status"] == 201
    assert dict(sent[0]["headers"])[b"content-type"] == b"application/json"
    items = orjson.loads(sent[1]["body"])["items"]
    assert [m["content"] for m in items] == ["straight through"]
    assert client.get(f"/sessions/{sid}/messages").json()["items"] == items
    assert client.get(f"/sessions/{sid}").json()["message_count"] == 1


def test_a_plain_batch_takes_the_fast_path_too(client: TestClient, sid: str) -> None:
    body = orjson.dumps(
        {"messages": [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}]}
    )
    inner, sent = _call(
        client,
        f"/sessions/{sid}/messages",
        body,
        [AUTH, (b"content-type", b"application/json; charset=utf-8")],
    )
    assert inner.bodies == [] and sent[0]["status"] == 201
    assert [m["content"] for m in orjson.loads(sent[1]["body"])["items"]] == ["a", "b"]


@pytest.mark.parametrize(
    ("body", "headers", "query"),
    [
        (b'{"role": "user", "content": "x"}', [AUTH, JSON, (b"idempotency-key", b"k1")], b""),
        (b'{"role": "user", "content": ', [AUTH, JSON], b""),
        (b'[{"role": "user", "content": "x"}]', [AUTH, JSON], b""),
        (b'{"role": "user", "content": "nul \\u0000"}', [AUTH, JSON], b""),
        (b'{"role": "martian", "content": "x"}', [AUTH, JSON], b""),
        (b'{"role": "user", "content": "x"}', [AUTH, (b"content-type", b"text/plain")], b""),
        (b'{"role": "user", "content": "x"}', [AUTH], b""),
        (b'{"role": "user", "content": "x"}', [(b"authorization", b"Bearer wrong"), JSON], b""),
        (b'{"role": "user", "content": "x"}', [JSON], b""),
        (b'{"role": "user", "content": "x"}', [AUTH, JSON], b"reopen=yes"),
        (b'{"role": "user", "content": "x"}', [AUTH, JSON], b"reopen=true&x=1"),
    ],
    ids=[
        "idempotency-key",
        "malformed-json",
        "array-body",
        "nul",
        "unknown-role",
        "text-plain",
        "no-content-type",
        "wrong-token",
        "no-token",
        "other-bool-spelling",
        "extra-query",
    ],
)
def test_anything_but_the_plain_case_reaches_the_route_with_its_body(
    client: TestClient, sid: str, body: bytes, headers: list[tuple[bytes, bytes]], query: bytes
) -> None:
    inner, sent = _call(client, f"/sessions/{sid}/messages", body, headers, query=query)
    assert inner.bodies[0] == body[: len(body) // 2] or b"".join(inner.bodies) == body
    assert sent[0]["status"] == 299
    assert client.get(f"/sessions/{sid}").json()["message_count"] == 0


@pytest.mark.parametrize(
    ("method", "path"),
    [("GET", "/sessions/x/messages"), ("POST", "/sessions/x/rewind"), ("POST", "/sessions/a/b/messages")],
)
def test_other_requests_pass_untouched(client: TestClient, method: str, path: str) -> None:
    inner, sent = _call(client, path, b"{}", [AUTH, JSON], method=method)
    assert len(inner.bodies) == 1 and sent[0]["status"] == 299


def test_the_two_paths_answer_alike(client: TestClient, sid: str) -> None:
    turn = {"role": "assistant", "content": "same", "tool_calls": [{"id": "c1", "type": "function"}]}
    fast = client.post(f"/sessions/{sid}/messages", json=turn)
    routed = client.post(f"/sessions/{sid}/messages", json=turn, headers={"Idempotency-Key": "k"})
    assert fast.status_code == routed.status_code == 201
    assert fast.headers["content-type"] == routed.headers["content-type"]
    a, b = fast.json()["items"][0], routed.json()["items"][0]
    assert set(a) == set(b)
    volatile = {"id", "timestamp"}
    assert {k: v for k, v in a.items() if k not in volatile} == {
        k: v for k, v in b.items() if k not in volatile
    }
    assert "x-request-id" in fast.headers and fast.headers["x-content-type-options"] == "nosniff"


def test_errors_of_the_write_are_problems(client: TestClient, sid: str) -> None:
    missing = client.post("/sessions/nope/messages", json={"role": "user", "content": "x"})
    assert_problem(missing, 404, "session_not_found", extra=("session_id",))
    assert client.post(f"/sessions/{sid}/end", json={"end_reason": "done"}).status_code == 200
    ended = client.post(f"/sessions/{sid}/messages", json={"role": "user", "content": "x"})
    assert_problem(ended, 409, "session_ended", extra=("session_id",))
    reopened = client.post(f"/sessions/{sid}/messages?reopen=true", json={"role": "user", "content": "x"})
    assert reopened.status_code == 201
    assert client.get(f"/sessions/{sid}").json()["ended_at"] is None


def test_fast_appends_are_counted_under_the_route_template(client: TestClient, sid: str) -> None:
    assert client.post(f"/sessions/{sid}/messages", json={"role": "user", "content": "m"}).status_code == 201
    text = client.get("/metrics").text
    assert (
        'hermes_http_requests_total{method="POST",route="/sessions/{session_id}/messages",status="201"} 1.0'
        in text
    )


def _sessions(client: TestClient, n: int) -> None:
    for i in range(n):
        assert client.post("/sessions", json={"source": "cli", "title": f"fast list {i}"}).status_code == 201


@pytest.mark.parametrize("query", [b"", b"limit=3", b"limit=200"])
def test_a_plain_listing_is_answered_without_the_router(client: TestClient, query: bytes) -> None:
    _sessions(client, 4)
    inner, sent = _call(client, "/sessions", b"", [AUTH], query=query, method="GET")
    assert inner.bodies == [] and sent[0]["status"] == 200
    page = orjson.loads(sent[1]["body"])
    routed = client.get(
        "/sessions", params={"status": "all", "limit": query.split(b"=")[-1].decode() or 20}
    ).json()
    assert page == routed  # the same page as the documented route with every filter spelt out
    headers = dict(sent[0]["headers"])
    assert (b"link" in headers) == (query == b"limit=3")


@pytest.mark.parametrize(
    ("query", "headers"),
    [
        (b"limit=0", [AUTH]),
        (b"limit=201", [AUTH]),
        (b"limit=1000", [AUTH]),
        (b"limit=05", [AUTH]),
        (b"limit=x", [AUTH]),
        (b"limit=3&source=cli", [AUTH]),
        (b"cursor=abc", [AUTH]),
        (b"", [(b"authorization", b"Bearer wrong")]),
        (b"", []),
    ],
)
def test_other_listings_reach_the_route(
    client: TestClient, query: bytes, headers: list[tuple[bytes, bytes]]
) -> None:
    inner, sent = _call(client, "/sessions", b"", headers, query=query, method="GET")
    assert len(inner.bodies) == 1 and sent[0]["status"] == 299


def test_fast_listing_pages_like_the_route(client: TestClient) -> None:
    _sessions(client, 5)
    first = client.get("/sessions?limit=2")
    assert first.status_code == 200
    link = first.headers["link"]
    assert link.startswith("<http://testserver/sessions?limit=2&cursor=") and link.endswith('>; rel="next"')
    second = client.get(link[1 : link.index(">")])
    titles = [s["title"] for s in first.json()["items"] + second.json()["items"]]
    assert titles == ["fast list 4", "fast list 3", "fast list 2", "fast list 1"]
    assert 'route="/sessions",status="200"' in client.get("/metrics").text
    assert_problem(client.get("/sessions", headers={"Authorization": "Bearer nope"}), 401, "unauthorized")
