"""GET /stats and GET /insights — reference check 148 and its improvements (all sources, WAL, free pages)."""

from __future__ import annotations

import os
from pathlib import Path

from fastapi.testclient import TestClient

from app.settings import Settings
from tests.conftest import RawDatabase
from tests.lifecycle.helpers import agent_db, make_session


def test_stats_counts_every_source_and_sizes(home: Path, client: TestClient, settings: Settings) -> None:
    db = agent_db(home)
    make_session(db, "a", source="cli", messages=3)
    make_session(db, "b", source="cli", messages=2)
    make_session(db, "c", source="signal", messages=1)  # not in the agent's fixed list, counted here
    make_session(db, "d", source="cron", messages=0)
    db.close()
    r = client.get("/stats")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["sessions"] == 4 and body["messages"] == 6
    assert body["by_source"] == {"cli": 2, "cron": 1, "signal": 1}
    if settings.database_url is None:
        assert body["database_bytes"] == os.path.getsize(home / "state.db")
    else:  # the database's size on the server, in its blocks; the WAL is the cluster's, not reported
        with RawDatabase(settings) as raw:
            size = int(raw.execute("SELECT pg_database_size(current_database())").fetchone()[0])
        assert body["database_bytes"] == body["page_size"] * body["page_count"] > 0
        assert abs(size - body["database_bytes"]) < 16 * body["page_size"], (size, body["database_bytes"])
        assert body["wal_bytes"] == 0
    assert body["wal_bytes"] >= 0 and body["freelist_bytes"] >= 0 and body["fts_bytes"] is None
    assert client.get("/stats", params={"include_fts": "true"}).json()["fts_bytes"] > 0


def test_insights_tokens_cost_tools_and_activity(home: Path, client: TestClient) -> None:
    db = agent_db(home)
    make_session(db, "a", source="cli", messages=3, model="model-a")
    make_session(db, "b", source="telegram", messages=6, model="model-b")
    make_session(db, "old", source="cli", messages=3, model="model-a", age_days=60)
    db.update_token_counts("a", input_tokens=100, output_tokens=10, estimated_cost_usd=0.5, model="model-a")
    db.update_token_counts("b", input_tokens=300, output_tokens=30, actual_cost_usd=1.25, model="model-b")
    db.close()
    body = client.get("/insights").json()
    assert body["days"] == 30
    totals = body["totals"]
    assert totals["sessions"] == 2 and totals["input_tokens"] == 400 and totals["cost_usd"] == 1.75
    assert [m["model"] for m in body["by_model"]] == ["model-b", "model-a"]
    assert {s["source"]: s["sessions"] for s in body["by_source"]} == {"cli": 1, "telegram": 1}
    assert len(body["by_day"]) == 1 and body["by_day"][0]["cost_usd"] == 1.75
    assert body["top_tools"] == [{"tool": "terminal", "calls": 3}]
    assert len(body["activity_by_hour"]) == 24 and len(body["activity_by_weekday"]) == 7
    assert sum(h["messages"] for h in body["activity_by_hour"]) == 9
    only_cli = client.get("/insights", params={"source": "cli", "days": 90}).json()
    assert only_cli["totals"]["sessions"] == 2 and only_cli["top_tools"] == [{"tool": "terminal", "calls": 2}]
    assert client.get("/insights", params={"days": 0}).status_code == 422
