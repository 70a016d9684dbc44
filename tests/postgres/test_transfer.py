"""Import and export on PostgreSQL, against the SQLite backend as the reference: a history written by the real
agent, exported by the SQLite server, imported into PostgreSQL and exported again, comes back line for line;
and the PostgreSQL export imported into a fresh SQLite server comes back too. Conflict modes, dry runs and bad
lines answer the same on both backends."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.conftest import TOKEN
from tests.lifecycle.helpers import agent_db, make_session

JSONL = {"content-type": "application/jsonl"}


def _client(home: Path, url: str | None) -> TestClient:
    home.mkdir(parents=True, exist_ok=True)
    settings = Settings(home=home, api_token=TOKEN, titles_auto=False, database_url=url)
    return TestClient(create_app(settings), headers={"Authorization": f"Bearer {TOKEN}"})


@pytest.fixture
def pg(pg_migrated_url: str, tmp_path: Path) -> Iterator[TestClient]:
    """The app on a fresh PostgreSQL database."""
    with _client(tmp_path / "pg-home", pg_migrated_url) as client:
        yield client


def _agent_history(home: Path) -> None:
    """A history as the real agent writes it: tool calls, reasoning, a rewound message, a compression
    chain, titles, several sources, model configs and non-ASCII text."""
    db = agent_db(home)
    try:
        make_session(
            db, "a1", messages=7, title="Premier 東京", model="m1", model_config={"temperature": 0.5}
        )
        db.rewind_to_message("a1", db.get_messages("a1")[-1]["id"])
        make_session(db, "root", messages=4, title="chain", source="telegram")
        make_session(db, "tip", messages=3, parent="root", source="telegram")
        make_session(db, "open", messages=2, ended=False, source="discord")
        for n in range(5):
            make_session(db, f"bulk{n}", messages=n, source="cli" if n % 2 else "slack")
    finally:
        db.close()


def _export(client: TestClient, **params: str) -> bytes:
    response = client.get("/export.jsonl", params=params)
    assert response.status_code == 200, response.text
    return response.content


def _import(client: TestClient, body: bytes, **params: str) -> dict[str, Any]:
    response = client.post("/import", params=params, content=body, headers=JSONL)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def _lines(data: bytes) -> list[Any]:
    return [orjson.loads(line) for line in data.splitlines()]


# What differs between two requests whatever the backend: the HTML page's script nonce, the export time
# (and the digest of a body that contains it).
_PER_REQUEST = re.compile(
    rb"nonce[-=]\"?[A-Za-z0-9_-]+|exported_at: \"[^\"]*\"|Exported at: `[^`]*`|Generated on [0-9: -]+"
    rb"|SHA256 of exported body: `[0-9a-f]*`"
)


def _per_request(data: bytes) -> bytes:
    return _PER_REQUEST.sub(b"<per-request>", data)


def _problem(response: Any) -> dict[str, Any]:
    """A problem body without what differs per request (its id)."""
    body: dict[str, Any] = response.json()
    body.pop("request_id", None)
    return body


def _agent_export(tmp_path: Path) -> bytes:
    """The agent-written history as the SQLite server exports it."""
    home = tmp_path / "agent-home"
    home.mkdir()
    _agent_history(home)
    with _client(home, None) as sqlite:
        return _export(sqlite)


def test_an_agent_history_round_trips_through_postgresql_line_for_line(
    pg: TestClient, tmp_path: Path
) -> None:
    lines = _agent_export(tmp_path)
    assert lines.count(b"\n") == 9
    # The reference: the same lines imported into a fresh SQLite server (an import stores the active
    # messages an export carries, so a rewound message's timestamp no longer counts for last_active).
    with _client(tmp_path / "sqlite-home", None) as sqlite:
        assert _import(sqlite, lines)["imported"] == 9
        reference = _export(sqlite)
        report = _import(pg, lines)
        assert (report["imported"], report["failed"]) == (9, 0), report
        assert _lines(_export(pg)) == _lines(reference)
        assert _export(pg) == reference
        # Filters select the same lines on both backends.
        for params in ({"source": "telegram"}, {"session_id": "a1"}, {"since": "0"}):
            assert _export(pg, **params) == _export(sqlite, **params), params

    # And back: PostgreSQL's export into another fresh SQLite server.
    with _client(tmp_path / "again", None) as again:
        assert _import(again, _export(pg))["imported"] == 9
        assert _export(again) == reference


@pytest.mark.parametrize("fmt", ["md", "html", "qmd"])
def test_readable_exports_are_the_same_on_both_backends(pg: TestClient, tmp_path: Path, fmt: str) -> None:
    lines = _agent_export(tmp_path)
    with _client(tmp_path / "sqlite-home", None) as sqlite:
        _import(sqlite, lines)
        _import(pg, lines)
        for params in ({"session_id": "a1"}, {"session_id": "tip"}, {"source": "telegram"}, {}):
            ours = pg.get("/export", params={"format": fmt, **params})
            theirs = sqlite.get("/export", params={"format": fmt, **params})
            assert ours.status_code == theirs.status_code == 200, ours.text
            assert _per_request(ours.content) == _per_request(theirs.content), params


def test_conflicts_dry_runs_and_bad_lines_answer_alike(pg: TestClient, tmp_path: Path) -> None:
    line = {
        "id": "s",
        "source": "cli",
        "started_at": 1.0,
        "title": "one",
        "messages": [{"role": "user", "content": "v1", "timestamp": 2.0}],
    }
    line2 = {**line, "title": "two", "messages": [{"role": "user", "content": "v2", "timestamp": 3.0}]}
    bad = b"\n".join(
        [
            orjson.dumps({**line, "id": "ok"} | {"title": None}),
            b"{not json",
            orjson.dumps({"id": "bad", "source": "cli", "messages": [{"content": "no role"}]}),
            b"[1]",
            orjson.dumps(
                {"id": "nul", "source": "cli", "messages": [{"role": "user", "content": "a\u0000b"}]}
            ),
            b"",
        ]
    )
    with _client(tmp_path / "sqlite-home", None) as sqlite:
        for client in (sqlite, pg):
            assert _import(client, orjson.dumps(line), dry_run="true")["imported"] == 1
            assert client.get("/sessions/s").status_code == 404  # a dry run writes nothing
        answers = []
        for client in (sqlite, pg):
            steps = [
                _import(client, orjson.dumps(line)),
                _import(client, orjson.dumps(line2)),
                _problem(client.post("/import", params={"on_conflict": "fail"}, content=orjson.dumps(line2))),
                _import(client, orjson.dumps(line2), on_conflict="replace"),
                _import(client, bad),
            ]
            stored = client.get("/sessions/s/messages").json()["items"]
            steps.append(
                {"title": client.get("/sessions/s").json()["title"], "content": stored[0]["content"]}
            )
            steps.append({"bad": client.get("/sessions/bad").status_code})
            answers.append(steps)
        assert answers[0] == answers[1]
        assert answers[1][2]["code"] == "session_exists"
        assert answers[1][5] == {"title": "two", "content": "v2"}
        assert answers[1][6] == {"bad": 404}
