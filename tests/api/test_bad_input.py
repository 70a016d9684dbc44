"""The bad-input catalogue: every refusal has its status, its problem code, and stores nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from app.settings import Settings
from tests.api.problem_assert import assert_problem
from tests.conftest import TOKEN, LiveServer, count_rows

# Operation-specific members some problems carry beside the standard ones.
TOO_LONG = ("max_length",)
MISSING = ("session_id",)

SECURITY_HEADERS = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}


def _nothing_stored(settings: Settings) -> None:
    assert count_rows(settings, "sessions") == 0
    assert count_rows(settings, "messages") == 0


@pytest.fixture
def fresh(client: TestClient, settings: Settings) -> Iterator[TestClient]:
    """The client on an empty database (the check that nothing was stored relies on it)."""
    _nothing_stored(settings)
    yield client


@pytest.mark.parametrize(
    "bad_id",
    ["a\x01b", "tab\there", "new\nline", "a/b", "../etc", "a..b", "x" * 257, "del\x7f"],
    ids=["ctrl", "tab", "newline", "slash", "dotdot-start", "dotdot", "257", "del"],
)
def test_invalid_session_id(fresh: TestClient, settings: Settings, bad_id: str) -> None:
    assert_problem(fresh.post("/sessions", json={"id": bad_id}), 422, "invalid_session_id")
    _nothing_stored(settings)


def test_unknown_source(fresh: TestClient, settings: Settings) -> None:
    assert_problem(
        fresh.post("/sessions", json={"source": "myspace"}), 422, "unknown_source", extra=("source",)
    )
    _nothing_stored(settings)


def test_title_too_long(fresh: TestClient, settings: Settings) -> None:
    assert_problem(fresh.post("/sessions", json={"title": "t" * 101}), 422, "title_too_long", extra=TOO_LONG)
    _nothing_stored(settings)
    sid = fresh.post("/sessions", json={}).json()["id"]
    assert_problem(
        fresh.patch(f"/sessions/{sid}", json={"title": "é" * 101}), 422, "title_too_long", extra=TOO_LONG
    )
    assert fresh.get(f"/sessions/{sid}").json()["title"] is None


def test_invisible_title(fresh: TestClient, settings: Settings) -> None:
    body = {"title": "\u200b\u200d\u202e\ufeff \u2066"}
    assert_problem(fresh.post("/sessions", json=body), 422, "invalid_title")
    _nothing_stored(settings)


def test_title_in_use(fresh: TestClient, settings: Settings) -> None:
    first = fresh.post("/sessions", json={"title": "My project"}).json()
    problem = assert_problem(
        fresh.post("/sessions", json={"title": "My project"}),
        409,
        "title_in_use",
        extra=("holder", "suggested_title"),
    )
    holder = problem["holder"]
    assert (holder["id"] if isinstance(holder, dict) else holder) == first["id"]
    assert problem["suggested_title"] == "My project #2"
    assert count_rows(settings, "sessions") == 1


def test_malformed_json(fresh: TestClient, settings: Settings) -> None:
    resp = fresh.post("/sessions", content=b'{"title": "x",', headers={"Content-Type": "application/json"})
    assert_problem(resp, 400, "invalid_json")
    _nothing_stored(settings)


def test_array_body(fresh: TestClient, settings: Settings) -> None:
    resp = fresh.post("/sessions", content=b'[{"title": "x"}]', headers={"Content-Type": "application/json"})
    assert_problem(resp, 400, "body_not_object")
    _nothing_stored(settings)


@pytest.mark.parametrize(
    "raw",
    [b'{"title": "a\\u0000b"}', b'{"title": "\\ud800"}', b'{"system_prompt": "x\\udfffy"}'],
    ids=["nul", "lone-high", "lone-low"],
)
def test_invalid_text_in_session(fresh: TestClient, settings: Settings, raw: bytes) -> None:
    resp = fresh.post("/sessions", content=raw, headers={"Content-Type": "application/json"})
    assert_problem(resp, 422, "invalid_text")
    _nothing_stored(settings)


def test_body_too_large_with_content_length(fresh: TestClient, settings: Settings) -> None:
    big = b'{"title": "' + b"x" * (11 * 1024 * 1024) + b'"}'
    resp = fresh.post("/sessions", content=big, headers={"Content-Type": "application/json"})
    assert_problem(resp, 413, "payload_too_large")
    _nothing_stored(settings)


def test_body_too_large_chunked(fresh: TestClient, settings: Settings) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"title": "'
        for _ in range(11):
            yield b"x" * (1024 * 1024)
        yield b'"}'

    resp = fresh.post("/sessions", content=chunks(), headers={"Content-Type": "application/json"})
    assert "content-length" not in resp.request.headers
    assert_problem(resp, 413, "payload_too_large")
    _nothing_stored(settings)


@pytest.mark.parametrize("params", [{"limit": 0}, {"limit": -1}, {"limit": "ten"}, {"status": "bogus"}])
def test_list_parameters_out_of_range(fresh: TestClient, params: dict[str, str | int]) -> None:
    assert_problem(fresh.get("/sessions", params=params), 422, "validation_error")


@pytest.mark.parametrize("cursor", ["garbage", "!!!", "eyJmb28iOiAxfQ", "a" * 5000])
def test_garbage_cursor(fresh: TestClient, cursor: str) -> None:
    assert_problem(fresh.get("/sessions", params={"cursor": cursor}), 400, "invalid_cursor")


def test_missing_session(fresh: TestClient) -> None:
    assert_problem(fresh.get("/sessions/nope"), 404, "session_not_found", extra=MISSING)
    assert_problem(
        fresh.patch("/sessions/nope", json={"title": "x"}), 404, "session_not_found", extra=MISSING
    )
    assert_problem(fresh.delete("/sessions/nope"), 404, "session_not_found", extra=MISSING)


def test_if_match_mismatch(fresh: TestClient) -> None:
    created = fresh.post("/sessions", json={"title": "Before"})
    sid = created.json()["id"]
    resp = fresh.patch(f"/sessions/{sid}", json={"title": "After"}, headers={"If-Match": '"stale"'})
    assert_problem(resp, 412, "precondition_failed", extra=("etag",))
    assert fresh.get(f"/sessions/{sid}").json()["title"] == "Before"
    resp = fresh.delete(f"/sessions/{sid}", headers={"If-Match": '"stale"'})
    assert_problem(resp, 412, "precondition_failed", extra=("etag",))
    etag = fresh.get(f"/sessions/{sid}").headers["etag"]
    assert (
        fresh.patch(f"/sessions/{sid}", json={"title": "After"}, headers={"If-Match": etag}).status_code
        == 200
    )


def test_idempotency_key(fresh: TestClient, settings: Settings) -> None:
    headers = {"Idempotency-Key": "key-1"}
    first = fresh.post("/sessions", json={"title": "Once"}, headers=headers)
    assert first.status_code == 201
    again = fresh.post("/sessions", json={"title": "Once"}, headers=headers)
    assert again.status_code == 201
    assert again.json() == first.json()
    assert again.headers["location"] == first.headers["location"]
    assert count_rows(settings, "sessions") == 1
    other = fresh.post("/sessions", json={"title": "Different"}, headers=headers)
    assert_problem(other, 422, "idempotency_key_reused")
    assert count_rows(settings, "sessions") == 1


def test_unauthorized(anon_client: TestClient, settings: Settings) -> None:
    assert_problem(anon_client.get("/sessions"), 401, "unauthorized")
    assert_problem(anon_client.post("/sessions", json={}), 401, "unauthorized")
    resp = anon_client.get("/sessions", headers={"Authorization": "Bearer wrong"})
    assert_problem(resp, 401, "unauthorized")
    assert resp.headers.get("www-authenticate", "").startswith("Bearer")
    assert_problem(anon_client.get("/sessions", headers={"Authorization": TOKEN}), 401, "unauthorized")
    _nothing_stored(settings)


@pytest.fixture
def live_server(module_server: LiveServer) -> LiveServer:
    """Its live tests store nothing: one server serves the module."""
    return module_server


def test_unauthorized_live(live_server: LiveServer) -> None:
    resp = httpx.get(f"{live_server.base_url}/sessions", timeout=10)
    assert_problem(resp, 401, "unauthorized")
    resp = httpx.get(f"{live_server.base_url}/sessions", headers={"Authorization": "Bearer x"}, timeout=10)
    assert_problem(resp, 401, "unauthorized")
    with live_server.client() as c:
        assert c.get("/sessions").status_code == 200


def test_security_headers(fresh: TestClient) -> None:
    for resp in (fresh.get("/sessions"), fresh.get("/sessions/nope"), fresh.get("/healthz")):
        for name, value in SECURITY_HEADERS.items():
            assert resp.headers.get(name) == value, (resp.request.url, name)
        assert resp.headers.get("x-request-id")


def test_unknown_route_and_method(fresh: TestClient) -> None:
    assert_problem(fresh.get("/no-such-thing"), 404)
    assert_problem(fresh.put("/sessions"), 405)


def test_huge_path_id_never_500(fresh: TestClient, tmp_path: Path) -> None:
    assert_problem(fresh.get("/sessions/" + "x" * 5000), 404, "session_not_found", extra=MISSING)
    assert_problem(fresh.get("/sessions/%00"), 404, "session_not_found", extra=MISSING)


def test_body_too_large_live(live_server: LiveServer) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"title": "'
        for _ in range(11):
            yield b"x" * (1024 * 1024)
        yield b'"}'

    with live_server.client() as c:
        big = b'{"title": "' + b"x" * (11 * 1024 * 1024) + b'"}'
        headers = {"Content-Type": "application/json"}
        assert_problem(c.post("/sessions", content=big, headers=headers), 413, "payload_too_large")
    with live_server.client() as c:
        resp = c.post("/sessions", content=chunks(), headers=headers)
        assert_problem(resp, 413, "payload_too_large")
    with live_server.client() as c:
        assert c.get("/sessions").json()["items"] == []


# --- messages -------------------------------------------------------------------------------------------

HUGE_ID = "99999999999999999999"


@pytest.fixture
def session_id(fresh: TestClient) -> str:
    """An open session to post messages into."""
    resp = fresh.post("/sessions", json={"source": "cli"})
    assert resp.status_code == 201, resp.text
    return str(resp.json()["id"])


@pytest.mark.parametrize(
    "raw",
    [
        b'{"role": "user", "content": "a\\u0000b"}',
        b'{"role": "user", "content": "\\ud800"}',
        b'{"role": "user", "content": "ok", "tool_name": "x\\udc00"}',
        b'{"messages": [{"role": "user", "content": "fine"}, {"role": "user", "content": "\\ud800x"}]}',
    ],
    ids=["nul", "lone-surrogate", "surrogate-tool-name", "batch-second-bad"],
)
def test_invalid_text_in_message(fresh: TestClient, settings: Settings, session_id: str, raw: bytes) -> None:
    resp = fresh.post(
        f"/sessions/{session_id}/messages", content=raw, headers={"Content-Type": "application/json"}
    )
    assert_problem(resp, 422, "invalid_text")
    assert count_rows(settings, "messages") == 0
    assert fresh.get(f"/sessions/{session_id}").json()["message_count"] == 0


def test_message_for_missing_session(fresh: TestClient, settings: Settings) -> None:
    resp = fresh.post("/sessions/no-such-session/messages", json={"role": "user", "content": "hi"})
    assert_problem(resp, 404, "session_not_found", extra=MISSING)
    _nothing_stored(settings)


def test_message_body_not_object(fresh: TestClient, settings: Settings, session_id: str) -> None:
    headers = {"Content-Type": "application/json"}
    url = f"/sessions/{session_id}/messages"
    assert_problem(fresh.post(url, content=b'[{"role": "user"}]', headers=headers), 400, "body_not_object")
    assert_problem(fresh.post(url, content=b'{"role": "user",', headers=headers), 400, "invalid_json")
    assert count_rows(settings, "messages") == 0


@pytest.mark.parametrize(
    "params",
    [{"limit": 0}, {"limit": 1001}, {"limit": -5}, {"after": "x"}, {"window": -1, "around": 1}],
    ids=["limit-0", "limit-1001", "limit-neg", "after-text", "window-neg"],
)
def test_message_list_parameters_out_of_range(
    fresh: TestClient, session_id: str, params: dict[str, str | int]
) -> None:
    assert_problem(fresh.get(f"/sessions/{session_id}/messages", params=params), 422)


@pytest.mark.parametrize(
    "path",
    [
        "/sessions/{sid}/messages/" + HUGE_ID,
        "/sessions/{sid}/messages?after=" + HUGE_ID,
        "/sessions/{sid}/messages?before=" + HUGE_ID,
        "/sessions/{sid}/messages?around=" + HUGE_ID,
    ],
    ids=["get", "after", "before", "around"],
)
def test_ids_beyond_sqlite_integer(fresh: TestClient, session_id: str, path: str) -> None:
    resp = fresh.get(path.format(sid=session_id))
    assert resp.status_code < 500, resp.text
    assert_problem(resp, resp.status_code)
    assert resp.status_code in (404, 422)


def test_ids_beyond_sqlite_integer_in_bodies(fresh: TestClient, settings: Settings, session_id: str) -> None:
    fresh.post(f"/sessions/{session_id}/messages", json={"role": "user", "content": "hi"})
    for url, body in (
        (f"/sessions/{session_id}/rewind", {"message_id": int(HUGE_ID)}),
        (f"/sessions/{session_id}/fork", {"message_id": int(HUGE_ID)}),
    ):
        resp = fresh.post(url, json=body)
        assert resp.status_code < 500, (url, resp.text)
        assert_problem(resp, resp.status_code)
    assert count_rows(settings, "messages") == 1
    assert count_rows(settings, "sessions") == 1


def test_message_idempotency(fresh: TestClient, settings: Settings, session_id: str) -> None:
    url = f"/sessions/{session_id}/messages"
    headers = {"Idempotency-Key": "append-1"}
    first = fresh.post(url, json={"role": "user", "content": "once"}, headers=headers)
    assert first.status_code == 201, first.text
    again = fresh.post(url, json={"role": "user", "content": "once"}, headers=headers)
    assert again.status_code == 201 and again.json() == first.json()
    assert count_rows(settings, "messages") == 1
    other = fresh.post(url, json={"role": "user", "content": "twice"}, headers=headers)
    assert_problem(other, 422, "idempotency_key_reused")
    assert count_rows(settings, "messages") == 1
    assert fresh.get(f"/sessions/{session_id}").json()["message_count"] == 1


def test_message_body_too_large(fresh: TestClient, settings: Settings, session_id: str) -> None:
    big = b'{"role": "user", "content": "' + b"x" * (11 * 1024 * 1024) + b'"}'
    resp = fresh.post(
        f"/sessions/{session_id}/messages", content=big, headers={"Content-Type": "application/json"}
    )
    assert_problem(resp, 413, "payload_too_large")
    assert count_rows(settings, "messages") == 0


def test_nested_non_object_is_validation_error(fresh: TestClient, settings: Settings) -> None:
    assert_problem(fresh.post("/sessions", json={"model_config": [1, 2]}), 422, "validation_error")
    _nothing_stored(settings)
    sid = fresh.post("/sessions", json={}).json()["id"]
    resp = fresh.post(f"/sessions/{sid}/messages", json={"messages": [["user", "hi"]]})
    assert_problem(resp, 422, "validation_error")
    assert count_rows(settings, "messages") == 0
