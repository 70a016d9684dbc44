"""Deferred indexing survives kill -9: the backlog is durable and the restarted server finishes the job."""

from __future__ import annotations

import time
from pathlib import Path

import httpx

from tests.conftest import start_live_server
from tests.lifecycle.test_import_deferred import complete, fts_state, jsonl


def _pending(client: httpx.Client) -> int:
    return int(client.get("/stats").json()["indexing"]["pending_messages"])


def test_kill_9_mid_indexing_then_restart_completes_both_indexes(home: Path) -> None:
    body = jsonl(400, 50)  # 20,000 messages: a few seconds of indexing
    server = start_live_server(home)
    try:
        with server.client() as client:
            r = client.post("/import", content=body, headers={"content-type": "application/jsonl"})
            assert r.status_code == 200, r.text
            assert r.json()["messages"] == 20_000
            deadline = time.monotonic() + 60
            while _pending(client) >= 20_000 and time.monotonic() < deadline:
                time.sleep(0.02)  # wait until the indexer has committed a few slices
            before_kill = _pending(client)
    finally:
        server.stop(9)
    assert 0 < before_kill < 20_000, "the kill must land mid-indexing"
    killed = fts_state(home / "state.db")
    assert killed["backlog"] > 0
    assert killed["messages_fts_rows"] == killed["messages_fts_trigram_rows"]  # slices commit atomically

    server = start_live_server(home)
    try:
        with server.client() as client:
            deadline = time.monotonic() + 120
            while _pending(client) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert _pending(client) == 0
            hits = client.get("/search", params={"q": "words399m49"}).json()["results"]
            assert [h["session_id"] for h in hits] == ["imp-399"]
    finally:
        server.stop()
    assert complete(fts_state(home / "state.db"), 20_000)
