"""The agent's [L] prune filters on POST /maintenance/prune — reference checks 136–138 and §1.16.

Every filtered prune is compared with the agent's own ``prune_sessions(**filters)`` on a copy of the store.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.domain.retention import DAY_S, HOUR_S
from app.domain.session_filter import SessionFilter, TimeBounds, parse_point_in_time, prune_window
from app.settings import Settings
from app.storage.sqlite.driver import sqlite3
from tests.api.problem_assert import assert_problem
from tests.lifecycle.helpers import agent_db, make_session, rows, stored_ids

# id: (title, model, billing_provider, git_branch, end_reason, messages, archived, age_days, ended)
SESSIONS: dict[str, tuple[Any, ...]] = {
    "a_deploy_old": ("Deploy prod", "anthropic/claude-4", "Anthropic", "main", "cli_close", 4, 0, 120, True),
    "b_deploy_new": ("deploy staging", "openai/gpt-5", "OpenRouter", "feat/x", "cli_close", 2, 0, 3, True),
    "c_cron": (None, "openai/gpt-5", "openrouter", "main", "cron_complete", 1, 0, 40, True),
    "d_archived": ("Deploy docs", "anthropic/claude-4", None, "feat/docs", "cli_close", 5, 1, 10, True),
    "e_open": ("deploy open", "anthropic/claude-4", "Anthropic", "feat/x", None, 3, 0, 200, False),
    "f_percent": ("500 things", "local/llama", None, None, "user_exit", 0, 0, 1, True),
    "g_recent": ("Notes", "ANTHROPIC/Claude-4", "anthropic", "Feat/Y", "cli_close", 6, 0, 0.1, True),
}


def _build(home: Path) -> None:
    db = agent_db(home)
    for sid, (title, model, _, _, _, messages, _, age, ended) in SESSIONS.items():
        make_session(db, sid, messages=messages, title=title, model=model, age_days=age, ended=ended)
    db.close()
    conn = sqlite3.connect(home / "state.db")
    with conn:
        for sid, (_, _, provider, branch, reason, _, archived, _, ended) in SESSIONS.items():
            conn.execute(
                "UPDATE sessions SET billing_provider = ?, git_branch = ?, archived = ?, "
                "end_reason = CASE WHEN ? THEN ? ELSE end_reason END WHERE id = ?",
                (provider, branch, archived, ended, reason, sid),
            )
    conn.close()


def _left(path: Path) -> set[str]:
    """The sessions left in the agent's copy of the store."""
    return {r["id"] for r in rows(path, "SELECT id FROM sessions")}


# (request body, the agent's prune_sessions keyword arguments)
CASES: list[tuple[dict[str, Any], dict[str, Any]]] = [
    ({"title": "DEPLOY"}, {"older_than_days": None, "title_like": "DEPLOY"}),
    (
        {"title": "deploy", "include_archived": False},
        {"older_than_days": None, "title_like": "deploy", "archived": False},
    ),
    ({"model": "claude"}, {"older_than_days": None, "model_like": "claude"}),
    ({"provider": "OPENROUTER"}, {"older_than_days": None, "provider": "OPENROUTER"}),
    ({"branch": "feat"}, {"older_than_days": None, "branch_like": "feat"}),
    ({"end_reason": "cron_complete"}, {"older_than_days": None, "end_reason": "cron_complete"}),
    ({"min_messages": 4}, {"older_than_days": None, "min_messages": 4}),
    ({"max_messages": 1}, {"older_than_days": None, "max_messages": 1}),
    (
        {"min_messages": 2, "max_messages": 5, "model": "gpt"},
        {"older_than_days": None, "min_messages": 2, "max_messages": 5, "model_like": "gpt"},
    ),
    ({"older_than_days": 30, "model": "gpt"}, {"older_than_days": 30, "model_like": "gpt"}),
    (
        {"older_than_days": 5, "source": "cli", "branch": "main"},
        {"older_than_days": 5, "source": "cli", "branch_like": "main"},
    ),
]


@pytest.mark.parametrize(("body", "agent_kwargs"), CASES, ids=[str(c[0]) for c in CASES])
def test_filters_prune_what_the_agent_prunes(
    home: Path,
    tmp_path: Path,
    client: TestClient,
    settings: Settings,
    body: dict[str, Any],
    agent_kwargs: dict[str, Any],
) -> None:
    _build(home)
    agent_home = tmp_path / "agent-copy"
    agent_home.mkdir()
    src, dst = sqlite3.connect(home / "state.db"), sqlite3.connect(agent_home / "state.db")
    src.backup(dst)  # the WAL included (the server keeps it open)
    src.close()
    dst.close()
    db = agent_db(agent_home)
    agent_pruned = db.prune_sessions(**agent_kwargs)
    db.close()

    dry = client.post("/maintenance/prune", json={**body, "dry_run": True}).json()
    r = client.post("/maintenance/prune", json=body)
    assert r.status_code == 200, r.text
    assert r.json()["pruned"] == agent_pruned == dry["pruned"]
    assert set(stored_ids(settings)) == _left(agent_home / "state.db")
    assert "e_open" in stored_ids(settings)  # open sessions never, whatever matches
    assert r.json()["cutoff"] is None if "older_than_days" not in body else r.json()["cutoff"] is not None


def test_a_filter_lifts_the_90_day_default_and_source_does_not(home: Path, client: TestClient) -> None:
    _build(home)
    source_only = client.post("/maintenance/prune", json={"source": "cli", "dry_run": True}).json()
    assert source_only["ids"] == ["a_deploy_old"] and source_only["cutoff"] is not None
    filtered = client.post("/maintenance/prune", json={"title": "deploy", "dry_run": True}).json()
    assert filtered["ids"] == ["a_deploy_old", "d_archived", "b_deploy_new"]  # oldest first, any age
    assert filtered["cutoff"] is None


def test_like_wildcards_are_literal(home: Path, client: TestClient) -> None:
    _build(home)
    assert client.post("/maintenance/prune", json={"title": "50%", "dry_run": True}).json()["pruned"] == 0
    assert client.post("/maintenance/prune", json={"title": "0_t", "dry_run": True}).json()["pruned"] == 0
    assert client.post("/maintenance/prune", json={"title": "00 t", "dry_run": True}).json()["ids"] == [
        "f_percent"
    ]


@pytest.mark.parametrize(
    ("text", "expected_ids"),
    [
        ("5h", ["a_deploy_old", "c_cron", "d_archived", "b_deploy_new", "f_percent"]),
        ("2d", ["a_deploy_old", "c_cron", "d_archived", "b_deploy_new"]),
        ("1w", ["a_deploy_old", "c_cron", "d_archived"]),
        ("30", ["a_deploy_old", "c_cron"]),
        ("30m", ["a_deploy_old", "c_cron", "d_archived", "b_deploy_new", "f_percent", "g_recent"]),
    ],
)
def test_older_than_durations(home: Path, client: TestClient, text: str, expected_ids: list[str]) -> None:
    _build(home)
    body = client.post("/maintenance/prune", json={"older_than": text, "dry_run": True}).json()
    assert body["ids"] == expected_ids


def test_older_than_iso_date_and_errors(home: Path, client: TestClient, settings: Settings) -> None:
    _build(home)
    day = datetime.fromtimestamp(time.time() - 60 * DAY_S, UTC).date().isoformat()
    body = client.post("/maintenance/prune", json={"older_than": day, "dry_run": True}).json()
    assert body["ids"] == ["a_deploy_old"]
    assert body["cutoff"] == datetime.fromisoformat(day).replace(tzinfo=UTC).timestamp()
    r = client.post("/maintenance/prune", json={"older_than": "abc"})
    assert_problem(r, 422, "invalid_duration")
    r = client.post("/maintenance/prune", json={"older_than": "2d", "older_than_days": 3})
    assert_problem(r, 422, "conflicting_parameters")
    assert len(stored_ids(settings)) == len(SESSIONS)


def test_parse_point_in_time_rules() -> None:
    now = 1_800_000_000.0
    assert parse_point_in_time("30m", now, "older_than") == now - 1800
    assert parse_point_in_time("5h", now, "older_than") == now - 5 * HOUR_S
    assert parse_point_in_time("2D", now, "older_than") == now - 2 * DAY_S
    assert parse_point_in_time("1w", now, "older_than") == now - 7 * DAY_S
    assert parse_point_in_time("1.5", now, "older_than") == now - 1.5 * DAY_S
    # The agent's long unit names (hermes_cli.session_filters) are durations too.
    assert parse_point_in_time("5 hours", now, "older_than") == now - 5 * HOUR_S
    assert parse_point_in_time("90s", now, "older_than") == now - 90
    assert parse_point_in_time("2026-01-01", now, "x") == datetime(2026, 1, 1, tzinfo=UTC).timestamp()
    assert (
        parse_point_in_time("2026-01-01T12:00:00+02:00", now, "x")
        == datetime(2026, 1, 1, 10, tzinfo=UTC).timestamp()
    )
    for bad in ("abc", "-2d", "2y", "", "5 fortnights"):
        with pytest.raises(ValueError, match="Invalid value for older_than: "):
            parse_point_in_time(bad, now, "older_than")


def test_prune_window_defaults() -> None:
    now = 1_800_000_000.0
    none = TimeBounds()
    assert prune_window(none, now, older_than_days=None, has_criteria=False) == (now - 90 * DAY_S, None)
    assert prune_window(none, now, older_than_days=None, has_criteria=True) == (None, None)
    assert prune_window(none, now, older_than_days=7, has_criteria=True) == (now - 7 * DAY_S, None)
    hour = TimeBounds(older_than="1h")
    assert prune_window(hour, now, older_than_days=None, has_criteria=True) == (now - HOUR_S, None)
    assert prune_window(TimeBounds(newer_than="2d"), now, older_than_days=None, has_criteria=False) == (
        None,
        now - 2 * DAY_S,
    )
    assert not SessionFilter(source="cli", archived=False).has_criteria()
    assert SessionFilter(max_messages=0).has_criteria()
