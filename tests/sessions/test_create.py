"""POST /sessions: ids, sources, conflicts, titles, idempotency (reference checks 11.2, 11.3)."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from app.storage.sqlite.driver import sqlite3
from tests.sessions.conftest import create


def test_default_create_is_api_server_with_api_id(client: TestClient) -> None:
    response = client.post("/sessions", json={})
    assert response.status_code == 201
    body = response.json()
    assert re.fullmatch(r"api_\d+_[0-9a-f]{8}", body["id"])
    assert body["source"] == "api_server"
    assert response.headers["location"] == f"/sessions/{body['id']}"
    assert response.headers["etag"].startswith('"')
    assert body["ended_at"] is None and body["message_count"] == 0 and body["input_tokens"] == 0
    assert body["lineage_root_id"] == body["id"]
    assert body["preview"] == "" and body["last_active"] == body["started_at"]


def test_create_without_body(client: TestClient) -> None:
    assert client.post("/sessions").status_code == 201


def test_source_id_formats(client: TestClient) -> None:
    assert re.fullmatch(r"\d{8}_\d{6}_[0-9a-f]{6}", create(client, source="cli")["id"])
    assert re.fullmatch(r"\d{8}_\d{6}_[0-9a-f]{8}", create(client, source="telegram")["id"])


def test_unknown_source_is_422(client: TestClient) -> None:
    response = client.post("/sessions", json={"source": "myspace"})
    assert response.status_code == 422
    assert response.json()["code"] == "unknown_source"


def test_invalid_ids_are_422(client: TestClient) -> None:
    for bad in ["a\nb", "a\rb", "a/b", "..", "x" * 257]:
        response = client.post("/sessions", json={"id": bad})
        assert response.status_code == 422, bad
        assert response.json()["code"] == "invalid_session_id"
    nul = client.post("/sessions", json={"id": "a\u0000b"})
    assert nul.status_code == 422
    assert create(client, id="y" * 256)["id"] == "y" * 256


def test_existing_id_is_409_and_row_unchanged(client: TestClient, raw: sqlite3.Connection) -> None:
    create(client, id="fixed", model="m1", source="cli")
    response = client.post("/sessions", json={"id": "fixed", "model": "m2", "source": "telegram"})
    assert response.status_code == 409
    assert response.json()["code"] == "session_exists"
    row = raw.execute("SELECT model, source FROM sessions WHERE id = 'fixed'").fetchone()
    assert tuple(row) == ("m1", "cli")


def test_fields_stored_in_agent_format(client: TestClient, agent: Any, raw: sqlite3.Connection) -> None:
    body = create(
        client,
        id="s1",
        source="cli",
        model="gpt",
        model_config={"provider": "openai", "ünï": "çødé"},
        system_prompt="You are helpful.",
        user_id="u1",
        session_key="agent:main:cli",
        chat_id="c",
        chat_type="dm",
        thread_id="t",
    )
    assert body["model_config"] == {"provider": "openai", "ünï": "çødé"}
    assert body["has_system_prompt"] is True and "system_prompt" not in body
    row = raw.execute(
        "SELECT model_config, archived, typeof(started_at) FROM sessions WHERE id='s1'"
    ).fetchone()
    assert isinstance(row[0], str) and row[1] == 0 and row[2] == "real"
    stored = agent.get_session("s1")
    assert stored["system_prompt"] == "You are helpful." and stored["user_id"] == "u1"
    assert stored["chat_type"] == "dm" and stored["session_key"] == "agent:main:cli"


def test_parent_must_exist(client: TestClient) -> None:
    response = client.post("/sessions", json={"parent_session_id": "ghost"})
    assert response.status_code == 422
    assert response.json()["code"] == "parent_not_found"
    parent = create(client, id="p")
    assert create(client, parent_session_id=parent["id"])["parent_session_id"] == "p"


def test_refused_title_leaves_no_row(client: TestClient, raw: sqlite3.Connection) -> None:
    create(client, id="holder", title="Taken")
    conflict = client.post("/sessions", json={"id": "second", "title": "Taken"})
    assert conflict.status_code == 409
    assert conflict.json()["code"] == "title_in_use"
    too_long = client.post("/sessions", json={"id": "third", "title": "a" * 101})
    assert too_long.status_code == 422 and too_long.json()["code"] == "title_too_long"
    empty = client.post("/sessions", json={"id": "fourth", "title": "\u200b\u202e"})
    assert empty.status_code == 422 and empty.json()["code"] == "invalid_title"
    ids = {r[0] for r in raw.execute("SELECT id FROM sessions")}
    assert ids == {"holder"}


def test_title_uniqueness_is_global_across_sources(client: TestClient) -> None:
    create(client, source="telegram", title="X")
    response = client.post("/sessions", json={"source": "cli", "title": "X"})
    assert response.status_code == 409


def test_unicode_title_kept(client: TestClient) -> None:
    response = client.post("/sessions", json={"title": "日本語 🚀 café"})
    assert response.json()["title"] == "日本語 🚀 café"
    assert "日本語".encode() in response.content  # not \u-escaped


def test_idempotent_create_replays(client: TestClient, raw: sqlite3.Connection) -> None:
    headers = {"Idempotency-Key": "k1"}
    first = client.post("/sessions", json={"title": "Once"}, headers=headers)
    again = client.post("/sessions", json={"title": "Once"}, headers=headers)
    assert first.status_code == again.status_code == 201
    assert first.json()["id"] == again.json()["id"]
    assert again.headers["idempotent-replayed"] == "true"
    assert raw.execute("SELECT COUNT(*) FROM sessions").fetchone()[0] == 1
    reused = client.post("/sessions", json={"title": "Other"}, headers=headers)
    assert reused.status_code == 422 and reused.json()["code"] == "idempotency_key_reused"


def test_nul_in_text_is_422(client: TestClient) -> None:
    response = client.post("/sessions", json={"model": "a\u0000"})
    assert response.status_code == 422
