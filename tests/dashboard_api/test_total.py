"""The listing's ``total``: exact after every change made through this server; after another program's
commit (the agent's), reused for at most ``COUNT_REUSE_S``, since that program commits on every message."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path
from typing import Any

import hermes_state
import pytest

from app.storage.commit_notice import Changes
from app.storage.repos import session_list
from app.storage.repos.sessions_repo import Sessions
from app.storage.rows import ListQuery
from app.storage.sqlite.driver import sqlite3
from tests.dashboard_api.conftest import Pair, copy_store


def _total(pair: Pair, **params: Any) -> int:
    total: int = pair.ours.get("/api/sessions", params=params).json()["total"]
    return total


def test_our_own_changes_show_in_the_total_at_once(pair: Pair) -> None:
    before = _total(pair)
    assert pair.ours.delete("/api/sessions/plain03").json() == {"ok": True}
    assert _total(pair) == before - 1
    pair.ours.patch("/api/sessions/plain07", json={"archived": True})
    assert _total(pair) == before - 2
    assert _total(pair, archived="only") == 2


def test_another_programs_commit_shows_within_the_reuse_window(
    agent_store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a file no server of ours runs on (a live one's own jobs react to the agent's commits)."""
    path = copy_store(agent_store, tmp_path)
    query = ListQuery(limit=20)
    with closing(sqlite3.connect(path)) as conn:
        counted = Sessions(conn, Changes()).count_listed
        before = counted(query)
        agent = hermes_state.SessionDB(db_path=path)
        try:
            agent.create_session("agent-new", "cli")
        finally:
            agent.close()
        assert counted(query) == before  # counted a moment ago: reused
        monkeypatch.setattr(session_list, "COUNT_REUSE_S", 0.0)
        assert counted(query) == before + 1
        monkeypatch.undo()
        agent = hermes_state.SessionDB(db_path=path)
        try:
            agent.create_session("agent-newer", "cli")
        finally:
            agent.close()
        session_list.forget_counts()  # what the writer does after each of its commits
        assert counted(query) == before + 2
