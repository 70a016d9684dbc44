"""One set of field rules for every write path: each hostile value gets the same answer (its code and its
sentence) through sync, import, append and the API's session bodies, and nothing of it is stored."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient

from tests.conftest import HttpResponse

Answer = tuple[str, str]
COLUMNS = ["id", "session_id", "role", "content", "timestamp", "token_count", "active"]
SESSION = {"id": "s1", "source": "cli", "started_at": 1_767_600_000.0}
MESSAGE = {"role": "user", "content": "x", "timestamp": 1_767_600_001.0}
JSON = {"content-type": "application/json"}


def _sync(client: TestClient, session: dict[str, Any], message: dict[str, Any] | None) -> Answer:
    rows = []
    if message is not None:
        full = {"id": 1, "session_id": session["id"], "token_count": None, "active": 1, **message}
        rows = [[full[c] for c in COLUMNS]]
    body = {"home": "laptop", "sessions": [session], "messages": {"columns": COLUMNS, "rows": rows}}
    answer = client.post(
        "/sync/batches", content=orjson.dumps(body), headers={"content-type": "application/json"}
    )
    assert answer.status_code == 200, answer.text
    (refused,) = answer.json()["refused"]
    return refused["code"], refused["detail"]


def _import(client: TestClient, session: dict[str, Any], message: dict[str, Any] | None) -> Answer:
    line = {**session, "messages": [message] if message is not None else []}
    answer = client.post("/import", content=orjson.dumps(line), headers={"content-type": "application/jsonl"})
    assert answer.status_code == 200, answer.text
    (issue,) = answer.json()["errors"]
    return issue["code"], issue["detail"]


def _api(answer: HttpResponse) -> Answer:
    assert answer.status_code == 422, answer.text
    problem = answer.json()
    if problem.get("errors"):
        return problem["errors"][0]["type"], problem["errors"][0]["msg"]
    return problem["code"], problem["detail"]


def _append(client: TestClient, message: dict[str, Any]) -> Answer:
    assert client.post("/sessions", json={"id": "s1", "source": "cli"}).status_code == 201
    answer = _api(client.post("/sessions/s1/messages", content=orjson.dumps(message), headers=JSON))
    assert client.get("/sessions/s1/messages").json()["items"] == []
    return answer


def _same(answers: list[Answer]) -> None:
    """The same code everywhere, and the same sentence (import names the message it is in first)."""
    (code, detail), *others = answers
    assert all(other[0] == code and other[1].endswith(detail) for other in others), answers


@pytest.mark.parametrize("stamp", [1e308, -1e308, -1, "yesterday"])
def test_a_message_timestamp(client: TestClient, stamp: Any) -> None:
    message = {**MESSAGE, "timestamp": stamp}
    answers = [_append(client, message), _sync(client, SESSION, message), _import(client, SESSION, message)]
    assert answers[0][0] == "timestamp_out_of_range"
    _same(answers)
    assert client.get("/stats").json()["messages"] == 0


@pytest.mark.parametrize("count", [-1, 1.5])
def test_a_message_token_count(client: TestClient, count: int) -> None:
    message = {**MESSAGE, "token_count": count}
    answers = [_append(client, message), _sync(client, SESSION, message), _import(client, SESSION, message)]
    assert answers[0][0] == "count_out_of_range"
    _same(answers)


def test_a_message_active_flag(client: TestClient) -> None:
    message = {**MESSAGE, "active": 2}
    answers = [_sync(client, SESSION, message), _import(client, SESSION, message)]
    assert answers[0] == ("flag_not_binary", "active must be 0 or 1")
    _same(answers)


@pytest.mark.parametrize("stamp", [1e308, -1, "yesterday"])
def test_a_session_timestamp(client: TestClient, stamp: Any) -> None:
    session = {**SESSION, "started_at": stamp}
    answers = [_sync(client, session, None), _import(client, session, None)]
    assert answers[0][0] == "timestamp_out_of_range"
    _same(answers)


@pytest.mark.parametrize("title", ["x" * 10_000, ["a", "list"], 7])
def test_a_title(client: TestClient, title: Any) -> None:
    assert client.post("/sessions", json={"id": "local", "source": "cli"}).status_code == 201
    patched = _api(client.patch("/sessions/local", content=orjson.dumps({"title": title}), headers=JSON))
    created = _api(
        client.post("/sessions", content=orjson.dumps({"source": "cli", "title": title}), headers=JSON)
    )
    session = {**SESSION, "title": title}
    answers = [patched, created, _sync(client, session, None), _import(client, session, None)]
    assert answers[0][0] in ("title_too_long", "title_not_text")
    _same(answers)
    assert client.get("/sessions/local").json()["title"] is None
    assert client.get("/stats").json()["sessions"] == 1


@pytest.mark.parametrize("sid", [".", "%2e%2e", "a%2Fb", ".."])
def test_a_session_id(client: TestClient, sid: str) -> None:
    created = _api(client.post("/sessions", json={"id": sid, "source": "cli"}))
    session = {**SESSION, "id": sid}
    answers = [created, _sync(client, session, None), _import(client, session, None)]
    assert answers[0][0] == "invalid_session_id"
    _same(answers)
    assert client.get("/stats").json()["sessions"] == 0


@pytest.mark.parametrize("column", ["input_tokens", "message_count", "api_call_count"])
def test_a_session_count(client: TestClient, column: str) -> None:
    session = {**SESSION, column: -5}
    answers = [_sync(client, session, None), _import(client, session, None)]
    if column in ("input_tokens", "api_call_count"):
        assert client.post("/sessions", json={"id": "local", "source": "cli"}).status_code == 201
        answers.append(_api(client.post("/sessions/local/usage", json={column: -5})))
    assert answers[0][0] == "count_out_of_range"
    _same(answers)
