"""The page's views in-process on both backends: its filters select what the listing does, paging is keyset,
and no input makes it answer 500."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.conftest import BACKENDS, TOKEN, backend_settings


@pytest.fixture(params=BACKENDS)
def settings(request: pytest.FixtureRequest, home: Path) -> Settings:
    """Both storage backends (PostgreSQL skips without a server)."""
    return backend_settings(request, home)


@pytest.fixture
def signed_in(settings: Settings) -> Iterator[TestClient]:
    """A signed-in browser's view of the app: the cookie, no bearer token."""
    with TestClient(create_app(settings)) as client:
        assert client.post("/login", data={"token": TOKEN}, follow_redirects=False).status_code == 303
        yield client


@pytest.fixture
def api(signed_in: TestClient) -> TestClient:
    """The same app through the JSON API with the bearer token."""
    return TestClient(signed_in.app, headers={"Authorization": f"Bearer {TOKEN}"})


def _rows(html: str) -> list[str]:
    return re.findall(r'<li class="row" id="row-[^"]*" data-id="([^"]+)"', html)


def _make(api: TestClient, source: str, title: str) -> str:
    created = api.post("/sessions", json={"source": source, "title": title})
    assert created.status_code == 201, created.text
    sid = str(created.json()["id"])
    api.post(f"/sessions/{sid}/messages", json={"role": "user", "content": f"about {title}"})
    return sid


def test_views_select_what_the_listing_does(signed_in: TestClient, api: TestClient) -> None:
    chat = _make(api, "cli", "a chat")
    job = _make(api, "cron", "a job")
    kept = _make(api, "telegram", "kept")
    old = _make(api, "cli", "old")
    api.post(f"/sessions/{old}/end", json={"end_reason": "user_exit"})
    api.patch(f"/sessions/{old}", json={"archived": True})
    api.put(f"/sessions/{kept}/pin")

    assert set(_rows(signed_in.get("/").text)) == {chat, kept}
    assert _rows(signed_in.get("/?preset=automation").text) == [job]
    assert set(_rows(signed_in.get("/?preset=all").text)) == {chat, job, kept}
    assert _rows(signed_in.get("/?archived=only&preset=all").text) == [old]
    assert set(_rows(signed_in.get("/?archived=include").text)) == {chat, kept, old}
    assert _rows(signed_in.get("/?pinned=true&preset=all").text) == [kept]
    assert _rows(signed_in.get("/?source=cron&source=telegram").text) == [kept, job]
    assert _rows(signed_in.get("/?q=job&preset=all").text) == [job]


def test_a_search_keeps_the_view_s_workspace(signed_in: TestClient, api: TestClient) -> None:
    """The page's filters apply to the messages it finds as well as to the sessions it lists."""
    inside = _make(api, "cli", "zeppelin inside")
    outside = _make(api, "cli", "zeppelin outside")
    workspace = {"cwd": "/home/ada/engine/web", "git_repo_root": "/home/ada/engine"}
    api.patch(f"/sessions/{inside}", json=workspace)
    api.patch(f"/sessions/{outside}", json={"cwd": "/srv/other"})

    def hits(html: str) -> list[str]:
        return re.findall(r'<li class="hit">\s*<a href="/s/([^"?]+)\?', html)

    assert sorted(hits(signed_in.get("/?q=zeppelin").text)) == sorted([inside, outside])
    page = signed_in.get("/?q=zeppelin&workspace=ENGINE").text
    assert hits(page) == [inside] and _rows(page) == [inside]
    page = signed_in.get("/?q=zeppelin&cwd=/srv").text
    assert hits(page) == [outside] and _rows(page) == [outside]
    # The form keeps the view: its workspace field shows what is applied.
    assert 'name="workspace" value="ENGINE"' in signed_in.get("/?q=zeppelin&workspace=ENGINE").text


def test_paging_is_keyset_and_agrees_with_the_api(signed_in: TestClient, api: TestClient) -> None:
    made = [_make(api, "cli", f"chat {n}") for n in range(55)]
    first = signed_in.get("/").text
    shown = _rows(first)
    cursor = re.search(r'hx-get="/rows\?cursor=([^"&]+)"', first)
    assert len(shown) == 50 and cursor is not None
    rest = signed_in.get(f"/rows?cursor={cursor.group(1)}").text
    shown += _rows(rest)
    assert "Load more" not in rest
    expected = [s["id"] for s in api.get("/sessions", params={"limit": 100}).json()["items"]]
    assert shown == expected and sorted(shown) == sorted(made)
    # A cursor belongs to its view: another view refuses it.
    assert signed_in.get(f"/rows?cursor={cursor.group(1)}&preset=all").status_code == 400


BAD_READS = [
    ("/rows?cursor=not-a-cursor", 400),
    ("/?q=" + "x" * 201, 422),
    ("/?source=nowhere", 422),
    ("/?after=yesterday-ish", 422),
    ("/?archived=maybe", 422),
    ("/s/missing/older?before=5", 404),
    ("/s/missing/newer?after=-1", 422),
    ("/s/missing/newer?after=99999999999999999999", 422),
]


def test_bad_input_is_a_problem_never_a_500(signed_in: TestClient, api: TestClient) -> None:
    for path, status in BAD_READS:
        answer = signed_in.get(path)
        assert answer.status_code == status, (path, answer.text)
        assert answer.headers["content-type"] == "application/problem+json", path
    sid = _make(api, "cli", "target")
    # A stale link to a transcript is a page saying so.
    for path in ("/s/missing", f"/s/{sid}?at=999999"):
        missing = signed_in.get(path)
        assert missing.status_code == 404 and missing.headers["content-type"].startswith("text/html"), path
        assert "Not found" in missing.text
    hx = {"HX-Request": "true"}
    assert signed_in.post(f"/s/{sid}/explode", headers=hx).status_code == 422
    assert signed_in.post("/bulk", data={"action": "shred", "ids": [sid]}, headers=hx).status_code == 422
    assert signed_in.post("/prune", data={"days": "-1"}, headers=hx).status_code == 422
    assert signed_in.post("/prune", data={"source": "nowhere"}, headers=hx).status_code == 422
    taken = _make(api, "cli", "taken")
    clash = signed_in.post(f"/s/{sid}/title", data={"title": "taken"}, headers=hx)
    assert clash.status_code == 409 and clash.json()["code"] == "title_in_use"
    assert api.get(f"/sessions/{taken}").json()["title"] == "taken"
    # A bulk delete skips ids that are gone and deletes the rest.
    gone = signed_in.post("/bulk", data={"action": "delete", "ids": [sid, "no-such-id"]}, headers=hx)
    assert gone.status_code == 204 and api.get(f"/sessions/{sid}").status_code == 404


def test_the_sign_in_page_names_the_commands_of_this_cli(signed_in: TestClient) -> None:
    # The agent's own CLI is also ``hermes``, with neither ``serve`` nor ``open``.
    page = TestClient(signed_in.app).get("/login").text  # a browser not signed in
    assert "<code>hermes-sessions serve</code> printed" in page
    assert "<code>hermes-sessions open</code> makes" in page
