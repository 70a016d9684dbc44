"""Workspaces on create and PATCH: ``cwd``, ``git_branch``, ``git_repo_root`` and ``profile_name``, shown
on the session and selected by the listing's and prune's ``cwd`` (a path and everything under it)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

WORKSPACE = {
    "cwd": "/home/ada/src/engine/web",
    "git_branch": "feature/search",
    "git_repo_root": "/home/ada/src/engine",
    "profile_name": "work",
}


def _create(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/sessions", json={"source": "cli", **body})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def test_create_takes_the_workspace_and_shows_it(client: TestClient) -> None:
    created = _create(client, **WORKSPACE)
    assert {k: created[k] for k in WORKSPACE} == WORKSPACE
    shown = client.get(f"/sessions/{created['id']}").json()
    assert {k: shown[k] for k in WORKSPACE} == WORKSPACE


def test_patch_changes_or_clears_only_what_it_names(client: TestClient) -> None:
    sid = _create(client, **WORKSPACE)["id"]
    response = client.patch(f"/sessions/{sid}", json={"git_branch": "main", "profile_name": None})
    assert response.status_code == 200, response.text
    assert {k: response.json()[k] for k in WORKSPACE} == {
        **WORKSPACE,
        "git_branch": "main",
        "profile_name": None,
    }
    untouched = client.patch(f"/sessions/{sid}", json={"title": "named"}).json()
    assert untouched["cwd"] == WORKSPACE["cwd"]


def test_listing_and_prune_select_a_workspace_by_path_prefix(client: TestClient) -> None:
    inside = _create(client, **WORKSPACE)["id"]
    _create(client, cwd="/home/ada/src/engine-old")
    _create(client)
    listed = client.get("/sessions", params={"cwd": "/home/ada/src/engine"}).json()["items"]
    assert [s["id"] for s in listed] == [inside]
    client.post(f"/sessions/{inside}/end", json={"end_reason": "cli_close"})
    body = {"cwd": "/home/ada/src/engine/", "dry_run": True}
    answer = client.post("/maintenance/prune", json=body).json()
    assert [c["id"] for c in answer["candidates"]] == [inside]


def test_workspace_fields_refuse_what_text_fields_refuse(client: TestClient) -> None:
    response = client.post("/sessions", json={"source": "cli", "cwd": "a\x00b"})
    assert response.status_code == 422
    assert response.headers["content-type"].startswith("application/problem+json")


def test_search_selects_a_workspace_or_a_directory(client: TestClient) -> None:
    """``GET``/``POST /search`` take the listing's ``workspace`` (part of the repository root, else the
    directory) and ``cwd`` (a directory and everything under it), in discover and in browse."""
    inside = _create(client, **WORKSPACE)["id"]
    sibling = _create(client, cwd="/home/ada/src/engine-old")["id"]
    elsewhere = _create(client, cwd="/tmp/scratch")["id"]
    for sid in (inside, sibling, elsewhere):
        message = {"role": "user", "content": "where is the zeppelin manual"}
        assert client.post(f"/sessions/{sid}/messages", json={"messages": [message]}).status_code == 201

    def found(**params: Any) -> list[str]:
        answer = client.get("/search", params={"limit": 10, **params})
        assert answer.status_code == 200, answer.text
        posted = client.post("/search", json={"limit": 10, **params})
        assert posted.json()["results"] == answer.json()["results"]
        return sorted(hit["session_id"] for hit in answer.json()["results"])

    assert found(q="zeppelin") == sorted([inside, sibling, elsewhere])
    assert found(q="zeppelin", workspace="ENGINE") == sorted([inside, sibling])
    assert found(q="zeppelin", workspace=" engine/web ") == []  # the repository root is the workspace
    assert found(q="zeppelin", cwd="/home/ada/src/engine") == [inside]
    assert found(q="zeppelin", cwd="/home/ada/src/engine/web/") == [inside]
    assert found(q="zeppelin", cwd="/tmp/scratch", workspace="engine") == []
    assert found(workspace="scratch") == [elsewhere]
    assert found(workspace="   ") == sorted([inside, sibling, elsewhere])
    refused = client.get("/search", params={"q": "zeppelin", "workspace": "a\x00b"})
    assert refused.status_code == 422
    assert refused.headers["content-type"].startswith("application/problem+json")
