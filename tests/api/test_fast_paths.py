"""The fast paths (``app.api.fast_paths``): plain appends and listings never reach the router, everything
else does with its body intact, and both paths answer alike."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient
from starlette.types import Message

from app.api.dashboard import routes as dashboard
from app.api.fast_paths import FastPaths, _Memo
from app.api.routes import messages, sessions
from app.main import _route_named, create_app
from app.settings import Settings
from tests.api.problem_assert import assert_problem
from tests.conftest import TOKEN

AUTH = (b"authorization", f"Bearer {TOKEN}".encode())
JSON = (b"content-type", b"application/json")
APPEND = _route_named(messages.router, "messages-append")
LIST = _route_named(sessions.router, "sessions-list")
DASHBOARD_LIST = _route_named(dashboard.router, "dashboard-sessions-list")


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
    inner: _Inner | None = None,
    fast: FastPaths | None = None,
) -> tuple[_Inner, list[Message]]:
    """Send one request to ``fast`` (a new FastPaths over ``inner`` by default)."""
    inner = inner or _Inner()
    paths = fast or FastPaths(
        inner, append_route=APPEND, list_route=LIST, dashboard_list_route=DASHBOARD_LIST
    )
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
        await paths(scope, receive, send)

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
        (b'{"role": "user", "content": ', [AUTH, JSON], b""),
        (b'[{"role": "user", "content": "x"}]', [AUTH, JSON], b""),
        (b'{"role": "user", "content": "nul \\u0000"}', [AUTH, JSON], b""),
        (b'{"role": "martian", "content": "x"}', [AUTH, JSON], b""),
        (b'{"role": "user", "content": "x"}', [AUTH, (b"content-type", b"text/plain")], b""),
        (b'{"role": "user", "content": "x"}', [AUTH], b""),
        (b'{"role": "user", "content": "x"}', [(b"authorization", b"Bearer wrong"), JSON], b""),
        (b'{"role": "user", "content": "x"}', [JSON], b""),
        (b'{"role": "user", "content": "x"}', [AUTH, JSON], b"reopen=maybe"),
        (b'{"role": "user", "content": "x"}', [AUTH, JSON, (b"idempotency-key", b"")], b""),
        (b'{"role": "user", "content": "x"}', [AUTH, JSON, (b"idempotency-key", b"k" * 256)], b""),
    ],
    ids=[
        "malformed-json",
        "array-body",
        "nul",
        "unknown-role",
        "text-plain",
        "no-content-type",
        "wrong-token",
        "no-token",
        "not-a-bool",
        "empty-idempotency-key",
        "long-idempotency-key",
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
    ("headers", "query"),
    [
        ([AUTH, JSON, (b"idempotency-key", b"k1")], b""),
        ([AUTH, JSON], b"reopen=true&x=1"),
        ([AUTH, JSON], b"reopen=yes"),
    ],
    ids=["idempotency-key", "extra-query", "other-bool-spelling"],
)
def test_what_the_route_accepts_alike_takes_the_fast_path(
    client: TestClient, sid: str, headers: list[tuple[bytes, bytes]], query: bytes
) -> None:
    inner, sent = _call(
        client, f"/sessions/{sid}/messages", b'{"role": "user", "content": "x"}', headers, query=query
    )
    assert inner.bodies == [] and sent[0]["status"] == 201
    assert client.get(f"/sessions/{sid}").json()["message_count"] == 1


def test_one_instance_appends_to_each_session_it_is_sent(client: TestClient, sid: str) -> None:
    other = client.post("/sessions", json={"source": "cli"}).json()["id"]
    inner = _Inner()
    fast = FastPaths(inner, append_route=APPEND, list_route=LIST, dashboard_list_route=DASHBOARD_LIST)
    body = b'{"role": "user", "content": "x"}'
    for target in (sid, other, sid, "no-such-session", sid):
        _, sent = _call(client, f"/sessions/{target}/messages", body, [AUTH, JSON], inner=inner, fast=fast)
        assert sent[0]["status"] == (404 if target == "no-such-session" else 201)
    assert inner.bodies == []
    assert client.get(f"/sessions/{sid}").json()["message_count"] == 3
    assert client.get(f"/sessions/{other}").json()["message_count"] == 1


def test_the_memo_computes_once_per_argument_and_forgets_everything_when_full() -> None:
    calls: list[str] = []

    def upper(text: str) -> str:
        calls.append(text)
        return text.upper()

    memo = _Memo(upper, size=2)
    assert [memo("a"), memo("b"), memo("a")] == ["A", "B", "A"]
    assert calls == ["a", "b"]
    assert memo("c") == "C"  # full: everything is dropped, then "c" is kept
    assert [memo("c"), memo("a")] == ["C", "A"]
    assert calls == ["a", "b", "c", "a"]


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


@pytest.mark.parametrize("query", [b"", b"limit=3", b"limit=200", b"limit=05"])
def test_a_plain_listing_is_answered_without_the_router(client: TestClient, query: bytes) -> None:
    _sessions(client, 4)
    inner, sent = _call(client, "/sessions", b"", [AUTH], query=query, method="GET")
    assert inner.bodies == [] and sent[0]["status"] == 200
    page = orjson.loads(sent[1]["body"])
    routed = client.get(
        "/sessions", params={"status": "all", "limit": int(query.split(b"=")[-1].decode() or 20)}
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


# -- parity: the same requests through the fast path and through the router answer byte for byte alike ----


def _fast_paths(client: TestClient) -> FastPaths:
    """The app's own fast-path layer (its ``app`` is the router stack below it)."""
    assert client.portal is not None
    client.get("/healthz")  # builds the middleware stack
    layer: Any = client.app.middleware_stack  # type: ignore[attr-defined]
    while not isinstance(layer, FastPaths):
        layer = layer.app
    return layer


Answer = tuple[int, list[tuple[bytes, bytes]], bytes]


def _asgi(
    client: TestClient, target: Any, method: str, path: str, query: bytes, headers: Any, body: bytes
) -> Answer:
    sent: list[Message] = []
    chunks = [body]

    async def receive() -> Message:
        if chunks:
            return {"type": "http.request", "body": chunks.pop(), "more_body": False}
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "scheme": "http",
        "server": ("testserver", 80),
        "client": ("testclient", 50000),
        "method": method,
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": query,
        "headers": [(b"host", b"testserver"), *headers],
        "app": client.app,
        "state": {"request_id": "parity"},  # what the edge sets, so problem bodies match
    }
    assert client.portal is not None
    client.portal.call(target, scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    content = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], list(start["headers"]), content


@pytest.fixture
def twins(tmp_path: Path) -> Iterator[tuple[TestClient, TestClient]]:
    """Two servers on two fresh stores that will hold the same rows: ask one through its fast path and
    the other through its router, and the answers must be equal byte for byte."""
    with contextlib.ExitStack() as stack:
        pair = []
        for name in ("fast", "routed"):
            app = create_app(Settings(home=tmp_path / name, api_token=TOKEN, titles_auto=False))
            pair.append(stack.enter_context(TestClient(app, headers={"Authorization": f"Bearer {TOKEN}"})))
        yield pair[0], pair[1]


def _same(
    twins: tuple[TestClient, TestClient],
    method: str,
    path: str,
    body: bytes = b"",
    headers: list[tuple[bytes, bytes]] | None = None,
    query: bytes = b"",
) -> Answer:
    fast_client, routed_client = twins
    sent_headers = [AUTH, JSON] if headers is None else headers
    fast = _asgi(fast_client, _fast_paths(fast_client), method, path, query, sent_headers, body)
    routed = _asgi(routed_client, _fast_paths(routed_client).app, method, path, query, sent_headers, body)
    assert fast == routed
    return fast


def _turn(content: str, at: float, **extra: Any) -> dict[str, Any]:
    return {"role": "user", "content": content, "timestamp": at, **extra}


def _seed(twins: tuple[TestClient, TestClient], *ids: str) -> None:
    for sid in ids:
        for c in twins:
            assert c.post("/sessions", json={"source": "cli", "id": sid}).status_code == 201


APPEND_CASES: dict[str, tuple[bytes, list[tuple[bytes, bytes]] | None, bytes, int]] = {
    "one message": (orjson.dumps(_turn("one", 1.0)), None, b"", 201),
    "a batch": (
        orjson.dumps(
            {
                "messages": [
                    _turn("a", 2.0),
                    {
                        "role": "assistant",
                        "content": "b",
                        "timestamp": 3.0,
                        "tool_calls": [{"id": "c1", "type": "function"}],
                        "reasoning": "why",
                    },
                ]
            }
        ),
        None,
        b"",
        201,
    ),
    "charset": (
        orjson.dumps(_turn("ü", 4.0)),
        [AUTH, (b"content-type", b"application/json; charset=utf-8")],
        b"",
        201,
    ),
    "extra query": (orjson.dumps(_turn("q", 5.0)), None, b"x=1", 201),
    "not a bool": (orjson.dumps(_turn("q", 6.0)), None, b"reopen=maybe", 422),
    "unknown role": (b'{"role": "martian", "content": "x"}', None, b"", 422),
    "nul": (b'{"role": "user", "content": "\\u0000"}', None, b"", 422),
    "too deep": (b"[" * 200 + b"]" * 200, None, b"", 422),
    "malformed": (b'{"role": ', None, b"", 400),
    "text/plain": (orjson.dumps(_turn("t", 7.0)), [AUTH, (b"content-type", b"text/plain")], b"", 415),
    "no token": (orjson.dumps(_turn("t", 8.0)), [JSON], b"", 401),
    "wrong token": (orjson.dumps(_turn("t", 9.0)), [(b"authorization", b"Bearer no"), JSON], b"", 401),
    "bad key": (orjson.dumps(_turn("t", 10.0)), [AUTH, JSON, (b"idempotency-key", b"\x01")], b"", 400),
    "too many": (orjson.dumps({"messages": [_turn("m", 11.0)] * 1001}), None, b"", 422),
    "unknown attachment": (orjson.dumps(_turn("a", 12.0, attachments=["nope"])), None, b"", 422),
}


@pytest.mark.parametrize("case", list(APPEND_CASES))
def test_appends_answer_alike(twins: tuple[TestClient, TestClient], case: str) -> None:
    _seed(twins, "s1")
    body, headers, query, status = APPEND_CASES[case]
    answer = _same(twins, "POST", "/sessions/s1/messages", body, headers, query)
    assert answer[0] == status, answer


def test_errors_of_missing_and_ended_sessions_and_reopen_answer_alike(
    twins: tuple[TestClient, TestClient],
) -> None:
    _seed(twins, "s1")
    assert _same(twins, "POST", "/sessions/nope/messages", orjson.dumps(_turn("x", 1.0)))[0] == 404
    assert _same(twins, "POST", "/sessions/a%2Fb/messages", orjson.dumps(_turn("x", 1.0)))[0] == 404
    for c in twins:
        assert c.post("/sessions/s1/end", json={"end_reason": "done"}).status_code == 200
    assert _same(twins, "POST", "/sessions/s1/messages", orjson.dumps(_turn("x", 2.0)))[0] == 409
    assert (
        _same(twins, "POST", "/sessions/s1/messages", orjson.dumps(_turn("x", 3.0)), query=b"reopen=false")[0]
        == 409
    )
    assert (
        _same(twins, "POST", "/sessions/s1/messages", orjson.dumps(_turn("x", 4.0)), query=b"reopen=true")[0]
        == 201
    )
    assert _same(twins, "POST", "/sessions/s1/messages", orjson.dumps(_turn("x", 5.0)))[0] == 201


def test_idempotent_appends_and_their_replays_answer_alike(twins: tuple[TestClient, TestClient]) -> None:
    _seed(twins, "s1")
    keyed = [AUTH, JSON, (b"idempotency-key", b"turn-1")]
    body = orjson.dumps(_turn("once", 1.0))
    first = _same(twins, "POST", "/sessions/s1/messages", body, keyed)
    replay = _same(twins, "POST", "/sessions/s1/messages", body, keyed)
    assert first[0] == replay[0] == 201 and first[2] == replay[2]
    assert (b"idempotent-replayed", b"true") in replay[1] and (b"idempotent-replayed", b"true") not in first[
        1
    ]
    reused = _same(twins, "POST", "/sessions/s1/messages", orjson.dumps(_turn("other", 2.0)), keyed)
    assert reused[0] == 422 and b"idempotency_key_reused" in reused[2]
    assert all(c.get("/sessions/s1").json()["message_count"] == 1 for c in twins)


@pytest.mark.parametrize(
    "query",
    [
        b"",
        b"limit=1",
        b"limit=3",
        b"limit=200",
        b"limit=05",
        b"limit=0",
        b"limit=201",
        b"limit=x",
        b"source=cli",
    ],
)
def test_listings_answer_alike(client: TestClient, query: bytes) -> None:
    _sessions(client, 4)
    layer = _fast_paths(client)
    fast = _asgi(client, layer, "GET", "/sessions", query, [AUTH], b"")
    routed = _asgi(client, layer.app, "GET", "/sessions", query, [AUTH], b"")
    assert fast == routed
    if query == b"limit=1":  # the next page, by the cursor the first one gave
        cursor = orjson.loads(fast[2])["next_cursor"]
        page_two = f"limit=1&cursor={cursor}".encode()
        assert _asgi(client, layer, "GET", "/sessions", page_two, [AUTH], b"") == _asgi(
            client, layer.app, "GET", "/sessions", page_two, [AUTH], b""
        )
    for headers in ([], [(b"authorization", b"Bearer wrong")]):
        assert _asgi(client, layer, "GET", "/sessions", query, headers, b"") == _asgi(
            client, layer.app, "GET", "/sessions", query, headers, b""
        )
