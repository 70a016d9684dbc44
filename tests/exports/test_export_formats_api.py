"""GET /export in every format, on sessions the agent wrote, against the agent's own export code."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hermes_cli import session_export, session_export_html, session_export_md

from app.services import export_readable
from app.storage.sqlite.driver import sqlite3
from tests.exports.agent_oracle import EXPORTED_AT, agent_session_markdown, agent_trace, page_body
from tests.lifecycle.helpers import agent_db, make_session


def _store(home: Path) -> list[str]:
    db = agent_db(home)
    make_session(
        db, "a1", messages=6, title="Plan the trip 東京", model="m1", system_prompt="You are <helpful>"
    )
    make_session(db, "b2", source="telegram", messages=3)
    db.create_session("c3", "cli", model="m2")
    db.append_message("c3", "system", content="sys")
    db.append_message(
        "c3", "user", content="<memory-context>old</memory-context>  my key is sk-abcdefghijklmnop1234 "
    )
    db.append_message(
        "c3",
        "assistant",
        content="noted",
        tool_calls=[
            {
                "id": "t1",
                "type": "function",
                "function": {
                    "name": "terminal",
                    "arguments": '{"cmd": "echo $TOKEN", "password": "hunter2hunter2"}',
                },
            }
        ],
    )
    db.append_message(
        "c3",
        "tool",
        content={"ok": True, "dsn": "postgres://u:pw12345@h/db"},
        tool_call_id="t1",
        tool_name="terminal",
    )
    db.append_message("c3", "user", content="Review the conversation above and consider saving to memory.")
    db.append_message("c3", "assistant", content="curator reply that the agent drops")
    db.append_message(
        "c3",
        "user",
        content=[
            {"type": "text", "text": "see image"},
            {"type": "image_url", "image_url": {"url": "data:x"}},
        ],
    )
    db.close()
    return ["a1", "b2", "c3"]


def _agent_sessions(home: Path, ids: list[str], *, redact: bool = False) -> list[dict[str, Any]]:
    db = agent_db(home)
    try:
        active = {s["id"]: s["last_active"] for s in db.export_all()}
        out = []
        for sid in ids:
            data = db.export_session(sid) | {"last_active": active[sid]}
            out.append(session_export_md.redact_session_data(data) if redact else data)
        return out
    finally:
        db.close()


def _get(client: TestClient, **params: str) -> Any:
    r = client.get("/export", params=params)
    assert r.status_code == 200, r.text
    return r


@pytest.mark.parametrize("redact", [False, True])
def test_markdown_document_and_prompts_are_the_agents(home: Path, client: TestClient, redact: bool) -> None:
    ids = _store(home)
    flag = str(redact).lower()
    sessions = _agent_sessions(home, ids, redact=redact)
    r = _get(client, format="md", redact=flag)
    assert r.headers["content-type"] == "text/markdown; charset=utf-8"
    assert r.text == session_export.render_sessions_export(sessions, fmt="markdown")
    assert _get(
        client, format="md", only="user-prompts", redact=flag
    ).text == session_export.render_sessions_export(sessions, fmt="markdown", only="user-prompts")
    prompts = _get(client, format="jsonl", only="user-prompts", redact=flag)
    assert prompts.text == session_export.render_sessions_export(sessions, fmt="jsonl", only="user-prompts")
    single = _get(client, format="md", session_id="c3", redact=flag).text
    assert single == session_export.render_sessions_export([sessions[2]], fmt="markdown")
    assert ("sk-abcdefghijklmnop1234" in single) is not redact


def test_plain_jsonl_is_byte_for_byte_export_jsonl(home: Path, client: TestClient) -> None:
    _store(home)
    old = client.get("/export.jsonl").content
    assert _get(client).content == old
    r = _get(client, format="jsonl", redact="false", source="telegram")
    assert r.content == client.get("/export.jsonl", params={"source": "telegram"}).content
    assert r.headers["content-type"].startswith("application/jsonl")


def test_redacted_jsonl_is_the_plain_line_with_redacted_messages(home: Path, client: TestClient) -> None:
    ids = _store(home)
    plain = [json.loads(x) for x in _get(client).content.splitlines()]
    redacted = [json.loads(x) for x in _get(client, redact="true").content.splitlines()]
    expected = [session_export_md.redact_session_data(s) for s in plain]
    assert redacted == expected
    assert [s["id"] for s in redacted] == ids
    assert b"hunter2hunter2" not in _get(client, redact="true").content


@pytest.mark.parametrize("fmt", ["md", "qmd"])
def test_session_files_are_the_agents(
    home: Path, client: TestClient, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    ids = _store(home)
    monkeypatch.setattr(export_readable, "time", SimpleNamespace(time=lambda: EXPORTED_AT))
    for session in _agent_sessions(home, ids):
        r = _get(client, format=fmt, layout="files", session_id=session["id"])
        assert r.text == agent_session_markdown(monkeypatch, session, fmt)
        assert r.headers["x-hermes-message-count"] == str(len(session["messages"]))
        name = session_export_md.safe_session_filename(session, fmt=fmt)
        assert r.headers["content-disposition"].endswith(name.replace(" ", "%20"))
    # Without a session id: every file, one after another.
    every = _get(client, format=fmt, layout="files").text
    assert every == "".join(agent_session_markdown(monkeypatch, s, fmt) for s in _agent_sessions(home, ids))


def test_logical_lineage_file_is_the_agents(
    home: Path, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = agent_db(home)
    make_session(db, "l1", messages=4, title="Voyage", ended=False)
    db.end_session("l1", "compression")
    make_session(db, "l2", messages=3, parent="l1", title="Voyage #2")
    lineage = db.export_session_lineage("l2")
    active = {s["id"]: s["last_active"] for s in db.export_all()}
    db.close()
    monkeypatch.setattr(export_readable, "time", SimpleNamespace(time=lambda: EXPORTED_AT))
    r = _get(client, format="md", layout="files", session_id="l2", lineage="logical")
    # Deliberately different: the agent's logical record has no last_active, so its updated_at is empty;
    # ours says when the session was last active.
    expected = agent_session_markdown(monkeypatch, lineage | {"last_active": active["l2"]}, "md")
    assert r.text == expected
    assert r.headers["x-hermes-lineage-session-ids"] == "l1 l2"
    assert r.headers["x-hermes-message-count"] == "7"
    assert "## Compression segment: l1" in r.text


def test_logical_lineage_html_is_the_agents_page_of_its_record(home: Path, client: TestClient) -> None:
    """The HTML export honours lineage=logical as Markdown does: one session's page over every segment, the
    agent's HTML of its ``export_session_lineage`` record."""
    db = agent_db(home)
    make_session(db, "l1", messages=4, title="Voyage", model="m1", ended=False)
    db.end_session("l1", "compression")
    make_session(db, "l2", messages=3, parent="l1", title="Voyage #2", model="m1")
    lineage = db.export_session_lineage("l2")
    single = db.export_session("l2")
    db.close()
    page = _get(client, format="html", session_id="l2", lineage="logical")
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    assert page_body(page.text) == page_body(session_export_html.generate_html_export(lineage))
    assert page.text.count('<div class="message ') == 7
    alone = _get(client, format="html", session_id="l2").text
    assert page_body(alone) == page_body(session_export_html.generate_html_export(single))
    assert alone.count('<div class="message ') == 3
    redacted = _get(client, format="html", session_id="l2", lineage="logical", redact="true")
    assert redacted.status_code == 200 and redacted.text.count('<div class="message ') == 7


def test_html_is_the_agents_page(home: Path, client: TestClient) -> None:
    ids = _store(home)
    # Deliberately different: a session without a model reads "Model: Unknown" (the agent prints "None").
    sessions = [
        s if s["model"] is not None else {**s, "model": "Unknown"} for s in _agent_sessions(home, ids)
    ]
    page = _get(client, format="html")
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    assert page_body(page.text) == page_body(session_export_html.generate_multi_session_html_export(sessions))
    one = _get(client, format="html", session_id="a1").text
    assert page_body(one) == page_body(session_export_html.generate_html_export(sessions[0]))
    # Deliberately different: our page needs nothing from the network (the agent's loads remote fonts).
    assert "https://" not in one.replace("http://www.w3.org/2000/svg", "")
    empty = _get(client, format="html", source="nowhere").text
    assert empty == session_export_html.generate_multi_session_html_export([])


def _normalized(trace: str) -> str:
    # uuid4s and the export time differ run to run: number them in order of first appearance.
    seen: dict[str, str] = {}
    pattern = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|toolu_[0-9a-f]{16}"
    trace = re.sub(pattern, lambda m: seen.setdefault(m.group(0), f"u{len(seen)}"), trace)
    return re.sub(r'"timestamp": "[^"]+"', '"timestamp": "T"', trace)


@pytest.mark.parametrize("redact", [None, True, False])
def test_trace_is_the_agents(
    home: Path, client: TestClient, monkeypatch: pytest.MonkeyPatch, redact: bool | None
) -> None:
    ids = _store(home)
    params = {"format": "trace"} | ({} if redact is None else {"redact": str(redact).lower()})
    r = _get(client, **params)
    assert r.headers["content-type"] == "application/x-ndjson"
    db = agent_db(home)
    expected = [
        agent_trace(
            monkeypatch,
            db.get_messages_as_conversation(sid),
            session_id=sid,
            model=(db.get_session(sid) or {}).get("model") or "",
            redact=redact is not False,  # on by default, as the agent's
        )
        for sid in ids
    ]
    db.close()
    # The agent writes the exporting shell's working directory; a server has none worth writing, so ours
    # writes the session's own cwd and git branch (empty here) instead: the one deliberate difference.
    ours = [
        "".join(line + "\n" for line in r.text.splitlines() if f'"sessionId": "{sid}"' in line) for sid in ids
    ]
    assert [_normalized(t) for t in ours] == [
        _normalized(t.replace('"cwd": "/work/project"', '"cwd": ""')) for t in expected
    ]
    assert ("hunter2hunter2" in r.text) is (redact is False)
    assert "curator reply" not in r.text and "old" not in r.text


def test_trace_uses_the_sessions_workspace(home: Path, client: TestClient) -> None:
    db = agent_db(home)
    make_session(db, "w1", messages=2)
    db.close()
    with sqlite3.connect(home / "state.db") as conn:
        conn.execute("UPDATE sessions SET cwd = '/src/app', git_branch = 'main' WHERE id = 'w1'")
    line = json.loads(_get(client, format="trace", session_id="w1").text.splitlines()[0])
    assert (line["cwd"], line["gitBranch"]) == ("/src/app", "main")


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({"format": "html", "only": "user-prompts"}, "only_not_available"),
        ({"format": "qmd", "layout": "document"}, "layout_not_available"),
        ({"format": "html", "layout": "files"}, "layout_not_available"),
        ({"format": "md", "layout": "files", "lineage": "logical"}, "lineage_needs_session_id"),
        ({"format": "html", "lineage": "logical"}, "lineage_needs_session_id"),
        ({"format": "trace", "lineage": "logical", "session_id": "a1"}, "lineage_not_available"),
        (
            {"format": "jsonl", "lineage": "logical", "session_id": "a1", "redact": "true"},
            "lineage_not_available",
        ),
    ],
)
def test_combinations_that_do_not_go_together_are_422(
    home: Path, client: TestClient, params: dict[str, str], code: str
) -> None:
    _store(home)
    r = client.get("/export", params=params)
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["code"] == code


def test_unknown_session_is_404_in_every_format(home: Path, client: TestClient) -> None:
    _store(home)
    for fmt in ("jsonl", "md", "qmd", "html", "trace"):
        r = client.get("/export", params={"format": fmt, "session_id": "nope"})
        assert r.status_code == 404, fmt
        assert r.json()["code"] == "session_not_found"


def test_readable_formats_stream_in_pages(
    home: Path, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = _store(home)
    sessions = _agent_sessions(home, ids)
    expected = session_export.render_sessions_export(sessions, fmt="markdown")
    monkeypatch.setattr(export_readable, "CHUNK_MESSAGES", 2)
    monkeypatch.setattr(export_readable, "CHUNK_SESSIONS", 1)
    with client.stream("GET", "/export", params={"format": "md"}) as r:
        chunks = list(r.iter_raw())
    assert b"".join(chunks).decode() == expected
    assert len(chunks) > 5
