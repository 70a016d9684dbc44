"""Schema 30, the upstream agent's newest file, built from its DDL (tests/compat/schema30.py): served, written
with an FTS integrity-check after every write (cron, subagent and delegated sessions included, whose rows the
trigram index leaves out), and an unknown shape beyond it left read-only and byte-identical."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from app.storage.sqlite.driver import sqlite3
from tests.compat.agent_files import (
    AgentFiles,
    assert_agent_semantics,
    every_write,
    ok,
    serve,
    session_row,
)
from tests.compat.newer import file_digest
from tests.compat.oracles import assert_fts_ok, file_state, journal_mode, schema_version
from tests.compat.schema30 import DISPLAY_TRIGGERS, FTS_TRIGGERS, TRIGRAM_EXCLUDED

PREFIX = "v30"


def _query(path: Path, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    try:
        return [tuple(r) for r in conn.execute(sql, params)]
    finally:
        conn.close()


def _trigram_hits(path: Path, word: str) -> int:
    rows = _query(
        path, "SELECT COUNT(*) FROM messages_fts_trigram WHERE messages_fts_trigram MATCH ?", (word,)
    )
    return int(str(rows[0][0]))


def test_the_builder_makes_the_agents_schema_30_file(agent_files: AgentFiles, tmp_path: Path) -> None:
    """The premise of the other tests: version 30, FTS layout 3, the v30 trigram exclusions and the display
    triggers, as the agent's DDL makes them."""
    path = agent_files.v30(tmp_path / "state.db")
    assert schema_version(path) == 30
    assert ("fts_storage_version", "3") in _query(path, "SELECT key, value FROM state_meta")
    triggers = {r[0] for r in _query(path, "SELECT name FROM sqlite_master WHERE type = 'trigger'")}
    assert triggers == {*DISPLAY_TRIGGERS, *FTS_TRIGGERS}
    (fts_sql,) = _query(path, "SELECT sql FROM sqlite_master WHERE name = 'messages_fts'")[0]
    assert "content='messages_fts_src'" in str(fts_sql)
    assert_fts_ok(path)
    for kind in ("cli", "telegram", *TRIGRAM_EXCLUDED):
        word = f"{PREFIX}{kind}"
        # Every session's words are in the word index; the trigram index leaves out tool rows and the
        # cron, subagent and delegated sessions.
        assert (
            _query(path, "SELECT COUNT(*) FROM messages_fts WHERE messages_fts MATCH ?", (word,))[0][0] == 3
        )
        assert _trigram_hits(path, word) == (0 if kind in TRIGRAM_EXCLUDED else 2), kind
    # The display trigger numbered every row.
    assert _query(path, "SELECT COUNT(*) FROM messages WHERE display_order IS NOT id") == [(0,)]


def test_a_schema_30_file_is_served(agent_files: AgentFiles, home: Path) -> None:
    """Listing, reading and searching a schema-30 file, which leaves it as it was."""
    path = agent_files.v30(home / "state.db")
    before = file_state(path)
    with serve(home) as client:
        listed = ok(client.get("/sessions", params={"limit": 200, "include_children": "true"}), 200)["items"]
        # Subagent runs are among the sources listings leave out unless asked for (as before 30).
        assert {f"{PREFIX}_{k}" for k in ("cli", "telegram", "cron", "delegated")} <= {
            s["id"] for s in listed
        }
        assert ok(client.get(f"/sessions/{PREFIX}_subagent"), 200)["source"] == "subagent"
        messages = ok(client.get(f"/sessions/{PREFIX}_cli/messages"), 200)["items"]
        assert [m["role"] for m in messages] == ["user", "assistant", "tool", "assistant"]
        assert messages[1]["tool_calls"][0]["function"]["name"] == "grep"
        for kind in ("cli", "cron", "delegated"):
            hits = ok(client.get("/search", params={"q": f"{PREFIX}{kind}"}), 200)["results"]
            assert f"{PREFIX}_{kind}" in {h["session_id"] for h in hits}, kind
        cjk = ok(client.get("/search", params={"q": "京タワ"}), 200)["results"]
        assert f"{PREFIX}_cli" in {h["session_id"] for h in cjk}
    assert file_state(path) == before


def test_the_deduplicated_system_prompt_is_read(agent_files: AgentFiles, home: Path) -> None:
    agent_files.v30(home / "state.db")
    with serve(home) as client:
        session = ok(client.get(f"/sessions/{PREFIX}_cli", params={"include": "system_prompt"}), 200)
    assert session["system_prompt"] == f"{PREFIX} system prompt"


def test_every_write_keeps_every_fts_index_intact(agent_files: AgentFiles, home: Path) -> None:
    """Every kind of write with both FTS integrity-checks after each; appends to and deletes of the cron,
    subagent and delegated sessions (the trigram triggers look their session up when they fire); nothing of
    the journal mode, versions, ``state_meta`` or FTS objects changed; the agent's rules followed."""
    path = agent_files.v30(home / "state.db")
    before = file_state(path)

    def check() -> None:
        assert_fts_ok(path)

    with serve(home) as client:
        written = every_write(client, "quokka", check=check)
        for kind in TRIGRAM_EXCLUDED:
            sid = f"{PREFIX}_{kind}"
            ok(
                client.post(
                    f"/sessions/{sid}/messages", json={"role": "user", "content": f"more {kind}numbat"}
                ),
                201,
            )
            check()
            assert _trigram_hits(path, f"{kind}numbat") == 0, kind
        ok(
            client.post(
                f"/sessions/{PREFIX}_telegram/messages", json={"role": "user", "content": "telegramnumbat"}
            ),
            201,
        )
        check()
        assert _trigram_hits(path, "telegramnumbat") == 1
        for kind in (*TRIGRAM_EXCLUDED, "cli"):
            ok(client.delete(f"/sessions/{PREFIX}_{kind}"), 204)
            check()
            assert session_row(path, f"{PREFIX}_{kind}") is None
        # A compression lineage pinned at its tip is pinned as a whole, as the agent pins it.
        root = ok(client.post("/sessions", json={"source": "cli", "title": "Pinned lineage"}), 201)["id"]
        ok(client.post(f"/sessions/{root}/messages", json={"role": "user", "content": "pin me"}), 201)
        tip = ok(
            client.post(
                f"/sessions/{root}/continuations",
                json={"messages": [{"role": "user", "content": "[summary] pin"}]},
            ),
            201,
        )["id"]
        ok(client.put(f"/sessions/{tip}/pin"))
        check()
    assert file_state(path) == before
    assert_agent_semantics(path, written)
    for sid in (root, tip):
        row = session_row(path, sid)
        assert row is not None and row["pinned"] == 1, row
    ours = _query(
        path,
        "SELECT COUNT(*), SUM(display_order IS NOT id), SUM(display_identity IS NOT NULL) FROM messages"
        " WHERE session_id = ?",
        (written.created,),
    )
    # The file's trigger numbers our rows; the identity is the agent's to compute.
    assert ours == [(5, 0, 0)]
    created = session_row(path, written.created)
    assert created is not None and created["tool_names"] is None


def test_a_hidden_session_is_left_out_of_the_default_listing(agent_files: AgentFiles, home: Path) -> None:
    path = agent_files.v30(home / "state.db")
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE sessions SET hidden = 1 WHERE id = ?", (f"{PREFIX}_telegram",))
    conn.close()
    with serve(home) as client:
        listed = {s["id"] for s in ok(client.get("/sessions", params={"limit": 200}), 200)["items"]}
        assert f"{PREFIX}_telegram" not in listed and f"{PREFIX}_cli" in listed
        assert ok(client.get(f"/sessions/{PREFIX}_telegram"), 200)["id"] == f"{PREFIX}_telegram"


def test_a_rollback_journal_schema_30_file_keeps_its_mode(agent_files: AgentFiles, home: Path) -> None:
    path = agent_files.v30(home / "state.db", journal_mode="delete")
    with serve(home) as client:
        sid = ok(client.post("/sessions", json={"source": "cli", "system_prompt": "terse"}), 201)["id"]
        ok(
            client.post(f"/sessions/{sid}/messages", json={"role": "user", "content": "rollback echidna"}),
            201,
        )
        ok(client.patch(f"/sessions/{sid}", json={"title": "Kept"}), 200)
    assert journal_mode(path) == "delete"
    assert not path.with_name("state.db-wal").exists()
    assert_fts_ok(path)


UNKNOWN_SHAPE = """
CREATE TABLE fts_projection_dirty (message_id INTEGER PRIMARY KEY);
CREATE TRIGGER messages_fts_projection_dirty_insert AFTER INSERT ON messages
BEGIN
    INSERT OR IGNORE INTO fts_projection_dirty (message_id) VALUES (new.id);
END;
UPDATE schema_version SET version = 31;
"""


def test_an_unknown_shape_stays_read_only_and_byte_identical(agent_files: AgentFiles, home: Path) -> None:
    """A version past 30 with a trigger on ``messages`` we do not know (a later agent's FTS projection
    tracking): served read-only, every write refused, the reason naming the unknown trigger without advice
    to upgrade (there is nothing to upgrade to), and not a byte of the file changed."""
    path = agent_files.v30(home / "state.db")
    conn = sqlite3.connect(path, isolation_level=None)
    conn.executescript(UNKNOWN_SHAPE)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    before = file_digest(path)
    with serve(home) as client:
        ready = ok(client.get("/readyz"), 200)
        assert ready["status"] == "read_only"
        assert "messages_fts_projection_dirty_insert" in ready["reason"]
        assert "Upgrade hermes-sessions" not in ready["reason"]
        assert f"{PREFIX}_cli" in {s["id"] for s in ok(client.get("/sessions"), 200)["items"]}
        writes = [
            ("POST", "/sessions", {"source": "cli"}),
            ("POST", f"/sessions/{PREFIX}_cli/messages", {"role": "user", "content": "hi"}),
            ("PATCH", f"/sessions/{PREFIX}_cli", {"title": "renamed"}),
            ("DELETE", f"/sessions/{PREFIX}_cron", None),
        ]
        for method, url, body in writes:
            refused = client.request(method, url, json=body)
            assert refused.status_code == 503, (method, url, refused.text)
            assert "Upgrade hermes-sessions" not in refused.json()["detail"]
    assert file_digest(path) == before


def test_a_session_with_messages_never_leaves_or_joins_the_trigram_index(
    agent_files: AgentFiles, tmp_path: Path
) -> None:
    """Schema 30 decides trigram membership from ``source`` and ``_delegate_from`` when a trigger fires: a
    session that changed sides with messages stored would corrupt the index on its next delete. PATCH and
    sync refuse such a change (409 ``session_kind_locked``; sync sets the row aside with that code and stores
    the rest of its batch) and leave the file as it was; a change that keeps the session on its side goes
    through, and so does an import that replaces the session with its messages (they go first, under the
    old membership, and come back under the new one)."""
    path = agent_files.v30(tmp_path / "state.db")
    sid = f"{PREFIX}_cli"
    with serve(tmp_path) as c:
        marked = c.patch(f"/sessions/{sid}", json={"model_config": {"_delegate_from": "someone"}})
        assert marked.status_code == 409 and marked.json()["code"] == "session_kind_locked", marked.text
        kept = c.patch(f"/sessions/{sid}", json={"model_config": {"temperature": 0.2}})
        assert kept.status_code == 200, kept.text
        replaced = f"{PREFIX}_telegram"
        message = {"role": "user", "content": "now a cron line", "timestamp": 2.0}
        line = {"id": replaced, "source": "cron", "started_at": 1.0, "messages": [message]}
        imported = c.post(
            "/import?on_conflict=replace",
            content=json.dumps(line).encode(),
            headers={"content-type": "application/jsonl"},
        )
        assert imported.status_code == 200, imported.text
        batch: dict[str, Any] = {
            "home": "laptop",
            "sessions": [{"id": "synced_kind", "source": "cli", "started_at": 1.0}],
            "messages": {
                "columns": ["id", "session_id", "role", "content", "timestamp"],
                "rows": [[1, "synced_kind", "user", "a line", 2.0]],
            },
        }
        assert c.post("/sync/batches", json=batch).status_code == 200
        batch["sessions"][0]["source"] = "cron"
        batch["sessions"].append({"id": "synced_beside", "source": "cli", "started_at": 1.0})
        batch["messages"]["rows"] = [[2, "synced_beside", "user", "stored all the same", 3.0]]
        moved = c.post("/sync/batches", json=batch)
        assert moved.status_code == 200, moved.text
        (refused,) = moved.json()["refused"]
        assert (refused["session_id"], refused["code"]) == ("synced_kind", "session_kind_locked")
        assert moved.json()["messages_inserted"] == 1
    assert session_row(path, sid)["source"] == "cli"  # type: ignore[index]
    assert session_row(path, "synced_kind")["source"] == "cli"  # type: ignore[index]
    assert session_row(path, replaced)["source"] == "cron"  # type: ignore[index]
    assert_fts_ok(path)
    for victim in (sid, "synced_kind", replaced):
        with serve(tmp_path) as c:
            assert c.delete(f"/sessions/{victim}").status_code in (200, 204)
        assert_fts_ok(path)
