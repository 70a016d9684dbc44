"""Auto-prune — reference checks 11.14 (139–147): interval, garbage marker, nothing to prune, errors."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from fastapi.testclient import TestClient

import app.main
from app.main import create_app
from app.services import maintenance
from app.settings import Settings
from app.storage.sqlite.driver import sqlite3
from app.storage.sqlite.store import Database
from tests.conftest import TOKEN, FilelessStore
from tests.lifecycle.helpers import agent_db, make_session, rows


def _client(home: Path, **overrides: object) -> TestClient:
    settings = Settings(home=home, api_token=TOKEN, **overrides)  # type: ignore[arg-type]
    return TestClient(create_app(settings), headers={"Authorization": f"Bearer {TOKEN}"})


@pytest.fixture
def pruning(home: Path) -> Iterator[TestClient]:
    """A server with auto-prune enabled by config.yaml but the scheduler not yet due to wake again."""
    (home / "config.yaml").write_text("sessions:\n  auto_prune: true\n  retention_days: 90\n")
    db = agent_db(home)
    db.set_meta("last_auto_prune", str(time.time()))  # start-up run sees the interval and skips
    db.close()
    with _client(home, sessions_vacuum_min_free_ratio=0.0) as c:
        _wait_for_startup_run(c)
        yield c


def _wait_for_startup_run(client: TestClient) -> None:
    pruner = client.app.state.auto_pruner  # type: ignore[attr-defined]
    deadline = time.monotonic() + 10
    while pruner.last_result is None:
        assert time.monotonic() < deadline, "the start-up run did not happen"
        time.sleep(0.02)


def _marker(home: Path) -> str | None:
    got = rows(home / "state.db", "SELECT value FROM state_meta WHERE key = 'last_auto_prune'")
    return got[0]["value"] if got else None


def _set_marker(home: Path, value: str) -> None:
    db = agent_db(home)
    db.set_meta("last_auto_prune", value)
    db.close()


def test_a_run_keeps_pinned_sessions(home: Path, pruning: TestClient) -> None:
    db = agent_db(home)
    for sid in ("old", "pinned"):
        make_session(db, sid, age_days=100, messages=3)
    db.close()
    assert pruning.put("/sessions/pinned/pin").status_code == 200
    _set_marker(home, "0")
    body = pruning.post("/maintenance/auto-prune/run").json()
    assert body["skipped"] is False and body["pruned"] == 1
    assert [r["id"] for r in rows(home / "state.db", "SELECT id FROM sessions")] == ["pinned"]


def test_first_run_prunes_vacuums_and_records_the_marker(home: Path, pruning: TestClient) -> None:
    db = agent_db(home)
    make_session(db, "old", age_days=100, messages=30)
    make_session(db, "new", age_days=1)
    db.close()
    with sqlite3.connect(home / "state.db") as conn:  # no marker at all: never ran
        conn.execute("DELETE FROM state_meta WHERE key = 'last_auto_prune'")
    before = time.time()
    r = pruning.post("/maintenance/auto-prune/run")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["skipped"] is False and body["pruned"] == 1 and body["vacuumed"] is True
    marker = _marker(home)
    assert marker is not None and float(marker) >= before  # a float string, as the agent writes it
    status = pruning.get("/maintenance/auto-prune").json()
    assert (
        status["enabled"] and status["pruned"] == 1 and status["vacuumed"] is True and status["error"] is None
    )
    assert status["last_run_at"] == float(marker)
    assert status["next_run_at"] == pytest.approx(float(marker) + 24 * 3600)
    # The marker survives VACUUM and the agent reads it.
    agent = agent_db(home)
    assert agent.get_meta("last_auto_prune") == marker
    assert agent.maybe_auto_prune_and_vacuum() == {"skipped": True, "pruned": 0, "vacuumed": False}
    agent.close()


def test_second_run_within_the_interval_is_skipped(home: Path, pruning: TestClient) -> None:
    body = pruning.post("/maintenance/auto-prune/run").json()
    assert body["skipped"] is True and body["pruned"] == 0 and body["vacuumed"] is False
    assert body["reason"] == "interval"


def test_backdated_marker_runs_again(home: Path, pruning: TestClient) -> None:
    _set_marker(home, str(time.time() - 25 * 3600))
    body = pruning.post("/maintenance/auto-prune/run").json()
    assert body["skipped"] is False


def test_garbage_marker_counts_as_never_run(home: Path, pruning: TestClient) -> None:
    _set_marker(home, "garbage")
    assert pruning.get("/maintenance/auto-prune").json()["last_run_at"] is None
    body = pruning.post("/maintenance/auto-prune/run").json()
    assert body["skipped"] is False
    assert float(_marker(home) or "nan") > 0


def test_nothing_to_prune_still_updates_the_marker(home: Path, pruning: TestClient) -> None:
    _set_marker(home, "0")
    db = agent_db(home)
    make_session(db, "recent", age_days=1)
    db.close()
    body = pruning.post("/maintenance/auto-prune/run").json()
    assert body == {**body, "skipped": False, "pruned": 0, "vacuumed": False}
    assert float(_marker(home) or 0) > time.time() - 60


def test_vacuum_after_prune_false_never_vacuums(home: Path) -> None:
    db = agent_db(home)
    make_session(db, "old", age_days=100, messages=30)
    db.close()
    with _client(home, sessions_auto_prune=True, sessions_vacuum_after_prune=False) as c:
        deadline = time.monotonic() + 10
        while (status := c.get("/maintenance/auto-prune").json())["pruned"] is None:
            assert time.monotonic() < deadline, "the start-up run did not happen"
            time.sleep(0.05)
        assert status["vacuum_after_prune"] is False
        assert status["pruned"] == 1 and status["vacuumed"] is False  # the start-up run


def test_errors_are_reported_never_raised(
    home: Path, pruning: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(maintenance, "prune", broken)
    _set_marker(home, "0")
    body = pruning.post("/maintenance/auto-prune/run").json()
    assert body["error"] == "disk on fire" and body["pruned"] == 0
    assert _marker(home) == "0"  # a failed attempt is retried at the next check, as in the agent
    status = pruning.get("/maintenance/auto-prune").json()
    assert status["error"] == "disk on fire"


def test_another_process_holding_the_lease_skips_the_run(home: Path, pruning: TestClient) -> None:
    _set_marker(home, "0")
    lease = orjson.dumps({"holder": "other-server", "expires_at": time.time() + 600}).decode()
    agent = agent_db(home)
    agent.set_meta("hs_auto_prune_lease", lease)
    agent.close()
    body = pruning.post("/maintenance/auto-prune/run").json()
    assert body["skipped"] is True and body["reason"] == "lease_held"
    assert pruning.get("/maintenance/auto-prune").json()["running"] is True


def test_two_servers_on_one_file_run_it_once(home: Path) -> None:
    db = agent_db(home)
    make_session(db, "old", age_days=100)
    db.close()
    with _client(home) as first, _client(home) as second:
        results = [
            first.post("/maintenance/auto-prune/run").json(),
            second.post("/maintenance/auto-prune/run").json(),
        ]
    assert sorted(r["skipped"] for r in results) == [False, True]
    assert sum(r["pruned"] for r in results) == 1


def test_disabled_by_default_and_env_overrides_the_file(home: Path) -> None:
    (home / "config.yaml").write_text(
        "sessions:\n  auto_prune: true\n  retention_days: 30\n  min_interval_hours: 2\n"
    )
    with _client(home, sessions_auto_prune=False, sessions_retention_days=7) as c:
        status = c.get("/maintenance/auto-prune").json()
    assert status["enabled"] is False and status["retention_days"] == 7 and status["min_interval_hours"] == 2
    (home / "config.yaml").write_text(":: not yaml [")
    with _client(home) as c:
        status = c.get("/maintenance/auto-prune").json()
    assert status["enabled"] is False and status["retention_days"] == 90 and status["last_run_at"] is None


def test_without_a_database_file_it_prunes_but_leaves_the_file_upkeep(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a store with no SQLite file (PostgreSQL) a run prunes like any other; VACUUM and the FTS merge
    with its checkpoint belong to the file, so they are neither run nor reported as failures."""
    (home / "config.yaml").write_text("sessions:\n  auto_prune: true\n  retention_days: 90\n")
    db = agent_db(home)
    db.set_meta("last_auto_prune", str(time.time()))
    db.close()
    monkeypatch.setattr(app.main, "open_store", lambda s: FilelessStore(Database(s).open()))
    with _client(home, sessions_vacuum_min_free_ratio=0.0) as client:
        _wait_for_startup_run(client)
        db = agent_db(home)
        make_session(db, "old", age_days=100, messages=30)
        db.close()
        _set_marker(home, "0")
        body = client.post("/maintenance/auto-prune/run").json()
    assert body["skipped"] is False and body["pruned"] == 1
    assert body["vacuumed"] is False and body.get("optimized") is None and body.get("error") is None
    assert rows(home / "state.db", "SELECT id FROM sessions") == []
