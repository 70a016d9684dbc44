"""Statistics and insights on PostgreSQL against the SQLite backend: the same history, written through the
API to both, gives the same counts and the same insights; what only SQLite's file has (free pages, WAL) and
what is not built yet for PostgreSQL (prune, archive) answer as documented."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.postgres.test_transfer import _client

START = 1_795_000_000.0  # a fixed moment, so both backends bucket the same days and hours


@pytest.fixture
def pair(pg_migrated_url: str, tmp_path: Path) -> Iterator[tuple[TestClient, TestClient]]:
    """(SQLite, PostgreSQL) apps, each on a fresh store."""
    sqlite_app = _client(tmp_path / "sqlite-home", None)
    pg_app = _client(tmp_path / "pg-home", pg_migrated_url)
    with sqlite_app as sqlite, pg_app as pg:
        yield sqlite, pg


def _history(client: TestClient) -> None:
    """Five sessions over two sources and three models, with token usage, costs and tool calls."""
    for n in range(5):
        sid = f"s{n}"
        body: dict[str, Any] = {"id": sid, "source": "cli" if n % 2 else "telegram", "model": f"m{n % 3}"}
        assert client.post("/sessions", json=body).status_code == 201
        calls = [
            {"id": f"c{n}{k}", "type": "function", "function": {"name": f"tool{k}", "arguments": "{}"}}
            for k in range(n % 3 + 1)
        ]
        messages = [
            {"role": "user", "content": f"question {n}", "timestamp": START + n * 3_600},
            {"role": "assistant", "content": "", "tool_calls": calls, "timestamp": START + n * 3_600 + 1},
            {"role": "tool", "content": "ok", "tool_call_id": f"c{n}0", "timestamp": START + n * 3_600 + 2},
        ]
        assert client.post(f"/sessions/{sid}/messages", json={"messages": messages}).status_code == 201
        usage = {"input_tokens": 100 * n, "output_tokens": 7 * n, "estimated_cost_usd": 0.125 * n}
        assert client.post(f"/sessions/{sid}/usage", json=usage).status_code == 200


def test_stats_count_the_same_history_alike(pair: tuple[TestClient, TestClient]) -> None:
    sqlite, pg = pair
    for client in pair:
        _history(client)
    ours, theirs = pg.get("/stats").json(), sqlite.get("/stats").json()
    for key in ("sessions", "messages", "by_source"):
        assert ours[key] == theirs[key], key
    assert ours["sessions"] == 5 and ours["messages"] == 15
    # PostgreSQL reports its database's size; no WAL file nor free-page list of its own to report.
    assert ours["database_bytes"] > 0 and ours["wal_bytes"] == 0 and ours["freelist_bytes"] == 0
    assert ours["indexing"] == {"pending_messages": 0}
    assert pg.get("/stats", params={"include_fts": "true"}).json()["fts_bytes"] > 0


@pytest.mark.parametrize("params", [{}, {"source": "cli"}, {"days": "3650"}])
def test_insights_are_the_same_on_both_backends(
    pair: tuple[TestClient, TestClient], params: dict[str, str]
) -> None:
    sqlite, pg = pair
    for client in pair:
        _history(client)
        # Started at a fixed moment, so both bucket by the same day.
        RawStart(client).pin()
    ours = pg.get("/insights", params=params)
    theirs = sqlite.get("/insights", params=params)
    assert ours.status_code == theirs.status_code == 200, ours.text
    # The window is measured from each request's own moment.
    mine, other = ours.json(), theirs.json()
    for key in ("since", "until"):
        assert abs(mine.pop(key) - other.pop(key)) < 60
    assert mine == other
    assert mine["top_tools"] and mine["by_day"] and any(h["messages"] for h in mine["activity_by_hour"])


class RawStart:
    """Pins every session's ``started_at`` to :data:`START` through the store the app runs on."""

    def __init__(self, client: TestClient) -> None:
        self.db: Any = client.app.state.db  # type: ignore[attr-defined]

    def pin(self) -> None:
        """Set ``started_at`` of every session in one write."""

        def job(tx: Any) -> None:
            tx.conn.execute("UPDATE sessions SET started_at = ?", (START,))

        self.db.write_sync(job)


def test_prune_and_archive_answer_501_on_postgresql(pair: tuple[TestClient, TestClient]) -> None:
    _, pg = pair
    _history(pg)
    for path, body in (
        ("/maintenance/prune", {"older_than_days": 1, "dry_run": True}),
        ("/maintenance/prune", {"older_than_days": 1}),
    ):
        response = pg.post(path, json=body)
        assert (response.status_code, response.json()["code"]) == (501, "backend_unsupported"), response.text
    assert pg.get("/sessions/s1").status_code == 200
