"""GET /sessions/resolve: exact id, unique prefix, title, latest per source, then the compression tip
(reference §1.11, §3.6; checks 61–65, 149–154)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from app.storage.sqlite.driver import sqlite3
from tests.lineage.conftest import compress, create, resolve


def test_exact_id(client: TestClient) -> None:
    session = create(client, id="20260412_143000_abcdef", source="cli")
    create(client, id="20260412_143000_abcdef0", source="cli")
    body = resolve(client, ref=session["id"])
    assert body["id"] == session["id"]
    assert body["matched_by"] == "id"
    assert body["requested"] == session["id"]
    assert body["message_count"] == 0


def test_unique_prefix(client: TestClient) -> None:
    create(client, id="20260412_143000_abcdef", source="cli")
    create(client, id="20260413_090000_123456", source="cli")
    body = resolve(client, ref="20260412_1430")
    assert (body["id"], body["matched_by"]) == ("20260412_143000_abcdef", "prefix")


def test_ambiguous_prefix_is_409_with_candidates(client: TestClient) -> None:
    create(client, id="20260412_143000_aaaaaa", source="cli", title="first")
    create(client, id="20260412_150000_bbbbbb", source="cli")
    response = client.get("/sessions/resolve", params={"ref": "20260412_"})
    assert response.status_code == 409
    problem = response.json()
    assert problem["code"] == "ambiguous_session_ref"
    assert {(c["id"], c["title"]) for c in problem["candidates"]} == {
        ("20260412_143000_aaaaaa", "first"),
        ("20260412_150000_bbbbbb", None),
    }
    assert problem["more"] is False


def test_candidates_capped_at_ten(client: TestClient) -> None:
    for i in range(12):
        create(client, id=f"dup_{i:02d}", source="cli")
    problem = client.get("/sessions/resolve", params={"ref": "dup"}).json()
    assert len(problem["candidates"]) == 10
    assert problem["more"] is True


def test_underscore_and_percent_do_not_wildcard(client: TestClient) -> None:
    create(client, id="20260410x_120000_abcdef", source="cli")
    assert client.get("/sessions/resolve", params={"ref": "2026041_"}).status_code == 404
    assert client.get("/sessions/resolve", params={"ref": "2026%"}).status_code == 404


def test_empty_and_unknown_refs_are_404(client: TestClient) -> None:
    create(client, source="cli")
    for ref in ("", "nope"):
        response = client.get("/sessions/resolve", params={"ref": ref})
        assert response.status_code == 404
        assert response.json()["code"] == "session_not_found"


def test_title_lands_on_newest_numbered_variant(client: TestClient, raw: sqlite3.Connection) -> None:
    one = create(client, title="my project", source="cli")
    two = create(client, title="my project #2", source="cli")
    three = create(client, title="my project #3", source="cli")
    for sid, at in ((one["id"], 100.0), (two["id"], 200.0), (three["id"], 300.0)):
        raw.execute("UPDATE sessions SET started_at = ? WHERE id = ?", (at, sid))
    body = resolve(client, ref="my project")
    assert (body["id"], body["matched_by"]) == (three["id"], "title")
    # An exact numbered title resolves to itself (no "my project #2 #N" exists).
    assert resolve(client, ref="my project #2")["id"] == two["id"]


def test_title_with_like_wildcards_is_literal(client: TestClient) -> None:
    plain = create(client, title="100% done_ok", source="cli")
    create(client, title="100x done #2", source="cli")
    assert resolve(client, ref="100% done_ok")["id"] == plain["id"]
    assert client.get("/sessions/resolve", params={"ref": "100_ done"}).status_code == 404


def test_title_then_compression_tip(client: TestClient) -> None:
    root = create(client, title="T", source="cli")
    child = compress(client, root["id"])
    tip = compress(client, child["id"])
    body = resolve(client, ref=root["id"])
    assert body["id"] == tip["id"]
    assert body["title"] == "T #3"
    assert (body["requested"], body["matched_by"]) == (root["id"], "id")
    # "T" names the root; the newest "T #N" is the tip already.
    assert resolve(client, ref="T")["id"] == tip["id"]


def _touch(raw: sqlite3.Connection, session_id: str, started: float, last_message: float | None) -> None:
    raw.execute("UPDATE sessions SET started_at = ? WHERE id = ?", (started, session_id))
    if last_message is not None:
        raw.execute(
            "INSERT INTO messages (session_id, role, content, timestamp, active)"
            " VALUES (?, 'user', 'hi', ?, 1)",
            (session_id, last_message),
        )


def test_latest_per_source(client: TestClient, raw: sqlite3.Connection) -> None:
    s1 = create(client, source="cli")
    s2 = create(client, source="cli")
    s3 = create(client, source="telegram")
    s4 = create(client, source="cli")
    _touch(raw, s1["id"], 10, 1000)  # started first, but most recently active among the first two
    _touch(raw, s2["id"], 20, 900)
    _touch(raw, s3["id"], 30, 5000)
    _touch(raw, s4["id"], 500, None)  # no messages: last_active = started_at
    body = resolve(client, latest="true", source="cli")
    assert (body["id"], body["matched_by"], body["requested"]) == (s1["id"], "latest", s1["id"])
    assert resolve(client, latest="true")["id"] == s3["id"]
    both = client.get(
        "/sessions/resolve", params=[("latest", "true"), ("source", "cli"), ("source", "telegram")]
    )
    assert both.json()["id"] == s3["id"]


def test_latest_hides_tool_and_subagent_unless_named(client: TestClient, raw: sqlite3.Connection) -> None:
    visible = create(client, source="cli")
    hidden = create(client, source="subagent")
    _touch(raw, visible["id"], 10, None)
    _touch(raw, hidden["id"], 20, None)
    assert resolve(client, latest="true")["id"] == visible["id"]
    assert resolve(client, latest="true", source="subagent")["id"] == hidden["id"]


def test_latest_without_sessions_is_404(client: TestClient) -> None:
    create(client, source="telegram")
    response = client.get("/sessions/resolve", params={"latest": "true", "source": "cli"})
    assert response.status_code == 404
    assert response.json()["code"] == "session_not_found"


def test_bad_queries(client: TestClient) -> None:
    for params in ({}, {"ref": "x", "latest": "true"}):
        response = client.get("/sessions/resolve", params=params)
        assert response.status_code == 400
        assert response.json()["code"] == "invalid_resolve_query"
    unknown = client.get("/sessions/resolve", params={"latest": "true", "source": "myspace"})
    assert unknown.status_code == 422
    assert unknown.json()["code"] == "unknown_source"


def test_resolve_is_not_shadowed_by_session_get(client: TestClient) -> None:
    # A session literally called "resolve" is still reachable by id through /sessions/{id}.
    create(client, id="resolve", source="cli")
    assert client.get("/sessions/resolve", params={"ref": "resolve"}).json()["id"] == "resolve"


def test_non_ascii_title(client: TestClient) -> None:
    session: dict[str, Any] = create(client, title="日本語の会話", source="cli")
    response = client.get("/sessions/resolve", params={"ref": "日本語の会話"})
    assert response.json()["id"] == session["id"]
    assert "日本語の会話".encode() in response.content
