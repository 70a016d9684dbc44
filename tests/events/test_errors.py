"""Event stream errors answer at once, as problem+json (no stream is opened)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.api.problem_assert import assert_problem


def test_unknown_session_is_404(client: TestClient) -> None:
    assert_problem(client.get("/sessions/nope/events"), 404, "session_not_found", extra=("session_id",))


def test_bad_last_event_id_is_400(client: TestClient) -> None:
    assert_problem(client.get("/events", headers={"Last-Event-ID": "abc"}), 400, "invalid_last_event_id")
    assert_problem(client.get("/events?last_event_id=-3"), 400, "invalid_last_event_id")


def test_stream_requires_auth(anon_client: TestClient) -> None:
    assert_problem(anon_client.get("/events"), 401, "unauthorized")
