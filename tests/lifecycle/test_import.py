"""POST /import and /import/transcripts — round trips both ways with the real agent (11.11 check 122)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.conftest import TOKEN
from tests.lifecycle.helpers import agent_db, agent_reading_the_server, make_session, stored_rows


def _store(home: Path) -> None:
    db = agent_db(home)
    make_session(db, "root", messages=6, title="Projet ünïcode", model="m1", model_config={"t": 1})
    make_session(db, "cont", messages=3, parent="root", title="Projet ünïcode #2")
    make_session(db, "child-first", messages=2)
    db.update_token_counts("root", input_tokens=100, output_tokens=50, estimated_cost_usd=0.25, model="m1")
    db.close()


def _import(client: TestClient, body: bytes, **params: str) -> dict:
    r = client.post("/import", params=params, content=body, headers={"content-type": "application/jsonl"})
    assert r.status_code == 200, r.text
    return r.json()


@pytest.fixture
def other_settings(settings: Settings, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Settings]:
    """A second, empty store on the test's backend (its own home; on PostgreSQL its own database)."""
    home = tmp_path / "other-home"
    home.mkdir()
    url, cluster = None, None
    if settings.database_url:
        cluster = request.getfixturevalue("pg_cluster")
        url = cluster.create_database(template=request.getfixturevalue("pg_template"))
    # Automatic titles off, as in the shared settings fixture: an imported untitled session's first exchange
    # would get one after the import (tests/titles), and these tests compare the stored rows themselves.
    yield Settings(home=home, api_token=TOKEN, titles_auto=False, database_url=url)
    if cluster is not None:
        cluster.drop_database(url)


def _other_client(settings: Settings) -> TestClient:
    return TestClient(create_app(settings), headers={"Authorization": f"Bearer {TOKEN}"})


def _search(client: TestClient, q: str) -> list[Any]:
    r = client.get("/search", params={"q": q})
    assert r.status_code == 200, r.text
    results: list[Any] = r.json()["results"]
    return results


def test_round_trip_into_an_empty_store_is_identical(
    home: Path, client: TestClient, settings: Settings, other_settings: Settings
) -> None:
    _store(home)
    exported = client.get("/export.jsonl").content
    with _other_client(other_settings) as other:
        report = _import(other, exported)
        assert report["imported"] == 3 and report["failed"] == 0 and report["message_ids_kept"] == 11
        assert other.get("/export.jsonl").content == exported
        # Search finds the same messages in both stores.
        for q in ("naïve", "answer", "question 3"):
            assert _search(other, q) == _search(client, q) != [], q
    # Every column of both tables, message ids included, and the lineage link.
    for table in ("sessions", "messages"):
        assert stored_rows(other_settings, f"SELECT * FROM {table} ORDER BY 1") == stored_rows(
            settings, f"SELECT * FROM {table} ORDER BY 1"
        )
    assert stored_rows(other_settings, "SELECT parent_session_id FROM sessions WHERE id = 'cont'") == [
        {"parent_session_id": "root"}
    ]
    if settings.database_url is None:
        # The FTS indexes hold the same documents and the agent's triggers are all still in place.
        for query in (
            "SELECT rowid, content FROM messages_fts ORDER BY rowid",
            "SELECT rowid FROM messages_fts_trigram WHERE messages_fts_trigram MATCH 'naïve' ORDER BY rowid",
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name",
        ):
            assert stored_rows(other_settings, query) == stored_rows(settings, query)


def test_agent_export_all_imports_with_nothing_lost(
    client: TestClient, settings: Settings, tmp_path: Path
) -> None:
    src = tmp_path / "agent-home"
    src.mkdir()
    _store(src)
    agent = agent_db(src)
    original = agent.export_all()  # newest first: the child line comes before its parent
    agent.close()
    body = "".join(json.dumps(s, ensure_ascii=False) + "\n" for s in original).encode()
    report = _import(client, body)
    assert report["imported"] == 3 and report["linked"] == 1 and report["detached"] == 0
    client.app.state.db.close()  # type: ignore[attr-defined]
    mine = agent_reading_the_server(settings, tmp_path / "agent-view")
    assert sorted(mine.export_all(), key=lambda s: s["id"]) == sorted(original, key=lambda s: s["id"])
    mine.close()


def test_our_export_is_read_back_by_the_agents_importer(
    home: Path, client: TestClient, tmp_path: Path
) -> None:
    _store(home)
    exported = client.get("/export.jsonl").content
    lines = [orjson.loads(x) for x in exported.splitlines()]
    dst = tmp_path / "agent-dst"
    dst.mkdir()
    agent = agent_db(dst)
    result = agent.import_sessions(lines)
    assert result["ok"] and result["imported"] == 3 and result["detached"] == 0
    for line in lines:
        back = agent.export_session(line["id"])
        assert back is not None
        for key in (
            "source",
            "model",
            "model_config",
            "title",
            "started_at",
            "ended_at",
            "end_reason",
            "parent_session_id",
            "input_tokens",
            "estimated_cost_usd",
            "message_count",
        ):
            assert back[key] == line[key], key
        strip = ("id", "session_id")
        assert [{k: v for k, v in m.items() if k not in strip} for m in back["messages"]] == [
            {k: v for k, v in m.items() if k not in strip} for m in line["messages"]
        ]
    agent.close()


def test_bad_line_is_reported_and_nothing_of_it_written(client: TestClient, settings: Settings) -> None:
    good = {
        "id": "ok",
        "source": "cli",
        "started_at": 1.0,
        "messages": [{"role": "user", "content": "hi", "timestamp": 2.0}],
    }
    bad_message = {
        "id": "bad",
        "source": "cli",
        "started_at": 1.0,
        "messages": [{"role": "user", "content": "x", "timestamp": 2.0}, {"content": "no role"}],
    }
    nul = {
        "id": "nul",
        "source": "cli",
        "started_at": 1.0,
        "messages": [{"role": "user", "content": "a\u0000b"}],
    }
    body = b"\n".join(
        [orjson.dumps(good), b"{not json", orjson.dumps(bad_message), b"[1]", orjson.dumps(nul), b""]
    )
    report = _import(client, body)
    assert report["imported"] == 1 and report["failed"] == 4
    assert [(e["line"], e["code"]) for e in report["errors"]] == [
        (2, "invalid_json"),
        (3, "invalid_session"),
        (4, "invalid_line"),
        (5, "invalid_text"),
    ]
    assert report["errors"][1]["session_id"] == "bad"
    assert [r["id"] for r in stored_rows(settings, "SELECT id FROM sessions")] == ["ok"]
    assert stored_rows(settings, "SELECT COUNT(*) AS n FROM messages") == [{"n": 1}]


def test_conflict_modes_and_dry_run(client: TestClient, settings: Settings) -> None:
    line = {
        "id": "s",
        "source": "cli",
        "started_at": 1.0,
        "title": "one",
        "messages": [{"role": "user", "content": "v1", "timestamp": 2.0}],
    }
    assert _import(client, orjson.dumps(line), dry_run="true")["imported"] == 1
    assert stored_rows(settings, "SELECT COUNT(*) AS n FROM sessions") == [{"n": 0}]  # dry run wrote nothing
    assert _import(client, orjson.dumps(line))["imported"] == 1
    line2 = {**line, "title": "two", "messages": [{"role": "user", "content": "v2", "timestamp": 3.0}]}
    assert _import(client, orjson.dumps(line2))["skipped"] == 1
    r = client.post("/import", params={"on_conflict": "fail"}, content=orjson.dumps(line2))
    assert r.status_code == 409 and r.json()["code"] == "session_exists"
    assert r.json()["conflicts"] == [{"line": 1, "session_id": "s"}]
    assert _import(client, orjson.dumps(line2), on_conflict="replace")["replaced"] == 1
    assert stored_rows(settings, "SELECT title FROM sessions") == [{"title": "two"}]
    assert stored_rows(settings, "SELECT content FROM messages") == [{"content": "v2"}]


def test_message_ids_are_kept_only_when_free(client: TestClient, settings: Settings) -> None:
    a = {
        "id": "a",
        "source": "cli",
        "started_at": 1.0,
        "messages": [
            {"id": 10, "role": "user", "content": "a1", "timestamp": 2.0},
            {"id": 11, "role": "assistant", "content": "a2", "timestamp": 3.0},
        ],
    }
    b = {
        "id": "b",
        "source": "cli",
        "started_at": 1.0,
        "messages": [
            {"id": 11, "role": "user", "content": "b1", "timestamp": 2.0},
            {"id": 12, "role": "assistant", "content": "b2", "timestamp": 3.0},
        ],
    }
    report = _import(client, orjson.dumps(a) + b"\n" + orjson.dumps(b))
    assert report["message_ids_kept"] == 2
    got = stored_rows(settings, "SELECT id, session_id, content FROM messages ORDER BY id")
    assert got[:2] == [
        {"id": 10, "session_id": "a", "content": "a1"},
        {"id": 11, "session_id": "a", "content": "a2"},
    ]
    assert [r["content"] for r in got[2:]] == ["b1", "b2"] and got[2]["id"] > 11


def test_multipart_upload_and_wrong_media_type(
    home: Path, client: TestClient, other_settings: Settings
) -> None:
    _store(home)
    exported = client.get("/export.jsonl").content
    with _other_client(other_settings) as other:
        r = other.post("/import", files={"file": ("backup.jsonl", exported, "application/jsonl")})
        assert r.status_code == 200 and r.json()["imported"] == 3
        r = other.post("/import", content=b"<x/>", headers={"content-type": "application/xml"})
        assert r.status_code == 415


def test_legacy_transcripts_import(
    home: Path, client: TestClient, settings: Settings, tmp_path: Path
) -> None:
    sessions = home / "sessions"
    sessions.mkdir()
    lines = [
        {
            "role": "session_meta",
            "tools": [],
            "model": "gpt-x",
            "platform": "telegram",
            "timestamp": 1700000000.0,
        },
        {"role": "user", "content": "salut 東京", "timestamp": "2023-11-14T22:13:21"},
        {
            "role": "assistant",
            "content": "bonjour",
            "timestamp": 1700000002.5,
            "tool_calls": [{"id": "c", "function": {"name": "web", "arguments": "{}"}}],
        },
    ]
    (sessions / "20231114_221320_abc123.jsonl").write_text(
        "\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n"
    )
    (sessions / "broken.jsonl").write_text('{"role": "user"}\nnot json\n')
    r = client.post("/import/transcripts")
    assert r.status_code == 200, r.text
    report = r.json()
    assert report["imported"] == 1 and report["failed"] == 1
    assert report["errors"][0]["file"] == "broken.jsonl" and report["errors"][0]["line"] == 2
    client.app.state.db.close()  # type: ignore[attr-defined]
    agent = agent_reading_the_server(settings, tmp_path / "agent-view")
    s = agent.export_session("20231114_221320_abc123")
    assert s is not None and s["source"] == "telegram" and s["model"] == "gpt-x" and s["tool_call_count"] == 1
    assert [m["role"] for m in s["messages"]] == ["session_meta", "user", "assistant"]
    assert s["messages"][2]["tool_calls"][0]["function"]["name"] == "web"
    agent.close()


def test_edge_values_are_line_errors_never_500(client: TestClient) -> None:
    base = {"source": "cli", "started_at": 1.0}
    lines = [
        {**base, "id": "big", "messages": [{"role": "user", "content": "x", "token_count": 2**70}]},
        {**base, "id": "bigid", "messages": [{"id": 2**70, "role": "user", "content": "x"}]},
        {**base, "id": "cfg", "model_config": "not json", "messages": []},
        {**base, "id": "t1", "title": "Same title", "messages": []},
        {**base, "id": "t2", "title": "Same title", "messages": []},
        {**base, "id": "ts", "started_at": "yesterday", "messages": []},
        {**base, "id": "", "messages": []},
    ]
    body = b"\n".join(json.dumps(x).encode() for x in lines)
    report = _import(client, body)
    codes = {e.get("session_id"): e["code"] for e in report["errors"]}
    # Integers beyond int64 anywhere in a line refuse it (the JSON policy), even an id that would be replaced.
    assert codes == {
        "big": "integer_out_of_range",
        "bigid": "integer_out_of_range",
        "cfg": "invalid_session",
        "t2": "title_in_use",
        "ts": "timestamp_out_of_range",  # the field rules name the field's own problem
        None: "invalid_session",
    }
    assert report["imported"] == 1  # t1
