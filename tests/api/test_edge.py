"""The HTTP edge over a real uvicorn: problem+json for what uvicorn used to answer itself, 500s that keep a
keep-alive client working, the Host guard, read deadlines, body caps and the access log."""

from __future__ import annotations

import http.client
import itertools
import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import orjson
import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.api.server import server_config
from app.main import create_app
from app.settings import Settings
from tests.api.problem_assert import assert_problem
from tests.api.raw_http import connect, exchange, parse, read_until_closed
from tests.conftest import TOKEN, HttpResponse, LiveServer, free_port, start_live_server

AUTH = f"Authorization: Bearer {TOKEN}\r\n".encode()
SECURITY_HEADERS = ("x-content-type-options", "referrer-policy", "x-frame-options", "cache-control")
# Deadlines and caps small enough to reach in a test; the read timeout of raw_http is far above them.
EDGE_ENV = {
    "HERMES_HEADER_TIMEOUT_S": "0.5",
    "HERMES_BODY_TIMEOUT_S": "0.5",
    "HERMES_MAX_BODY_BYTES": "65536",
    "HERMES_MAX_INFLIGHT_BODY_BYTES": "131072",
    "HERMES_MAX_HEADER_BYTES": "16384",
    "HERMES_EVENTS_KEEPALIVE_S": "0.2",
}


@pytest.fixture(scope="module")
def edge(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """``hermes serve`` with short read deadlines and small body caps."""
    home = tmp_path_factory.mktemp("edge-home")
    server = start_live_server(home, EDGE_ENV)
    try:
        yield server
    finally:
        server.stop()


def assert_edge_problem(resp: HttpResponse, status: int, code: str) -> dict[str, object]:
    """A refusal made at the edge: problem+json, request id, security headers, connection closed."""
    body = assert_problem(resp, status, code)
    assert resp.headers["connection"] == "close"
    for name in SECURITY_HEADERS:
        assert name in resp.headers, name
    return body


def _request(method: str, target: str, *headers: bytes, body: bytes = b"") -> bytes:
    return (
        f"{method} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n".encode()
        + AUTH
        + b"".join(h + b"\r\n" for h in headers)
        + b"\r\n"
        + body
    )


# -- what uvicorn answered in plain text -------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_bytes", "status", "code"),
    [
        (_request("GET", "/sessions?q=" + "a" * 65536), 414, "uri_too_long"),
        (_request("GET", "/sessions?q=" + "a" * 20000), 414, "uri_too_long"),
        (_request("GET", "/healthz", b"X-Big: " + b"a" * 40000), 431, "request_header_too_large"),
        (
            _request("GET", "/healthz", *(b"X-H%d: %s" % (i, b"v" * 100) for i in range(200))),
            431,
            "request_header_too_large",
        ),
        (_request("POST", "/import", b"Content-Length: abc"), 400, "invalid_content_length"),
        (_request("POST", "/import", b"Content-Length: -5"), 400, "invalid_content_length"),
        (
            _request("POST", "/import", b"Content-Length: 5", b"Content-Length: 6"),
            400,
            "invalid_content_length",
        ),
        (
            _request(
                "POST", "/import", b"Content-Length: 5", b"Transfer-Encoding: chunked", body=b"0\r\n\r\n"
            ),
            400,
            "ambiguous_body_length",
        ),
        (_request("POST", "/import", b"Transfer-Encoding: gzip"), 400, "invalid_transfer_encoding"),
        (b"\x16\x03\x01\x02\x00 not http\r\n\r\n", 400, "malformed_request"),
    ],
    ids=[
        "query-64k",
        "query-20k",
        "one-big-header",
        "many-headers",
        "content-length-not-a-number",
        "content-length-negative",
        "content-length-twice",
        "content-length-and-chunked",
        "unknown-transfer-encoding",
        "not-http",
    ],
)
def test_unparsable_requests_are_problems(
    edge: LiveServer, request_bytes: bytes, status: int, code: str
) -> None:
    assert_edge_problem(exchange(edge.base_url, request_bytes), status, code)


def test_headers_under_the_limit_are_served(edge: LiveServer) -> None:
    resp = exchange(edge.base_url, _request("GET", "/healthz?pad=" + "a" * 8000, b"Connection: close"))
    assert resp.status_code == 200


def test_protocol_refusals_are_counted_and_logged(edge: LiveServer) -> None:
    exchange(edge.base_url, _request("POST", "/import", b"Content-Length: -1"))
    metrics = httpx.get(f"{edge.base_url}/metrics").text
    assert 'hermes_http_requests_total{method="-",route="unmatched",status="400"}' in metrics


# -- host guard ---------------------------------------------------------------------------------------


def test_foreign_host_is_refused_over_the_wire(edge: LiveServer) -> None:
    raw = b"GET /healthz HTTP/1.1\r\nHost: evil.example\r\n\r\n"
    body = assert_edge_problem(exchange(edge.base_url, raw), 421, "host_not_allowed")
    assert "evil.example" in str(body["detail"])


@pytest.mark.parametrize(
    "host", ["localhost", "localhost:8643", "127.0.0.1:9", "[::1]:8643", "::1", "10.1.2.3", "LOCALHOST"]
)
def test_loopback_names_and_ip_literals_are_served(client: TestClient, host: str) -> None:
    assert client.get("/healthz", headers={"Host": host}).status_code == 200


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:8643", "localhost.evil.example", "testserver.x"]
)
def test_foreign_names_are_refused(client: TestClient, host: str) -> None:
    resp = client.get("/sessions", headers={"Host": host})
    assert_edge_problem(resp, 421, "host_not_allowed")


def test_allowed_hosts_setting_adds_names(home: Path) -> None:
    settings = Settings(home=home, api_token=TOKEN, titles_auto=False, allowed_hosts="hermes.lan, other.lan")
    with TestClient(create_app(settings)) as c:
        assert c.get("/healthz", headers={"Host": "hermes.lan:8643"}).status_code == 200
        assert c.get("/healthz", headers={"Host": "Other.LAN"}).status_code == 200
        assert c.get("/healthz", headers={"Host": "evil.example"}).status_code == 421


def test_star_allows_every_host_only_when_set(home: Path) -> None:
    settings = Settings(home=home, api_token=TOKEN, titles_auto=False, allowed_hosts="*")
    with TestClient(create_app(settings)) as c:
        assert c.get("/healthz", headers={"Host": "evil.example"}).status_code == 200


def test_bind_host_is_allowed(home: Path) -> None:
    settings = Settings(home=home, api_token=TOKEN, titles_auto=False, host="hermes.internal")
    with TestClient(create_app(settings)) as c:
        assert c.get("/healthz", headers={"Host": "hermes.internal:8643"}).status_code == 200


# -- read deadlines -----------------------------------------------------------------------------------


def test_headers_that_never_finish_get_408_and_are_closed(edge: LiveServer) -> None:
    with connect(edge.base_url) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        resp = parse(read_until_closed(sock))
    assert_edge_problem(resp, 408, "request_timeout")


def test_a_silent_connection_is_closed(edge: LiveServer) -> None:
    with connect(edge.base_url) as sock:
        assert read_until_closed(sock) == b""


def test_slowloris_connections_are_all_released(edge: LiveServer) -> None:
    socks = [connect(edge.base_url) for _ in range(100)]
    try:
        for sock in socks:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        for sock in socks:  # dripping a header line keeps no connection alive past its deadline
            sock.sendall(b"X-a: b\r\n")
        answers = [parse(read_until_closed(sock)) for sock in socks]
    finally:
        for sock in socks:
            sock.close()
    assert {r.status_code for r in answers} == {408}
    assert httpx.get(f"{edge.base_url}/healthz").status_code == 200


def test_a_kept_alive_request_gets_its_own_header_deadline(edge: LiveServer) -> None:
    with connect(edge.base_url) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        data = read_until_closed(sock)
    first, _, second = data.partition(b'{"status":"ok"}')
    assert parse(first + b'{"status":"ok"}').status_code == 200
    assert_edge_problem(parse(second), 408, "request_timeout")


def test_a_stalled_body_gets_408(edge: LiveServer) -> None:
    raw = _request(
        "POST", "/sessions", b"Content-Type: application/json", b"Content-Length: 100", body=b'{"ti'
    )
    resp = exchange(edge.base_url, raw)
    assert_edge_problem(resp, 408, "request_timeout")


def test_a_slow_but_steady_body_is_served(edge: LiveServer) -> None:
    body = b'{"title": "dripped"}'
    with connect(edge.base_url) as sock:
        sock.sendall(
            _request(
                "POST",
                "/sessions",
                b"Content-Type: application/json",
                b"Connection: close",
                b"Content-Length: %d" % len(body),
            )
        )
        for n in range(0, len(body), 2):  # ten gaps, each far below the body timeout, twice it in total
            time.sleep(0.1)
            sock.sendall(body[n : n + 2])
        resp = parse(read_until_closed(sock))
    assert resp.status_code == 201, resp.text


def test_a_stalled_chunked_body_gets_408(edge: LiveServer) -> None:
    raw = _request("POST", "/import", b"Transfer-Encoding: chunked", body=b'4\r\n{"id\r\n')
    assert_edge_problem(exchange(edge.base_url, raw), 408, "request_timeout")


def test_an_event_stream_outlives_the_body_timeout(edge: LiveServer) -> None:
    with edge.client() as c, c.stream("GET", "/events") as resp:
        assert resp.status_code == 200
        time.sleep(1.5)  # three body timeouts: a stream has no request body to wait for
        lines = resp.iter_lines()
        assert any(line.startswith(":") for line in itertools.islice(lines, 20))


# -- body caps ----------------------------------------------------------------------------------------


def test_bodies_in_flight_are_capped(edge: LiveServer) -> None:
    declared = b"Content-Length: 65536"
    holders = [connect(edge.base_url) for _ in range(2)]
    try:
        for sock in holders:  # two bodies of 64 KiB under way fill the 128 KiB cap
            sock.sendall(_request("POST", "/import", b"Content-Type: application/jsonl", declared, body=b"{"))
        time.sleep(0.1)
        busy = exchange(edge.base_url, _request("POST", "/import", declared))
        assert_edge_problem(busy, 503, "server_busy")
        assert busy.headers["retry-after"] == "1"
        chunked = exchange(
            edge.base_url, _request("POST", "/import", b"Transfer-Encoding: chunked", body=b"1\r\n{\r\n")
        )
        assert_edge_problem(chunked, 503, "server_busy")
        small = exchange(edge.base_url, _request("GET", "/healthz", b"Connection: close"))
        assert small.status_code == 200  # requests without a body are not held back
    finally:
        for sock in holders:
            sock.close()
    # The holders' reservations end with their requests.
    deadline = time.monotonic() + 10
    while True:
        resp = exchange(
            edge.base_url, _request("POST", "/import", b"Content-Length: 2", b"Connection: close", body=b"{}")
        )
        if resp.status_code != 503 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert resp.status_code != 503, resp.text


def test_a_streamed_body_over_the_limit_is_413(edge: LiveServer) -> None:
    chunk = b"a" * 16384
    body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(5)) + b"0\r\n\r\n"
    raw = _request(
        "POST", "/import", b"Transfer-Encoding: chunked", b"Content-Type: application/jsonl", body=body
    )
    assert_edge_problem(exchange(edge.base_url, raw), 413, "payload_too_large")


# -- 500s and connection limits (the same uvicorn configuration, run in-process) ---------------------


@contextmanager
def serving(app: FastAPI, settings: Settings) -> Iterator[str]:
    """Run ``app`` on uvicorn with ``hermes serve``'s configuration in a thread; yield its base URL."""
    server = uvicorn.Server(server_config(app, settings, configure_logging=False))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{settings.port}"
    finally:
        server.should_exit = True
        thread.join(30)


def _app_with_a_bug(settings: Settings) -> FastAPI:
    app = create_app(settings)

    async def broken() -> None:
        raise RuntimeError("a bug")

    # Test-only route: a real unhandled exception below every handler.
    app.add_api_route("/test-only/broken", broken, methods=["GET", "POST"])
    return app


@pytest.fixture
def port_settings(home: Path) -> Settings:
    """Settings on a free port, for an in-process uvicorn."""
    return Settings(home=home, api_token=TOKEN, titles_auto=False, port=free_port())


def test_500_is_a_problem_with_request_id_and_keeps_the_client_working(
    port_settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    with serving(_app_with_a_bug(port_settings), port_settings) as base:
        conn = http.client.HTTPConnection("127.0.0.1", port_settings.port, timeout=15)
        conn.request("GET", "/test-only/broken", headers={"X-Request-ID": "bug-1"})
        raw = conn.getresponse()
        resp = httpx.Response(raw.status, headers=raw.getheaders(), content=raw.read())
        body = assert_edge_problem(resp, 500, "internal_error")
        assert body["request_id"] == "bug-1"
        # The same keep-alive connection object: http.client reconnects because the server said close.
        conn.request("GET", "/healthz")
        assert conn.getresponse().status == 200
        conn.close()
        with httpx.Client(base_url=base) as c:  # a pooled client: the next request is not reset
            assert c.post("/test-only/broken", json={}).status_code == 500
            assert c.get("/healthz").status_code == 200
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("bug-1" in r.getMessage() and r.exc_info for r in errors)


AUTHENTICATED_HEALTHZ = (
    f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {TOKEN}\r\n\r\n".encode()
)


def test_connections_beyond_the_limit_get_503(home: Path) -> None:
    settings = Settings(home=home, api_token=TOKEN, titles_auto=False, port=free_port(), max_connections=3)
    with serving(create_app(settings), settings) as base:
        held = []
        try:
            for _ in range(3):  # each connection proven by the token, so the server holds them all
                sock = connect(base)
                held.append(sock)
                sock.sendall(AUTHENTICATED_HEALTHZ)
                assert parse(sock.recv(65536)).status_code == 200
            with connect(base) as extra:
                resp = parse(read_until_closed(extra))
            assert_edge_problem(resp, 503, "server_busy")
            assert resp.headers["retry-after"] == "1"
        finally:
            for sock in held:
                sock.close()


def test_half_open_unauthenticated_connections_leave_room_for_healthz_and_a_token(
    port_settings: Settings,
) -> None:
    with serving(create_app(port_settings), port_settings) as base:
        cap = port_settings.max_connections
        flood = []
        try:
            for n in range(cap + cap // 5):
                sock = connect(base)
                if n % 2:  # half of them start a request and never finish its headers
                    sock.sendall(b"GET /sessions HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                flood.append(sock)
            with connect(base) as probe:
                probe.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                assert parse(read_until_closed(probe)).status_code == 200
            with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {TOKEN}"}) as client:
                assert client.get("/sessions").status_code == 200
            # The agent dashboard's clients prove themselves with their own header.
            with httpx.Client(base_url=base, headers={"X-Hermes-Session-Token": TOKEN}) as client:
                assert client.get("/api/sessions").status_code == 200
        finally:
            for sock in flood:
                sock.close()


# -- access log ---------------------------------------------------------------------------------------


def test_one_access_line_per_request(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="hermes.access")
    created = client.post("/sessions", json={"title": "logged"})
    missing = client.get("/sessions/nope")
    lines = [orjson.loads(r.getMessage()) for r in caplog.records if r.name == "hermes.access"]
    assert len(lines) == 2
    first, second = lines
    assert first["request_id"] == created.headers["x-request-id"]
    assert first["method"] == "POST" and first["route"] == "/sessions" and first["status"] == 201
    assert first["bytes"] == len(created.content)
    assert isinstance(first["duration_ms"], float)
    assert second["route"] == "/sessions/{session_id}" and second["status"] == 404
    assert second["request_id"] == missing.json()["request_id"] == missing.headers["x-request-id"]


def test_serve_writes_the_access_log_to_stdout(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    log_path = tmp_path / "stdout.log"
    with log_path.open("wb") as out:
        server = start_live_server(home, stdout=out)
        try:
            resp = httpx.get(f"{server.base_url}/healthz", headers={"X-Request-ID": "probe-42"})
            exchange(server.base_url, b"GET /healthz HTTP/1.1\r\nHost: evil.example\r\n\r\n")
        finally:
            server.stop()
    lines = [orjson.loads(line) for line in log_path.read_bytes().splitlines()]
    mine = [line for line in lines if line["request_id"] == "probe-42"]
    assert mine == [
        {**mine[0], "method": "GET", "route": "/healthz", "status": 200, "bytes": len(resp.content)}
    ]
    assert any(line["status"] == 421 for line in lines)


# -- request shape ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "text/json", None]
)
def test_json_in_another_media_type_is_415(client: TestClient, content_type: str | None) -> None:
    headers = {"Content-Type": content_type} if content_type else {}
    resp = client.post("/sessions", content=b'{"title": "typed"}', headers=headers)
    assert_problem(resp, 415, "unsupported_media_type")
    session_id = client.post("/sessions", json={}).json()["id"]
    append = client.post(
        f"/sessions/{session_id}/messages", content=b'{"role": "user", "content": "hi"}', headers=headers
    )
    assert_problem(append, 415, "unsupported_media_type")


def test_json_suffix_media_types_are_json(client: TestClient) -> None:
    resp = client.post(
        "/sessions", content=b'{"title": "suffixed"}', headers={"Content-Type": "application/x+json"}
    )
    assert resp.status_code == 201, resp.text


def test_import_without_a_body_is_400(client: TestClient) -> None:
    raw = client.post("/import", content=b"", headers={"Content-Type": "application/jsonl"})
    assert_problem(raw, 400, "empty_body")
    upload = client.post("/import", files={"file": ("empty.jsonl", b"", "application/jsonl")})
    assert_problem(upload, 400, "empty_body")


def test_405_allow_lists_every_method_of_the_path(client: TestClient) -> None:
    paths = client.app.openapi()["paths"]  # type: ignore[attr-defined]
    for template in ("/sessions/{session_id}", "/sessions", "/platforms/{platform}"):
        documented = {m.upper() for m in paths[template]}
        resp = client.request(
            "PUT" if "PUT" not in documented else "OPTIONS", template.replace("{", "x").replace("}", "")
        )
        assert_problem(resp, 405, "method_not_allowed")
        allowed = {m.strip() for m in resp.headers["allow"].split(",")}
        assert documented <= allowed, (template, allowed)
        method, path, allow = resp.request.method, resp.request.url.path, resp.headers["allow"]
        assert resp.json()["detail"] == f"{method} is not allowed on {path}; it allows {allow}."
