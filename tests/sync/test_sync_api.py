"""``POST /sync/batches``: idempotence by origin, rows set aside by the field rules, parents that arrive
late, and the sessions a home may not overwrite."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from app.settings import Settings
from tests.conftest import RawDatabase

COLUMNS = ["id", "session_id", "role", "content", "timestamp"]


def _batch(home: str, sessions: list[dict[str, Any]], rows: list[list[Any]]) -> dict[str, Any]:
    return {"home": home, "sessions": sessions, "messages": {"columns": COLUMNS, "rows": rows}}


def _session(sid: str, **extra: Any) -> dict[str, Any]:
    return {"id": sid, "source": "cli", "started_at": 1_767_600_000.0, "message_count": 2, **extra}


def test_a_repeated_batch_stores_nothing_twice(client: TestClient) -> None:
    body = _batch(
        "laptop",
        [_session("s1", title="First")],
        [[7, "s1", "user", "hello", 1_767_600_001.0], [9, "s1", "assistant", "hi", 1_767_600_002.0]],
    )
    first = client.post("/sync/batches", json=body)
    assert first.status_code == 200, first.text
    assert first.json() | {"first_message_id": None} == {
        "home": "laptop",
        "sessions_inserted": 1,
        "sessions_updated": 0,
        "sessions_new": ["s1"],
        "sessions_conflicting": [],
        "titles_changed": [],
        "parents_linked": 0,
        "messages_inserted": 2,
        "messages_skipped": 0,
        "messages_orphaned": 0,
        "first_message_id": None,
        "refused": [],
    }
    again = client.post("/sync/batches", json=body).json()
    assert (again["sessions_updated"], again["messages_inserted"], again["messages_skipped"]) == (1, 0, 2)
    stored = client.get("/sessions/s1/messages").json()["items"]
    assert [(m["role"], m["content"]) for m in stored] == [("user", "hello"), ("assistant", "hi")]
    assert client.get("/sessions/s1").json()["home"] == "laptop"


def test_the_agents_structured_content_is_carried_as_stored(client: TestClient) -> None:
    stored = '\x00json:[{"type": "text", "text": "look"}]'
    body = _batch("laptop", [_session("s1")], [[1, "s1", "user", stored, 1_767_600_001.0]])
    assert client.post("/sync/batches", json=body).status_code == 200
    (message,) = client.get("/sessions/s1/messages").json()["items"]
    assert message["content"] == [{"type": "text", "text": "look"}]


def test_a_bad_row_is_set_aside_and_the_rest_stored(client: TestClient) -> None:
    body = _batch(
        "laptop",
        [_session("s1"), _session("s2", started_at="yesterday")],
        [
            [1, "s1", "user", "fine", 1_767_600_001.0],
            [2, "s1", None, "no role", 1_767_600_002.0],
            [3, "s2", "user", "its session was refused", 1_767_600_003.0],
            [4, "s1", "user", "also fine", 1e308],
        ],
    )
    answer = client.post("/sync/batches", json=body)
    assert answer.status_code == 200, answer.text
    result = answer.json()
    assert result["messages_inserted"] == 1
    assert [(r["session_id"], r["message_id"], r["code"]) for r in result["refused"]] == [
        ("s2", None, "timestamp_out_of_range"),
        ("s1", 2, "invalid_row"),
        ("s2", 3, "session_refused"),
        ("s1", 4, "timestamp_out_of_range"),
    ]
    assert [m["content"] for m in client.get("/sessions/s1/messages").json()["items"]] == ["fine"]
    assert client.get("/sessions/s2").status_code == 404


def test_a_batch_of_the_wrong_shape_is_refused_whole(client: TestClient) -> None:
    for bad in (
        _batch("laptop", [], [["x", "s1", "user", "id not a number", 1.0]]),
        _batch("lap\ntop", [_session("s3")], []),
        {"home": "laptop", "messages": {"columns": ["role"], "rows": [["user"]]}},
    ):
        refused = client.post("/sync/batches", json=bad)
        assert (refused.status_code, refused.json()["code"]) == (422, "invalid_sync_batch"), bad
    assert client.get("/stats").json()["sessions"] == 0


def test_a_parent_that_arrives_after_its_child_is_linked(client: TestClient) -> None:
    child = _session("child", parent_session_id="parent", started_at=1_767_600_100.0)
    first = client.post("/sync/batches", json=_batch("laptop", [child], [])).json()
    assert first["parents_linked"] == 0
    assert client.get("/sessions/child").json()["parent_session_id"] is None
    second = client.post("/sync/batches", json=_batch("laptop", [_session("parent")], [])).json()
    assert second["parents_linked"] == 1
    assert client.get("/sessions/child").json()["parent_session_id"] == "parent"


def test_a_home_never_overwrites_a_session_it_does_not_own(client: TestClient) -> None:
    local = client.post("/sessions", json={"id": "local-1", "source": "cli", "title": "Mine"})
    assert local.status_code == 201
    body = _batch(
        "laptop",
        [_session("local-1", title="Theirs"), _session("s1", title="Mine")],
        [
            [1, "local-1", "user", "not taken", 1.0],
            [2, "s1", "user", "taken", 1.0],
            [3, "nowhere", "user", "x", 1.0],
        ],
    )
    answer = client.post("/sync/batches", json=body).json()
    assert answer["sessions_conflicting"] == ["local-1"]
    assert (answer["messages_inserted"], answer["messages_orphaned"]) == (1, 2)
    assert answer["titles_changed"] == ["s1"]
    assert client.get("/sessions/local-1").json()["title"] == "Mine"
    assert client.get("/sessions/local-1").json()["home"] is None
    assert client.get("/sessions/s1").json()["title"] == "Mine [laptop]"
    listed = client.get("/sessions", params={"home": "laptop"}).json()["items"]
    assert [s["id"] for s in listed] == ["s1"]


def test_rows_the_store_refuses_are_set_aside_and_the_rest_stored(
    client: TestClient, settings: Settings
) -> None:
    """A constraint of the store (a newer schema's, say) refuses a session row and a message: exactly those
    are set aside with the store's reason, the session's messages with it, and the rest is stored."""
    raw = RawDatabase(settings)
    try:
        if settings.database_url:
            raw.execute("ALTER TABLE sessions ADD CONSTRAINT \"refused by a constraint\" CHECK (id <> 'bad')")
            raw.execute('ALTER TABLE hs_sync_messages ADD CONSTRAINT "refused too" CHECK (origin_id <> 3)')
        else:
            # On our tables: a trigger on the agent's tables that no agent build writes would make the whole
            # file read-only (the shape check), which is not what this test is about.
            for table, column, value, reason in (
                ("hs_sync_sessions", "session_id", "'bad'", "refused by a constraint"),
                ("hs_sync_messages", "origin_id", "3", "refused too"),
            ):
                raw.execute(
                    f"CREATE TRIGGER refuse_{table} BEFORE INSERT ON {table} WHEN NEW.{column} = {value}"
                    f" BEGIN SELECT RAISE(ABORT, '{reason}'); END"
                )
    finally:
        raw.close()
    rows = [
        [1, "good", "user", "hi", 1.0],
        [2, "bad", "user", "its session was refused", 2.0],
        [3, "good", "assistant", "refused itself", 3.0],
        [4, "good", "user", "after it", 4.0],
    ]
    answer = client.post("/sync/batches", json=_batch("laptop", [_session("good"), _session("bad")], rows))
    assert answer.status_code == 200, answer.text
    result = answer.json()
    refused = {(r["session_id"], r["message_id"]): r for r in result["refused"]}
    assert set(refused) == {("bad", None), ("bad", 2), ("good", 3)}
    assert refused["bad", None]["code"] == "write_failed"
    assert "refused by a constraint" in refused["bad", None]["detail"]
    assert refused["bad", 2]["code"] == "session_refused"
    assert "refused too" in refused["good", 3]["detail"]
    assert (result["sessions_inserted"], result["sessions_new"], result["messages_inserted"]) == (
        1,
        ["good"],
        2,
    )
    assert client.get("/sessions/bad").status_code == 404
    stored = client.get("/sessions/good/messages").json()["items"]
    assert [m["content"] for m in stored] == ["hi", "after it"]
    assert client.get("/stats").json()["messages"] == 2


def test_titles_passed_around_in_one_batch_are_decided_in_batch_order(client: TestClient) -> None:
    """Each session of a batch sees the titles of the ones before it as if they had been written one by
    one: titles given up earlier in the batch are free, titles taken earlier are not, and the store's unique
    title index accepts the whole batch (rows that give titles up are written before rows that take them)."""
    assert client.post("/sessions", json={"id": "local", "source": "cli", "title": "Mine"}).status_code == 201
    first = _batch("laptop", [_session("a", title="T"), _session("c", title="U")], [])
    assert client.post("/sync/batches", json=first).status_code == 200
    titles = {
        "a": "U",  # C still holds U: renamed
        "c": "T",  # A gave T up just before
        "b": "U",  # C gave U up just before
        "d": "T",  # C holds T now: renamed
        "e": "Mine",  # a local session holds it: renamed
        "f": "T [laptop]",  # D holds it: renamed again
        "g": "T",  # C holds T and D holds its renamed form: no title
    }
    second = _batch("laptop", [_session(sid, title=title) for sid, title in titles.items()], [])
    answer = client.post("/sync/batches", json=second)
    assert answer.status_code == 200, answer.text
    assert answer.json()["titles_changed"] == ["a", "d", "e", "f", "g"]
    stored = {sid: client.get(f"/sessions/{sid}").json()["title"] for sid in [*titles, "local"]}
    assert stored == {
        "a": "U [laptop]",
        "c": "T",
        "b": "U",
        "d": "T [laptop]",
        "e": "Mine [laptop]",
        "f": "T [laptop] [laptop]",
        "g": None,
        "local": "Mine",
    }


AWKWARD_TEXT = ["nul \x00 inside", "escaped \\u0000 text", "\\\x00", 'quotes " and \\ ', "数 é 🙂", ""]


def test_session_rows_are_stored_exactly(client: TestClient) -> None:
    # Text with NUL, a literal backslash-u0000, quotes and non-ASCII, and numbers at the int64 edge: what
    # GET returns is what the batch held, on both backends (PostgreSQL writes new sessions from one JSON
    # document, NUL through the store's stand-in).
    sessions = [
        _session(
            f"t{i}",
            title=f"title {i} {text}",
            model=text,
            end_reason=text or None,
            input_tokens=2**63 - 1 - i,
            ended_at=1_767_600_100.5 + i,
        )
        for i, text in enumerate(AWKWARD_TEXT)
    ]
    assert client.post("/sync/batches", json=_batch("laptop", sessions, [])).status_code == 200
    for sent in sessions:
        got = client.get(f"/sessions/{sent['id']}").json()
        assert {k: got[k] for k in ("title", "model", "end_reason", "ended_at", "started_at")} == {
            k: sent.get(k) for k in ("title", "model", "end_reason", "ended_at", "started_at")
        }
        assert got["input_tokens"] == sent["input_tokens"], got


def test_a_batch_naming_a_session_twice_is_refused(client: TestClient) -> None:
    body = _batch("laptop", [_session("d1", title="one"), _session("d2"), _session("d1", title="two")], [])
    answer = client.post("/sync/batches", json=body)
    assert (answer.status_code, answer.json()["code"]) == (422, "invalid_sync_batch")
    assert answer.json()["errors"][0]["loc"] == ["body", "sessions", 2, "id"]
    assert "d1" in answer.json()["detail"]
    assert client.get("/sessions/d1").status_code == 404
