"""Automatic titles through the API: background, once, never over a person's title, numbered on collision."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hermes_state import SessionDB

from app.main import create_app
from app.services.titling import worker
from app.settings import Settings
from app.storage.protocols import Tx
from app.storage.rows import FirstExchange
from app.storage.sqlite.driver import sqlite3
from tests.conftest import TOKEN
from tests.titles.chat_server import Behaviour, chat_server

_SYNC_COLUMNS = ["id", "session_id", "role", "content", "timestamp"]
USER = "How do I configure nginx as a reverse proxy for my Django app?"
ASSISTANT = "Add a location block with proxy_pass pointing at gunicorn."


@contextmanager
def _client(home: Path, **settings: Any) -> Iterator[TestClient]:
    app = create_app(Settings(home=home, api_token=TOKEN, **settings))
    with TestClient(app, headers={"Authorization": f"Bearer {TOKEN}"}) as client:
        yield client


@contextmanager
def _endpoint_client(home: Path, behaviour: Behaviour) -> Iterator[TestClient]:
    with chat_server(behaviour) as url, _client(home, aux_model_url=url, aux_model="m") as client:
        yield client


def _exchange(client: TestClient, sid: str) -> None:
    batch = {"messages": [{"role": "user", "content": USER}, {"role": "assistant", "content": ASSISTANT}]}
    assert client.post(f"/sessions/{sid}/messages", json=batch).status_code == 201


def _session(client: TestClient, sid: str) -> dict[str, Any]:
    body: dict[str, Any] = client.get(f"/sessions/{sid}").json()
    return body


def _wait(predicate: Callable[[], bool], timeout_s: float = 20.0) -> None:
    # Generous: a loaded CI machine has stalled for seconds; what these tests check is order, not speed.
    deadline = time.monotonic() + timeout_s
    while not predicate():
        assert time.monotonic() < deadline, "condition not reached in time"
        time.sleep(0.02)


def _generator(home: Path, sid: str) -> str | None:
    with closing(sqlite3.connect(home / "state.db")) as conn:
        row = conn.execute("SELECT generator FROM hs_session_titles WHERE session_id = ?", (sid,)).fetchone()
    return None if row is None else row[0]


def _new(client: TestClient, **body: Any) -> str:
    response = client.post("/sessions", json=body)
    assert response.status_code == 201
    return str(response.json()["id"])


def test_local_title_after_first_exchange(home: Path) -> None:
    with _client(home) as client:
        sid = _new(client)
        assert (
            client.post(f"/sessions/{sid}/messages", json={"role": "user", "content": USER}).status_code
            == 201
        )
        time.sleep(0.2)
        assert _session(client, sid)["title"] is None  # no assistant reply yet
        client.post(f"/sessions/{sid}/messages", json={"role": "assistant", "content": ASSISTANT})
        _wait(lambda: _session(client, sid)["title"] is not None)
        session = _session(client, sid)
        assert session["title_source"] == "auto"
        assert "nginx" in session["title"].casefold()
        assert _generator(home, sid) == "local"
        listed = client.get("/sessions").json()["items"]
        assert [s["title_source"] for s in listed if s["id"] == sid] == ["auto"]
    # The agent reads the generated title like any other.
    assert SessionDB(db_path=home / "state.db").get_session_title(sid) == session["title"]


def test_append_returns_before_the_title_exists(home: Path) -> None:
    behaviour = Behaviour(title="Slow Title", delay_s=0.8)
    with _endpoint_client(home, behaviour) as client:
        sid = _new(client)
        started = time.monotonic()
        _exchange(client, sid)
        assert time.monotonic() - started < 0.6  # the append did not wait for the generator
        assert _session(client, sid)["title"] is None
        _wait(lambda: _session(client, sid)["title"] is not None)
        session = _session(client, sid)
        assert (session["title"], session["title_source"]) == ("Slow Title", "auto")
        assert _generator(home, sid) == "endpoint"


def test_manual_title_set_while_generating_wins(home: Path) -> None:
    behaviour = Behaviour(title="Generated Title", delay_s=0.6)
    with _endpoint_client(home, behaviour) as client:
        sid = _new(client)
        _exchange(client, sid)
        _wait(lambda: bool(behaviour.requests))  # the generator is running now
        assert client.patch(f"/sessions/{sid}", json={"title": "Mine"}).status_code == 200
        assert behaviour.served.wait(5)
        time.sleep(0.3)  # let the writer job run
        session = _session(client, sid)
        assert (session["title"], session["title_source"]) == ("Mine", "user")


def test_collision_gets_the_next_number(home: Path) -> None:
    with _endpoint_client(home, Behaviour(title="Quarterly Report")) as client:
        taken = _new(client, title="Quarterly Report")
        assert _session(client, taken)["title_source"] == "user"
        sid = _new(client)
        _exchange(client, sid)
        _wait(lambda: _session(client, sid)["title"] is not None)
        assert _session(client, sid)["title"] == "Quarterly Report #2"
        third = _new(client)
        _exchange(client, third)
        _wait(lambda: _session(client, third)["title"] is not None)
        assert _session(client, third)["title"] == "Quarterly Report #3"


def test_once_per_session(home: Path) -> None:
    behaviour = Behaviour(title="First Title")
    with _endpoint_client(home, behaviour) as client:
        sid = _new(client)
        _exchange(client, sid)
        _wait(lambda: _session(client, sid)["title"] is not None)
        assert _session(client, sid)["title"] == "First Title"
        # The agent clears the title behind our back; more exchanges must not title it again.
        SessionDB(db_path=home / "state.db").set_session_title(sid, "")
        assert _session(client, sid)["title"] is None
        _exchange(client, sid)
        _exchange(client, sid)
        time.sleep(0.3)
        assert _session(client, sid)["title"] is None
        assert len(behaviour.requests) == 1


def test_session_created_with_title_is_never_auto_titled(home: Path) -> None:
    behaviour = Behaviour()
    with _endpoint_client(home, behaviour) as client:
        sid = _new(client, title="Chosen")
        _exchange(client, sid)
        time.sleep(0.3)
        assert _session(client, sid)["title"] == "Chosen"
        assert behaviour.requests == []


def test_config_file_titles_auto_false_disables(home: Path) -> None:
    (home / "config.yaml").write_text("titles:\n  auto: false\n", encoding="utf-8")
    with _client(home) as client:
        sid = _new(client)
        _exchange(client, sid)
        time.sleep(0.3)
        session = _session(client, sid)
        assert (session["title"], session["title_source"]) == (None, None)


def test_env_setting_wins_over_the_file(home: Path) -> None:
    (home / "config.yaml").write_text("titles:\n  auto: true\n", encoding="utf-8")
    with _client(home, titles_auto=False) as client:
        sid = _new(client)
        _exchange(client, sid)
        time.sleep(0.3)
        assert _session(client, sid)["title"] is None


def test_a_continuations_first_exchange_gets_a_title(home: Path) -> None:
    with _client(home) as client:
        parent = _new(client)  # untitled, so the child takes no "base #N"
        messages = [{"role": "user", "content": USER}, {"role": "assistant", "content": ASSISTANT}]
        response = client.post(f"/sessions/{parent}/continuations", json={"messages": messages})
        assert response.status_code == 201
        child = response.json()["id"]
        _wait(lambda: _session(client, child)["title"] is not None)
        assert "nginx" in _session(client, child)["title"].casefold()
        assert _session(client, child)["title_source"] == "auto"


def test_a_forks_copied_exchange_gets_a_title(home: Path) -> None:
    with _client(home, titles_auto=False) as client:
        parent = _new(client)
        _exchange(client, parent)
    with _client(home) as client:  # the parent's exchange was stored while titles were off
        response = client.post(f"/sessions/{parent}/fork", json={})
        assert response.status_code == 201
        child = response.json()["id"]
        _wait(lambda: _session(client, child)["title"] is not None)
        assert _session(client, child)["title_source"] == "auto"
        assert _session(client, parent)["title"] is None  # nothing new was stored in the parent


_IMPORTED: dict[str, Any] = {
    "id": "20260101_000000_abcdef",
    "source": "cli",
    "started_at": 1_767_225_600.0,
    "messages": [
        {"role": "user", "content": USER, "timestamp": 1_767_225_601.0},
        {"role": "assistant", "content": ASSISTANT, "timestamp": 1_767_225_602.0},
    ],
}


def _import(client: TestClient, lines: list[dict[str, Any]], **params: str) -> None:
    body = b"".join(json.dumps(line).encode() + b"\n" for line in lines)
    response = client.post(
        "/import", content=body, params=params, headers={"Content-Type": "application/jsonl"}
    )
    assert response.status_code == 200 and response.json()["imported"] == len(lines), response.text


def test_imported_history_keeps_its_titles(home: Path) -> None:
    with _client(home) as client:
        _import(client, [_IMPORTED])
        # A live session titled after the import shows the titler has had its turn at everything before.
        live = _new(client)
        _exchange(client, live)
        _wait(lambda: _session(client, live)["title"] is not None)
        imported = _session(client, _IMPORTED["id"])
        assert imported["title"] is None and imported["title_source"] is None


def test_an_import_asked_to_title_its_untitled_sessions(home: Path) -> None:
    with _client(home) as client:
        _import(client, [_IMPORTED], title_untitled="true")
        _wait(lambda: _session(client, _IMPORTED["id"])["title"] is not None)
        assert "nginx" in _session(client, _IMPORTED["id"])["title"].casefold()
        assert _session(client, _IMPORTED["id"])["title_source"] == "auto"


def test_sessions_queued_together_are_all_titled(home: Path) -> None:
    # One import queues more sessions than the titler looks at in one read: every one is titled, and the
    # titled and settled ones among them are left as they are.
    lines: list[dict[str, Any]] = [
        {
            "id": f"20260101_000000_{n:06x}",
            "source": "cli",
            "started_at": 1_767_225_600.0 + n,
            "title": "Chosen" if n == 7 else None,
            "messages": [
                {"role": "user", "content": f"{USER} ({n})", "timestamp": 1_767_225_601.0 + n},
                {"role": "assistant", "content": ASSISTANT, "timestamp": 1_767_225_602.0 + n},
            ],
        }
        for n in range(250)
    ]
    with _client(home) as client:
        _import(client, lines, title_untitled="true")
        _wait(lambda: all(_session(client, line["id"])["title"] is not None for line in lines), 30.0)
        sessions = [_session(client, line["id"]) for line in lines]
        assert [s["title_source"] == "auto" for s in sessions] == [n != 7 for n in range(250)]
        assert sessions[7]["title"] == "Chosen"


def test_a_look_that_fails_unexpectedly_costs_only_its_batch(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    looked: list[list[str]] = []

    def fails_once(session_ids: list[str], tx: Tx) -> list[FirstExchange | bool]:
        looked.append(session_ids)
        if len(looked) == 1:
            raise RuntimeError("a bug in the look")
        return [tx.titles.title_due(session_id) for session_id in session_ids]

    monkeypatch.setattr(worker, "_titles_due", fails_once)
    with _client(home) as client:
        first = _new(client)
        _exchange(client, first)
        _wait(lambda: bool(looked))
        second = _new(client)
        _exchange(client, second)
        _wait(lambda: _session(client, second)["title"] is not None)
        assert _session(client, second)["title_source"] == "auto"
        assert _session(client, first)["title"] is None  # its look failed; its next message brings it back
        _exchange(client, first)
        _wait(lambda: _session(client, first)["title"] is not None)


def test_one_read_tells_a_due_session_from_a_settled_one(settings: Settings) -> None:
    """``title_due`` on each backend: the exchange when one is due, ``True`` for a session that will never
    need a title (gone, titled, titled before, synced), ``False`` for one that may later (no exchange yet).
    Automatic titles are off, so nothing titles the due session meanwhile."""
    app = create_app(settings.model_copy(update={"titles_auto": False}))
    with TestClient(app, headers={"Authorization": f"Bearer {TOKEN}"}) as client:
        _title_due_answers(client)


def _title_due_answers(client: TestClient) -> None:
    db = client.app.state.db  # type: ignore[attr-defined]
    titled = _new(client, title="Chosen")
    waiting = _new(client)
    reply = client.post(f"/sessions/{waiting}/messages", json={"role": "user", "content": USER})
    assert reply.status_code == 201
    due = _new(client)
    _exchange(client, due)
    synced = {"id": "synced", "source": "cli", "started_at": 1.0}
    rows = [[1, "synced", "user", USER, 2.0], [2, "synced", "assistant", ASSISTANT, 3.0]]
    body = {"home": "laptop", "sessions": [synced], "messages": {"columns": _SYNC_COLUMNS, "rows": rows}}
    assert client.post("/sync/batches", json=body).status_code == 200
    answers = {
        sid: db.read_sync(lambda tx, sid=sid: tx.titles.title_due(sid))
        for sid in (titled, waiting, due, "synced", "missing")
    }
    assert answers[due] == FirstExchange(user=USER, assistant=ASSISTANT)
    assert {sid: answer for sid, answer in answers.items() if sid != due} == {
        titled: True,
        waiting: False,
        "synced": True,
        "missing": True,
    }
