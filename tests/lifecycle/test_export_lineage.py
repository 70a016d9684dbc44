"""GET /export.jsonl?session_id=X&lineage=true — reference check 124 (the agent's export_session_lineage)."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest
from fastapi.testclient import TestClient

from app.services import export
from tests.api.problem_assert import assert_problem
from tests.lifecycle.helpers import agent_db, make_session


def _chain(home: Path) -> list[str]:
    """root → mid → tip, each ended by compression except the tip; a branch child and a side session."""
    db = agent_db(home)
    make_session(db, "l1_root", messages=4, title="Voyage 東京", ended=False)
    db.end_session("l1_root", "compression")
    make_session(db, "l2_mid", messages=3, parent="l1_root", ended=False)
    db.end_session("l2_mid", "compression")
    make_session(db, "l3_tip", messages=5, parent="l2_mid", ended=False, title="Voyage 東京 #2")
    make_session(db, "other", messages=2)
    db.close()
    return ["l1_root", "l2_mid", "l3_tip"]


def _agent_lineage(home: Path, session_id: str) -> dict:
    db = agent_db(home)
    try:
        return json.loads(json.dumps(db.export_session_lineage(session_id), ensure_ascii=False))
    finally:
        db.close()


def _lineage(client: TestClient, session_id: str) -> dict:
    r = client.get("/export.jsonl", params={"session_id": session_id, "lineage": "true"})
    assert r.status_code == 200, r.text
    assert r.content.count(b"\n") == 1 and r.content.endswith(b"\n")
    return orjson.loads(r.content)


@pytest.mark.parametrize("through", ["l1_root", "l2_mid", "l3_tip"])
def test_lineage_export_is_the_agents_logical_record(home: Path, client: TestClient, through: str) -> None:
    ids = _chain(home)
    line = _lineage(client, through)
    agent = _agent_lineage(home, through)
    assert list(line) == list(agent)  # tip's columns, messages, segments, lineage_session_ids
    assert line == agent
    assert line["lineage_session_ids"] == ids  # root → tip
    assert [s["id"] for s in line["segments"]] == ids
    assert line["id"] == "l3_tip" and line["message_count"] == 12 == len(line["messages"])
    assert [m["session_id"] for m in line["messages"]] == ["l1_root"] * 4 + ["l2_mid"] * 3 + ["l3_tip"] * 5


def test_lineage_streams_in_pages(home: Path, client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(export, "EXPORT_CHUNK_MESSAGES", 2)
    _chain(home)
    assert _lineage(client, "l2_mid") == _agent_lineage(home, "l2_mid")


def test_a_session_without_lineage_is_one_segment(home: Path, client: TestClient) -> None:
    _chain(home)
    db = agent_db(home)
    db.create_session("empty", "cli")
    db.close()
    for sid in ("other", "empty"):
        line = _lineage(client, sid)
        assert line == _agent_lineage(home, sid)
        assert line["lineage_session_ids"] == [sid] and len(line["segments"]) == 1


def test_lineage_needs_a_session(home: Path, client: TestClient) -> None:
    r = client.get("/export.jsonl", params={"lineage": "true"})
    assert_problem(r, 422, "lineage_needs_session_id")
    r = client.get("/export.jsonl", params={"lineage": "true", "session_id": "nope"})
    assert_problem(r, 404, "session_not_found", extra=("session_id",))
