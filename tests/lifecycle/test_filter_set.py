"""The agent's shared filter set on ``GET /sessions``, prune and archive, against the agent's own code.

For every filter, the sessions ours selects are compared with what ``hermes_cli.session_filters.
build_prune_filters`` + ``SessionDB.list_prune_candidates`` (the code behind the agent's ``sessions prune``
and ``sessions archive``) select on the same file. Deliberate differences are tested, and named, below:
typed ``%`` and ``_`` are literal for us (wildcards for the agent), pinned sessions are never selected by
prune or archive, ``workspace`` and ``profile`` are ours only, and the listing applies the criteria to open
sessions too (the agent's prune and archive select ended ones only).
"""

from __future__ import annotations

import argparse
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import hermes_state
import pytest
from fastapi.testclient import TestClient
from hermes_cli.session_filters import build_prune_filters

from app.settings import Settings
from app.storage.sqlite.driver import sqlite3
from tests.api.problem_assert import assert_problem
from tests.lifecycle.helpers import DAY, agent_db, make_session, stored_rows

_NAMES = (
    "older_than",
    "newer_than",
    "before",
    "after",
    "source",
    "title",
    "end_reason",
    "cwd",
    "min_messages",
    "max_messages",
    "model",
    "provider",
    "user",
    "chat_id",
    "chat_type",
    "branch",
    "min_tokens",
    "max_tokens",
    "min_cost",
    "max_cost",
    "min_tool_calls",
    "max_tool_calls",
)

# id: age in days, source, ended, and the columns set on the row
STORE: dict[str, tuple[float, str, bool, dict[str, Any]]] = {
    "s01_deploy": (
        120,
        "cli",
        True,
        {
            "title": "Deploy prod",
            "model": "anthropic/claude-sonnet-4",
            "billing_provider": "Anthropic",
            "git_branch": "main",
            "cwd": "/work/app",
            "git_repo_root": "/work/app",
            "input_tokens": 1000,
            "output_tokens": 500,
            "actual_cost_usd": 0.5,
            "tool_call_count": 3,
            "end_reason": "cli_close",
        },
    ),
    "s02_staging": (
        3,
        "cli",
        True,
        {
            "title": "deploy staging",
            "model": "openai/gpt-5",
            "billing_provider": "OpenRouter",
            "git_branch": "feat/x",
            "cwd": "/work/app/sub",
            "input_tokens": 10,
            "output_tokens": 5,
            "estimated_cost_usd": 0.02,
            "tool_call_count": 0,
            "end_reason": "cli_close",
        },
    ),
    "s03_cron": (
        40,
        "cron",
        True,
        {"model": "openai/gpt-5", "billing_provider": "openrouter", "end_reason": "cron_complete"},
    ),
    "s04_tg_dm": (
        10,
        "telegram",
        True,
        {
            "title": "Groceries",
            "user_id": "u42",
            "chat_id": "c1",
            "chat_type": "dm",
            "input_tokens": 50000,
            "output_tokens": 20000,
            "actual_cost_usd": 2.5,
            "estimated_cost_usd": 9.0,
            "tool_call_count": 12,
            "end_reason": "session_reset",
        },
    ),
    "s05_tg_group": (
        1,
        "telegram",
        True,
        {"user_id": "u7", "chat_id": "c2", "chat_type": "group", "end_reason": "session_reset"},
    ),
    "s06_archived": (
        15,
        "cli",
        True,
        {"title": "Deploy docs", "cwd": "/work/application", "archived": 1, "end_reason": "cli_close"},
    ),
    "s07_open": (200, "cli", False, {"title": "deploy open", "cwd": "/work/app", "model": "openai/gpt-5"}),
    "s08_percent": (0.5, "cli", True, {"title": "500 things", "cwd": "/work/a_b", "end_reason": "user_exit"}),
    "s09_win": (
        60,
        "cli",
        True,
        {"title": "Windows", "cwd": "C:\\work\\app\\x", "profile_name": "ops", "end_reason": "cli_close"},
    ),
    "s10_repo": (
        5,
        "cli",
        True,
        {
            "title": "In repo",
            "cwd": "/home/ada/src/hermes/pkg",
            "git_repo_root": "/home/ada/src/Hermes",
            "git_branch": "Feat/Y",
            "end_reason": "cli_close",
        },
    ),
}
MESSAGES = {
    "s01_deploy": 6,
    "s02_staging": 2,
    "s04_tg_dm": 4,
    "s06_archived": 3,
    "s07_open": 1,
    "s10_repo": 8,
}


def _build(home: Path) -> None:
    db = agent_db(home)
    for sid, (age, source, ended, _) in STORE.items():
        make_session(db, sid, source=source, messages=MESSAGES.get(sid, 0), age_days=age, ended=ended)
    db.close()
    conn = sqlite3.connect(home / "state.db")
    with conn:
        for sid, (_, _, _, columns) in STORE.items():
            sets = ", ".join(f"{c} = ?" for c in columns)
            conn.execute(f"UPDATE sessions SET {sets} WHERE id = ?", (*columns.values(), sid))
    conn.close()


def _copy(home: Path, tmp_path: Path) -> Path:
    """A copy of the store for the agent (the WAL included: the server keeps it open)."""
    target = tmp_path / "agent-copy"
    target.mkdir(exist_ok=True)
    src, dst = sqlite3.connect(home / "state.db"), sqlite3.connect(target / "state.db")
    src.backup(dst)
    src.close()
    dst.close()
    return target


def _agent_filters(flags: dict[str, Any]) -> dict[str, Any]:
    args = argparse.Namespace(**{name: None for name in _NAMES})
    for key, value in flags.items():
        setattr(args, key, value)
    return build_prune_filters(args)


def _agent_ids(db: hermes_state.SessionDB, flags: dict[str, Any], archived: bool | None = None) -> list[str]:
    return [row["id"] for row in db.list_prune_candidates(**_agent_filters(flags), archived=archived)]


def _listed(client: TestClient, flags: dict[str, Any]) -> set[str]:
    params = {
        **flags,
        "include_children": "true",
        "include_archived": "true",
        "exclude_source": "none",
        "limit": 200,
    }
    r = client.get("/sessions", params=params)
    assert r.status_code == 200, r.text
    return {item["id"] for item in r.json()["items"]}


# Every flag of the set, alone and in combinations; time values are far from any session's start, so the
# moment each side reads "now" does not matter.
CASES: list[dict[str, Any]] = [
    {"older_than": "30"},
    {"older_than": "2d"},
    {"older_than": "1w"},
    {"newer_than": "7d"},
    {"newer_than": "36 hours"},
    {"before": "20d"},
    {"after": "50d"},
    {"before": f"{datetime.fromtimestamp(time.time() - 90 * DAY, UTC).date()}T00:00:00+00:00"},
    {"after": "30d", "before": "2d"},
    {"older_than": "2d", "before": "20d"},
    {"newer_than": "50d", "after": "7d"},
    {"source": "telegram"},
    {"title": "DEPLOY"},
    {"title": "deploy", "older_than": "10d"},
    {"end_reason": "session_reset"},
    {"cwd": "/work/app"},
    {"cwd": "/work/app/"},
    {"cwd": "C:\\work\\app"},
    {"min_messages": 3},
    {"max_messages": 2},
    {"min_messages": 2, "max_messages": 6},
    {"model": "GPT"},
    {"provider": "OPENROUTER"},
    {"provider": "anthropic"},
    {"user": "u42"},
    {"chat_id": "c2"},
    {"chat_type": "dm"},
    {"branch": "feat"},
    {"min_tokens": 1500},
    {"max_tokens": 15},
    {"min_cost": 1.0},
    {"max_cost": 0.1},
    {"min_cost": 0.01, "max_cost": 1},
    {"min_tool_calls": 1},
    {"max_tool_calls": 0},
    {"source": "cli", "model": "gpt", "newer_than": "10d"},
    {"source": "telegram", "chat_type": "group", "max_tokens": 0},
]


@pytest.mark.parametrize("flags", CASES, ids=[str(c) for c in CASES])
def test_every_filter_selects_what_the_agent_selects(
    home: Path, tmp_path: Path, client: TestClient, flags: dict[str, Any]
) -> None:
    _build(home)
    db = agent_db(_copy(home, tmp_path))
    try:
        agent_all = _agent_ids(db, flags)
        agent_unarchived = _agent_ids(db, flags, archived=False)
    finally:
        db.close()
    # Prune's dry run (archived included, as the agent's candidates by default): the same ids, oldest first.
    body = {**flags, "include_archived": True, "dry_run": True}
    if "source" in flags and len(flags) == 1:
        body["older_than_days"] = 0  # the API keeps prune_sessions' 90 days for a lone source; the CLI not
    pruned = client.post("/maintenance/prune", json=body)
    assert pruned.status_code == 200, pruned.text
    assert pruned.json()["ids"] == agent_all
    # Archive takes only sessions not archived yet, as the agent's archive_sessions.
    archived = client.post("/maintenance/archive", json={**flags, "dry_run": True})
    assert archived.status_code == 200, archived.text
    assert archived.json()["ids"] == agent_unarchived
    # The listing: the same criteria, plus the open sessions the agent's prune never looks at.
    listed = _listed(client, flags)
    assert {sid for sid in listed if STORE[sid][2]} == set(agent_all)
    assert "s07_open" not in agent_all


def test_archive_matches_the_agents_archive_sessions(
    home: Path, tmp_path: Path, client: TestClient, settings: Settings
) -> None:
    _build(home)
    conn = sqlite3.connect(home / "state.db")
    with conn:  # a compression lineage: archiving its tip's match archives the whole conversation
        conn.execute("UPDATE sessions SET end_reason = 'compression' WHERE id = 's03_cron'")
        conn.execute("UPDATE sessions SET parent_session_id = 's03_cron' WHERE id = 's05_tg_group'")
    conn.close()
    flags = {"source": "telegram", "newer_than": "5d"}
    db = agent_db(_copy(home, tmp_path))
    try:
        assert db.archive_sessions(**_agent_filters(flags), archived=False) == 1
        agent_rows = {r["id"]: r["archived"] for r in db._conn.execute("SELECT id, archived FROM sessions")}
    finally:
        db.close()
    r = client.post("/maintenance/archive", json=flags)
    assert r.status_code == 200, r.text
    assert r.json() == {"dry_run": False, "archived": 1, "ids": ["s05_tg_group"], "candidates": None}
    ours = {r["id"]: r["archived"] for r in stored_rows(settings, "SELECT id, archived FROM sessions")}
    assert ours == agent_rows and ours["s03_cron"] == 1
    again = client.post("/maintenance/archive", json=flags).json()
    assert again["archived"] == 0  # idempotent, as the agent's


def test_deliberate_differences(home: Path, tmp_path: Path, client: TestClient) -> None:
    """Where we differ from the agent on purpose, and how."""
    _build(home)
    db = agent_db(_copy(home, tmp_path))
    try:
        # The agent's LIKE patterns are not escaped: a typed % or _ is a wildcard there, literal here.
        assert _agent_ids(db, {"title": "50%"}) == ["s08_percent"]
        assert _agent_ids(db, {"cwd": "/work/a_b"}) == ["s08_percent"]
        assert _agent_ids(db, {"cwd": "/work/a?b".replace("?", "_")}) == ["s08_percent"]
        assert _agent_ids(db, {"title": "Deploy_prod"}) == ["s01_deploy"]
    finally:
        db.close()
    dry = {"include_archived": True, "dry_run": True}
    assert client.post("/maintenance/prune", json={"title": "50%", **dry}).json()["ids"] == []
    assert client.post("/maintenance/prune", json={"title": "Deploy_prod", **dry}).json()["ids"] == []
    assert client.post("/maintenance/prune", json={"cwd": "/work/a_b", **dry}).json()["ids"] == [
        "s08_percent"
    ]
    # Ours only: the agent's `list --workspace` (repo root, else cwd; substring, any case) and profile.
    assert client.post("/maintenance/prune", json={"workspace": "hermes", **dry}).json()["ids"] == [
        "s10_repo"
    ]
    assert client.post("/maintenance/prune", json={"workspace": "APP", **dry}).json()["ids"] == [
        "s01_deploy",
        "s09_win",
        "s06_archived",
        "s02_staging",
    ]
    assert client.post("/maintenance/prune", json={"profile": "ops", **dry}).json()["ids"] == ["s09_win"]


def test_compression_lineage_is_listed_by_its_tip(home: Path, client: TestClient) -> None:
    """In the folded listing a lineage is judged as shown: criteria by its tip, time by its own start."""
    db = agent_db(home)
    make_session(db, "root", messages=2, age_days=20, ended=False, model="openai/gpt-5")
    db.end_session("root", "compression")
    make_session(db, "tip", messages=9, age_days=1, ended=False, parent="root", model="anthropic/claude")
    db.close()
    assert [i["id"] for i in client.get("/sessions", params={"model": "claude"}).json()["items"]] == ["tip"]
    assert client.get("/sessions", params={"model": "gpt"}).json()["items"] == []
    assert [i["id"] for i in client.get("/sessions", params={"min_messages": 9}).json()["items"]] == ["tip"]
    assert [i["id"] for i in client.get("/sessions", params={"older_than": "10d"}).json()["items"]] == ["tip"]
    assert client.get("/sessions", params={"newer_than": "10d"}).json()["items"] == []
    children = client.get("/sessions", params={"model": "gpt", "include_children": "true"}).json()["items"]
    assert [i["id"] for i in children] == ["root"]


def test_time_filter_errors(home: Path, client: TestClient) -> None:
    r = client.get("/sessions", params={"newer_than": "soon"})
    assert_problem(r, 422, "invalid_duration")
    assert r.json()["detail"].startswith("Invalid value for newer_than: 'soon'. Use a duration like '5h'")
    r = client.post("/maintenance/prune", json={"after": "2d", "before": "5d"})
    assert_problem(r, 422, "empty_time_window")
    r = client.post("/maintenance/archive", json={"newer_than": "1d", "older_than": "1w"})
    assert_problem(r, 422, "empty_time_window")
    assert_problem(client.post("/maintenance/archive", json={}), 422, "filter_required")
    assert_problem(client.post("/maintenance/archive", json={"dry_run": True}), 422, "filter_required")
    assert_problem(client.get("/sessions", params={"min_cost": "-1"}), 422)


def test_session_ids_limit_the_work_to_what_was_shown(home: Path, client: TestClient) -> None:
    _build(home)
    body = {"source": "telegram", "older_than_days": 0}
    r = client.post("/maintenance/prune", json={**body, "session_ids": ["s05_tg_group", "s07_open", "nope"]})
    assert r.json()["pruned"] == 1
    left = {i["id"] for i in client.get("/sessions", params={"source": "telegram"}).json()["items"]}
    assert left == {"s04_tg_dm"}
