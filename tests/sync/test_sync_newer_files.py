"""``hermes sessions sync`` from newer agents' files (schema 25/26 as the 0.20 builds write them, and schema
30): every session and message arrives, with what has a meaning in our API (pinned, hidden, archived,
``last_activity_at``, the prompt the file keeps once in ``system_prompts``); file-local columns stay home."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.cli.config import CliConfig
from app.storage.sqlite.driver import sqlite3
from tests.cli.conftest import in_process_env, invoke
from tests.compat.agent_files import AgentFiles
from tests.conftest import TOKEN


@pytest.fixture(scope="module")
def agent_files(tmp_path_factory: pytest.TempPathFactory) -> AgentFiles:
    """Template agent files, each built on first use (by the newer agents themselves) and copied."""
    return AgentFiles(tmp_path_factory.mktemp("agent-files"))


@pytest.fixture(params=["axisrow-created", "nastech-optimized", "v30"])
def newer_file(request: pytest.FixtureRequest, agent_files: AgentFiles, tmp_path: Path) -> Path:
    dest = tmp_path / "laptop" / "state.db"
    dest.parent.mkdir()
    if request.param == "v30":
        return agent_files.v30(dest)
    name, layout = request.param.split("-")
    return agent_files.newer(name, layout, dest)


def _file(path: Path, sql: str) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return [tuple(r) for r in conn.execute(sql)]
    finally:
        conn.close()


def test_a_newer_agents_file_syncs_with_its_flags_and_prompts(
    newer_file: Path, client: TestClient, home: Path
) -> None:
    ids = [str(r[0]) for r in _file(newer_file, "SELECT id FROM sessions ORDER BY started_at, id")]
    roots = _file(
        newer_file, "SELECT id FROM sessions WHERE parent_session_id IS NULL ORDER BY started_at, id"
    )
    pinned, hidden = str(roots[0][0]), str(roots[-1][0])
    columns = {str(r[1]) for r in _file(newer_file, "PRAGMA table_info(sessions)")}
    conn = sqlite3.connect(newer_file)
    with conn:
        conn.execute("UPDATE sessions SET pinned = 1 WHERE id = ?", (pinned,))
        if "hidden" in columns:  # the async 0.20 build and schema 30 have it; nastech's 0.20 does not
            conn.execute("UPDATE sessions SET hidden = 1 WHERE id = ?", (hidden,))
    conn.close()
    prompts = {
        sid: prompt
        for sid, prompt in _file(
            newer_file,
            "SELECT s.id, COALESCE(sp.prompt, s.system_prompt) FROM sessions s"
            " LEFT JOIN system_prompts sp ON sp.hash = s.system_prompt_hash",
        )
    }
    messages = _file(newer_file, "SELECT session_id, role, content FROM messages ORDER BY id")
    config = CliConfig(url="http://testserver", token=TOKEN, home=home)
    result = invoke(in_process_env(config, client), "sessions", "sync", "--from", str(newer_file))
    assert result.exit_code == 0, result.output

    listed = {s["id"] for s in client.get("/sessions", params={"limit": 100}).json()["items"]}
    # A hidden session stays out of the default listing, as in the agent, on a store that keeps the flag
    # (PostgreSQL; a schema-22 file has no column for it).
    keeps_hidden = client.get("/readyz").json()["backend"] == "postgresql"
    assert (hidden in listed) is not ("hidden" in columns and keeps_hidden)
    for sid in ids:
        got = client.get(f"/sessions/{sid}", params={"include": "system_prompt"}).json()
        assert got["system_prompt"] == prompts[sid], sid
        assert got["pinned"] is (sid == pinned), sid
    held = [
        (sid, m["role"], m["content"])
        for sid in dict.fromkeys(s for s, _, _ in messages)
        for m in client.get(f"/sessions/{sid}/messages", params={"limit": 500}).json()["items"]
    ]
    assert sorted(held, key=str) == sorted(messages, key=str)
