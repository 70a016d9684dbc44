"""The leader analyzes the tables a bulk write changed (``app.storage.postgres.statistics``), so the planner
stops planning for an empty table well before autovacuum's next round; small changes are left to
autovacuum, and a replica that does not lead analyzes nothing."""

from __future__ import annotations

import time
from typing import Any

import psycopg

from app.storage.postgres.statistics import StatisticsKeeper


def _bulk_rows(url: str, count: int) -> None:
    """``count`` user messages in one session, as a big sync batch stores them (autovacuum kept off the
    table, so that only the keeper analyzes it), once the table's change counter shows them."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("ALTER TABLE messages SET (autovacuum_enabled = off)")
        conn.execute("INSERT INTO sessions (id, source, started_at) VALUES ('bulk', 'cli', 0)")
        conn.execute(
            "INSERT INTO messages (session_id, role, content, timestamp)"
            " SELECT 'bulk', 'user', 'bulk message ' || g, g FROM generate_series(1, %s) g",
            (count,),
        )
    _wait_for(lambda: _changed(url) >= count)


def _changed(url: str) -> int:
    """Rows of ``messages`` changed since its last analyze, as the statistics system counts them (a
    backend reports its counts shortly after its transactions end)."""
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT n_mod_since_analyze FROM pg_stat_user_tables WHERE relname = 'messages'"
        ).fetchone()
    return int(row[0]) if row else 0


def _reltuples(url: str, table: str) -> float:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT reltuples FROM pg_class WHERE relname = %s", (table,)).fetchone()
    assert row is not None
    return float(row[0])


def _wait_for(condition: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def _after_passes(url: str, passes: int) -> StatisticsKeeper:
    """A leading keeper (1,000 changed rows call for an analyze), stopped after ``passes`` passes."""
    keeper = StatisticsKeeper(url, lambda: True, busy_s=0.02, idle_s=0.02, min_rows=1_000)
    keeper.start()
    try:
        _wait_for(lambda: keeper.passes >= passes)
    finally:
        keeper.stop()
    return keeper


def test_the_leader_analyzes_a_table_a_bulk_write_filled(pg_migrated_url: str) -> None:
    assert _reltuples(pg_migrated_url, "messages") == -1  # never analyzed: planned as an empty table
    _bulk_rows(pg_migrated_url, 3_000)
    keeper = StatisticsKeeper(pg_migrated_url, lambda: True, busy_s=0.02, idle_s=0.05, min_rows=1_000)
    keeper.start()
    try:
        _wait_for(lambda: "messages" in keeper.analyzed)
        passes = keeper.passes
        _wait_for(lambda: keeper.passes > passes + 2)  # passes after it: nothing more to analyze
    finally:
        keeper.stop()
    assert not keeper.running
    assert keeper.analyzed.count("messages") == 1
    assert _reltuples(pg_migrated_url, "messages") == 3_000
    with psycopg.connect(pg_migrated_url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT last_analyze IS NOT NULL FROM pg_stat_user_tables WHERE relname = 'messages'"
        ).fetchone()
    assert row == (True,)


def test_changes_below_the_threshold_are_left_to_autovacuum(pg_migrated_url: str) -> None:
    _bulk_rows(pg_migrated_url, 300)
    keeper = _after_passes(pg_migrated_url, 5)
    assert keeper.analyzed == []
    assert _reltuples(pg_migrated_url, "messages") == -1


def test_a_replica_that_does_not_lead_analyzes_nothing(pg_migrated_url: str) -> None:
    _bulk_rows(pg_migrated_url, 3_000)
    keeper = StatisticsKeeper(pg_migrated_url, lambda: False, busy_s=0.02, min_rows=1_000)
    keeper.start()
    time.sleep(0.3)
    keeper.stop()
    assert keeper.passes == 0 and keeper.analyzed == []
    assert _reltuples(pg_migrated_url, "messages") == -1


def test_a_table_grown_by_less_than_its_size_waits(pg_migrated_url: str) -> None:
    _bulk_rows(pg_migrated_url, 3_000)
    with psycopg.connect(pg_migrated_url, autocommit=True) as conn:
        conn.execute("ANALYZE messages")
        conn.execute(
            "INSERT INTO messages (session_id, role, content, timestamp)"
            " SELECT 'bulk', 'user', 'more ' || g, g FROM generate_series(1, 2000) g"
        )
    _wait_for(lambda: _changed(pg_migrated_url) >= 2_000)
    keeper = _after_passes(pg_migrated_url, 5)
    assert "messages" not in keeper.analyzed
    assert _reltuples(pg_migrated_url, "messages") == 3_000
