"""Counters saturate at 2**63 - 1 and stay INTEGER (past int64 SQLite would store a REAL in the agent's
column, PostgreSQL's BIGINT would refuse the write); /insights and /stats read REAL or saturated counters
another writer left without failing."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from app.settings import Settings
from tests.conftest import RawDatabase

MAX = 2**63 - 1


def _sql(settings: Settings, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """Run one statement on the server's store; each value of its rows comes with its Python type (an
    INTEGER is an ``int`` and a REAL a ``float`` on both backends)."""
    with RawDatabase(settings) as raw:
        return [tuple((v, type(v)) for v in row) for row in raw.execute(sql, params).fetchall()]


def _session(client: TestClient) -> str:
    created = client.post("/sessions", json={"source": "cli"})
    assert created.status_code == 201, created.text
    sid: str = created.json()["id"]
    return sid


def test_usage_increment_saturates_and_stays_integer(client: TestClient, settings: Settings) -> None:
    sid = _session(client)
    _sql(settings, "UPDATE sessions SET input_tokens = ?, api_call_count = ? WHERE id = ?", MAX - 5, MAX, sid)
    for _ in range(2):
        r = client.post(
            f"/sessions/{sid}/usage", json={"input_tokens": 10, "output_tokens": 3, "api_call_count": 1}
        )
        assert r.status_code < 300, r.text
    stored = _sql(
        settings, "SELECT input_tokens, output_tokens, api_call_count FROM sessions WHERE id = ?", sid
    )
    assert stored == [((MAX, int), (6, int), (MAX, int))]
    usage = _sql(settings, "SELECT input_tokens FROM session_model_usage WHERE session_id = ?", sid)
    assert usage == [((20, int),)]
    assert client.get(f"/sessions/{sid}").json()["input_tokens"] == MAX


def test_message_counters_saturate(client: TestClient, settings: Settings) -> None:
    sid = _session(client)
    _sql(
        settings, "UPDATE sessions SET message_count = ?, tool_call_count = ? WHERE id = ?", MAX, MAX - 1, sid
    )
    r = client.post(
        f"/sessions/{sid}/messages",
        json={"role": "assistant", "content": "x", "tool_calls": [{"id": "a"}, {"id": "b"}]},
    )
    assert r.status_code == 201, r.text
    stored = _sql(settings, "SELECT message_count, tool_call_count FROM sessions WHERE id = ?", sid)
    assert stored == [((MAX, int), (MAX, int))]


def test_insights_and_stats_survive_real_and_saturated_counters(
    client: TestClient, settings: Settings
) -> None:
    real, full, other = _session(client), _session(client), _session(client)
    if settings.database_url is None:
        # An increment past int64 by an older build: SQLite stored a REAL (and 9e999 is Inf).
        _sql(settings, "UPDATE sessions SET input_tokens = 1e30, output_tokens = 9e999 WHERE id = ?", real)
    else:
        # PostgreSQL's BIGINT holds no REAL (nor does anything reach it through import or sync: a
        # non-integral counter is refused there): the most its column can hold instead.
        _sql(settings, "UPDATE sessions SET input_tokens = ?, output_tokens = ? WHERE id = ?", MAX, MAX, real)
    # Two saturated INTEGER counters: SUM() of them raises "integer overflow" in SQLite.
    _sql(
        settings,
        "UPDATE sessions SET input_tokens = ?, message_count = ? WHERE id IN (?, ?)",
        MAX,
        MAX,
        full,
        other,
    )
    insights = client.get("/insights")
    assert insights.status_code == 200, insights.text
    totals = insights.json()["totals"]
    assert totals["input_tokens"] == MAX and totals["output_tokens"] == MAX and totals["messages"] == MAX
    stats = client.get("/stats")
    assert stats.status_code == 200, stats.text
    assert stats.json()["sessions"] == 3
