"""Lineage helpers B builds on: classification, root, tip and chain, loop-safe and depth-limited (11.7)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from app.storage.commit_notice import Changes
from app.storage.repos.lineage import MAX_CHAIN_DEPTH, ChildKind, LineageWalks
from app.storage.sqlite.driver import sqlite3
from tests.sessions.conftest import create, set_started


def _walks(raw: sqlite3.Connection) -> LineageWalks:
    return LineageWalks(raw, Changes())


def _chain(raw: sqlite3.Connection, n: int) -> list[str]:
    ids = [f"c{i:03d}" for i in range(n)]
    raw.execute("BEGIN")
    for i, sid in enumerate(ids):
        raw.execute(
            "INSERT INTO sessions (id, source, started_at, ended_at, end_reason, parent_session_id)"
            " VALUES (?, 'cli', ?, ?, ?, ?)",
            (sid, 1000.0 + i, 1000.5 + i, "compression" if i < n - 1 else None, ids[i - 1] if i else None),
        )
    raw.execute("COMMIT")
    return ids


def test_kinds(client: TestClient, agent: Any, raw: sqlite3.Connection) -> None:
    create(client, id="p", source="cli")
    set_started(raw, "p", 100.0)
    agent.end_session("p", "compression")
    agent.create_session("comp", "cli", parent_session_id="p")
    agent.create_session("br", "cli", parent_session_id="p", model_config={"_branched_from": "p"})
    agent.create_session("dl", "subagent", parent_session_id="p", model_config={"_delegate_from": "p"})
    agent.create_session("tl", "tool", parent_session_id="p")
    kinds = {sid: _walks(raw).child_kind(sid) for sid in ("p", "comp", "br", "dl", "tl")}
    assert kinds == {
        "p": ChildKind.root,
        "comp": ChildKind.compression,
        "br": ChildKind.branch,
        "dl": ChildKind.delegate,
        "tl": ChildKind.other,
    }
    assert _walks(raw).child_kind("missing") is None
    assert _walks(raw).compression_tip("p") == "comp"
    assert _walks(raw).lineage_root("br") == "br" and _walks(raw).lineage_root("comp") == "p"


def test_legacy_branch_heuristic(client: TestClient, agent: Any, raw: sqlite3.Connection) -> None:
    create(client, id="p", source="cli")
    agent.end_session("p", "branched")
    agent.create_session("late", "cli", parent_session_id="p")
    assert _walks(raw).child_kind("late") is ChildKind.branch


def test_tip_prefers_continuing_then_open_child(
    client: TestClient, agent: Any, raw: sqlite3.Connection
) -> None:
    create(client, id="p", source="cli")
    agent.end_session("p", "compression")
    for sid, started in (("stale", 300.0), ("open", 200.0)):
        agent.create_session(sid, "cli", parent_session_id="p")
        set_started(raw, sid, started)
    agent.end_session("stale", "ws_orphan_reap")
    assert _walks(raw).compression_tip("p") == agent.get_compression_tip("p") == "open"


def test_long_chain_depth_limited(client: TestClient, raw: sqlite3.Connection) -> None:
    ids = _chain(raw, MAX_CHAIN_DEPTH + 20)
    assert _walks(raw).compression_tip(ids[0]) == ids[MAX_CHAIN_DEPTH]
    assert _walks(raw).lineage_root(ids[-1]) == ids[-1 - MAX_CHAIN_DEPTH]
    assert _walks(raw).compression_chain(ids[5])[:6] == ids[:6]


def test_cycles_terminate(client: TestClient, raw: sqlite3.Connection) -> None:
    raw.execute(
        "INSERT INTO sessions (id, source, started_at, ended_at, end_reason, parent_session_id) VALUES"
        " ('a', 'cli', 1, 2, 'compression', NULL), ('b', 'cli', 3, 4, 'compression', 'a')"
    )
    raw.execute("UPDATE sessions SET parent_session_id = 'b' WHERE id = 'a'")
    assert _walks(raw).compression_tip("a") in {"a", "b"}
    assert _walks(raw).lineage_root("a") in {"a", "b"}
    assert sorted(_walks(raw).compression_chain("a")) == ["a", "b"]
    listing = client.get("/sessions", params={"include_children": True, "order": "last_active"})
    assert listing.status_code == 200 and len(listing.json()["items"]) == 2
    assert client.get("/sessions", params={"order": "last_active"}).status_code == 200
