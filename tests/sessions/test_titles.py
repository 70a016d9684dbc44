"""Titles: sanitising, uniqueness, compression-ancestor transfer, lineage numbering (reference 11.5)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.errors import Conflict
from app.storage.commit_notice import Changes
from app.storage.repos.titles_repo import Titles
from app.storage.sqlite.driver import sqlite3
from tests.sessions.conftest import create, set_started


def _titles(raw: sqlite3.Connection) -> Titles:
    return Titles(raw, Changes())


def _title(client: TestClient, sid: str, title: Any) -> Any:
    return client.patch(f"/sessions/{sid}", json={"title": title})


def test_sanitising(client: TestClient) -> None:
    create(client, id="s")
    assert _title(client, "s", "  My   Project \n").json()["title"] == "My Project"
    assert _title(client, "s", "\u200bHi\u202e\ufeff").json()["title"] == "Hi"
    assert _title(client, "s", "日本語 🚀 café").json()["title"] == "日本語 🚀 café"
    assert _title(client, "s", "100%_done").json()["title"] == "100%_done"


def test_empty_after_cleanup_is_invalid_title(client: TestClient) -> None:
    create(client, id="s", title="Before")
    response = _title(client, "s", "\x07\x7f")
    assert response.status_code == 422 and response.json()["code"] == "invalid_title"
    assert client.get("/sessions/s").json()["title"] == "Before"


def test_length_limit(client: TestClient) -> None:
    create(client, id="s")
    assert _title(client, "s", "a" * 100).status_code == 200
    response = _title(client, "s", "a" * 101)
    assert response.status_code == 422
    assert response.json()["code"] == "title_too_long"
    assert response.json()["detail"] == "Title too long (101 chars, max 100)"


def test_in_use_names_holder_and_suggestion(client: TestClient) -> None:
    create(client, id="s1", title="My Project")
    create(client, id="s2")
    response = _title(client, "s2", "My Project")
    assert response.status_code == 409
    problem = response.json()
    assert problem["code"] == "title_in_use"
    assert problem["detail"] == "Title 'My Project' is already in use by session s1"
    assert problem["holder"] == "s1" and problem["suggested_title"] == "My Project #2"
    assert client.get("/sessions/s2").json()["title"] is None
    assert _title(client, "s1", "My Project").status_code == 200  # own title again is fine
    assert _title(client, "s2", problem["suggested_title"]).status_code == 200


def test_many_untitled_sessions_allowed(client: TestClient) -> None:
    create(client, id="a")
    create(client, id="b")
    assert _title(client, "a", None).status_code == 200
    assert _title(client, "b", None).status_code == 200


def test_compression_ancestor_title_transfers(client: TestClient, agent: Any) -> None:
    create(client, id="root", title="T", source="cli")
    agent.end_session("root", "compression")
    create(client, id="cont", parent_session_id="root", source="cli")
    moved = _title(client, "cont", "T")
    assert moved.status_code == 200 and moved.json()["title"] == "T"
    assert agent.get_session("root")["title"] is None
    # A branch child is not an ancestor chain member: no transfer from a sibling.
    create(client, id="other", title="U")
    assert _title(client, "root", "U").status_code == 409


def test_agent_reads_our_titles(client: TestClient, agent: Any) -> None:
    create(client, id="s", title="Shared")
    assert agent.get_session_by_title("Shared")["id"] == "s"
    with pytest.raises(ValueError):
        agent.set_session_title(create(client)["id"], "Shared")


def test_lineage_numbering_and_resolution(client: TestClient, raw: sqlite3.Connection) -> None:
    assert _titles(raw).next_title_in_lineage("my project") == "my project"
    create(client, id="a", title="my project")
    assert _titles(raw).next_title_in_lineage("my project") == "my project #2"
    create(client, id="b", title="my project #2")
    create(client, id="c", title="my project #3")
    assert _titles(raw).next_title_in_lineage("my project") == "my project #4"
    assert _titles(raw).next_title_in_lineage("my project #2") == "my project #4"
    for sid, t in (("a", 1.0), ("b", 2.0), ("c", 3.0)):
        set_started(raw, sid, t)
    assert _titles(raw).resolve_by_title("my project") == "c"
    assert _titles(raw).resolve_by_title("my project #2") == "b"
    assert _titles(raw).resolve_by_title("unknown") is None
    create(client, id="x", title="myXproject")
    assert _titles(raw).resolve_by_title("my_project") is None


def test_set_title_repo_contract(client: TestClient, raw: sqlite3.Connection) -> None:
    assert _titles(raw).set_title("missing", "x") is False
    create(client, id="h", title="Held")
    create(client, id="o")
    with pytest.raises(Conflict) as info:
        _titles(raw).set_title("o", "Held")
    assert info.value.extra == {"holder": "h", "suggested_title": "Held #2"}
