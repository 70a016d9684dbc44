"""Statistics and insights on PostgreSQL against the SQLite backend: the same history, written through the
API to both, gives the same counts and the same insights; what only SQLite's file has (free pages, WAL) and
what is not built yet for PostgreSQL (prune, archive) answer as documented."""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from app.storage.dialect import dialect_of
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
            tx.conn.execute(f"UPDATE sessions SET started_at = {dialect_of(tx.conn).p}", (START,))

        self.db.write_sync(job)


def _lifecycle(client: TestClient) -> None:
    """:func:`_history`, all started at :data:`START` and ended except ``s4``; ``s1`` pinned; ``s0`` the
    parent of ``s3`` (pruning ``s0`` alone orphans it); one title with a NUL-free multi-byte text."""
    _history(client)
    for sid in ("s0", "s1", "s2", "s3"):
        assert client.post(f"/sessions/{sid}/end", json={"end_reason": "user_exit"}).status_code == 200
    assert client.put("/sessions/s1/pin").status_code == 200
    assert client.patch("/sessions/s2", json={"title": "Ünïcode – notes"}).status_code == 200
    RawStart(client).pin()
    client.app.state.db.write_sync(  # type: ignore[attr-defined]
        lambda tx: tx.conn.execute("UPDATE sessions SET parent_session_id = 's0' WHERE id = 's3'")
    )


_SELECTIONS: list[dict[str, Any]] = [
    {"older_than_days": 1},
    {"older_than_days": 1, "source": "cli"},
    {"model": "M1"},
    {"title": "notes"},
    {"min_messages": 3, "max_tokens": 300},
    {"session_ids": ["s0", "s1", "s4", "nowhere"]},
    {"older_than_days": 1, "include_archived": True},
]


@pytest.mark.parametrize("selection", _SELECTIONS, ids=lambda s: ",".join(s))
def test_prune_selects_and_deletes_the_same_sessions_on_both_backends(
    pair: tuple[TestClient, TestClient], selection: dict[str, Any]
) -> None:
    sqlite, pg = pair
    for client in pair:
        _lifecycle(client)
    dry = [c.post("/maintenance/prune", json={**selection, "dry_run": True}) for c in pair]
    assert dry[0].status_code == dry[1].status_code == 200, dry[1].text
    assert _comparable(dry[1].json()) == _comparable(dry[0].json())
    cutoffs = [d.json()["cutoff"] for d in dry]
    assert cutoffs[0] is cutoffs[1] is None or abs(cutoffs[0] - cutoffs[1]) < 60
    real = [c.post("/maintenance/prune", json=selection) for c in pair]
    assert _comparable(real[1].json()) == _comparable(real[0].json())
    # Never the open session nor the pinned one.
    assert {"s1", "s4"}.isdisjoint(dry[1].json()["ids"])
    for client in pair:
        for sid in dry[0].json()["ids"]:
            assert client.get(f"/sessions/{sid}").status_code == 404
    kept = [{s["id"]: s["parent_session_id"] for s in _all_sessions(c)} for c in pair]
    assert kept[1] == kept[0]
    if "s0" in dry[0].json()["ids"] and "s3" in kept[1]:
        assert kept[1]["s3"] is None  # orphaned, as the agent's prune leaves a surviving child
    assert sqlite.get("/stats").json()["messages"] == pg.get("/stats").json()["messages"]


def _comparable(answer: dict[str, Any]) -> dict[str, Any]:
    """A prune answer without what depends on the moment of each request (the cutoff, compared on its own,
    and when each session was ended)."""
    answer.pop("cutoff")
    for candidate in answer.get("candidates") or ():
        candidate.pop("ended_at")
    return answer


def _all_sessions(client: TestClient) -> list[dict[str, Any]]:
    params = {"limit": 100, "include_children": True, "include_archived": True}
    return list(client.get("/sessions", params=params).json()["items"])


def test_archive_hides_the_same_sessions_on_both_backends(pair: tuple[TestClient, TestClient]) -> None:
    for client in pair:
        _lifecycle(client)
    answers = [c.post("/maintenance/archive", json={"source": "telegram"}).json() for c in pair]
    assert answers[1] == answers[0]
    assert answers[1]["ids"] == ["s0", "s2"]  # s4 is open; s1 (cli, pinned) not selected
    listed = [
        sorted(s["id"] for s in c.get("/sessions", params={"limit": 100}).json()["items"]) for c in pair
    ]
    assert listed[1] == listed[0]
    assert "s0" not in listed[1] and "s2" not in listed[1]
    again = [c.post("/maintenance/archive", json={"source": "telegram"}).json() for c in pair]
    assert again[1] == again[0] and again[1]["archived"] == 0  # a repeat is a no-op


def test_auto_prune_runs_on_postgresql_as_on_sqlite(pg_migrated_url: str, tmp_path: Path) -> None:
    """The scheduled prune (config.yaml) prunes the same sessions on both backends; on PostgreSQL there is
    no file to VACUUM or checkpoint, and the run says so by not claiming either, without an error."""
    answers = []
    for name, url in (("sqlite", None), ("pg", pg_migrated_url)):
        home = tmp_path / name
        home.mkdir()
        (home / "config.yaml").write_text("sessions:\n  auto_prune: true\n  retention_days: 90\n")
        with _client(home, url) as client:
            _lifecycle(client)
            old = START - 200 * 86_400

            def backdate(tx: Any, old: float = old) -> None:
                p = dialect_of(tx.conn).p
                tx.conn.execute(
                    f"UPDATE sessions SET started_at = {p} WHERE id IN ('s0', 's1', 's4')", (old,)
                )
                tx.maintenance.set_meta("last_auto_prune", "0")  # due now

            client.app.state.db.write_sync(backdate)  # type: ignore[attr-defined]
            run = client.post("/maintenance/auto-prune/run")
            assert run.status_code == 200, run.text
            body = run.json()
            left = sorted(s["id"] for s in _all_sessions(client))
            status = client.get("/maintenance/auto-prune").json()
            answers.append((body, left))
        assert body["error"] is None, body
        assert body["skipped"] is False and body["pruned"] == 1  # s0: s1 is pinned, s4 still open
        assert (status["pruned"], status["error"]) == (1, None), status
        assert status["last_run_at"] is not None
    (_, lite_left), (pg, pg_left) = answers
    assert pg_left == lite_left == ["s1", "s2", "s3", "s4"]
    assert pg["vacuumed"] is False and pg["optimized"] is None


def _await_lock_wait(watcher: psycopg.Connection[Any]) -> None:
    """Return once a backend of the watched database waits for a row lock."""
    deadline = time.monotonic() + 10
    sql = (
        "SELECT count(*) FROM pg_stat_activity"
        " WHERE datname = current_database() AND wait_event_type = 'Lock'"
    )
    while (row := watcher.execute(sql).fetchone()) is None or row[0] == 0:
        assert time.monotonic() < deadline, "the prune never waited for the pinning transaction"
        time.sleep(0.02)


def test_a_session_pinned_while_its_prune_batch_runs_is_kept(pg_migrated_url: str, tmp_path: Path) -> None:
    """Another replica's pin, committed while the prune's batch waits, wins: the batch locks its sessions
    before re-checking them, so it sees the pin (SQLite's single writer serialises the two)."""
    with _client(tmp_path / "pg-home", pg_migrated_url) as pg:
        _lifecycle(pg)
        body = {"session_ids": ["s0", "s2"], "older_than_days": 1}
        with (
            psycopg.connect(pg_migrated_url) as pinning,
            psycopg.connect(pg_migrated_url, autocommit=True) as watcher,
            ThreadPoolExecutor(1) as pool,
        ):
            pinning.execute("INSERT INTO hs_session_pins (session_id, pinned_at) VALUES ('s0', 0)")
            pinning.execute("SELECT 1 FROM sessions WHERE id = 's0' FOR KEY SHARE")
            prune = pool.submit(pg.post, "/maintenance/prune", json=body)
            _await_lock_wait(watcher)
            pinning.commit()
            answer = prune.result(timeout=30)
        assert answer.status_code == 200, answer.text
        assert answer.json()["pruned"] == 1
        assert pg.get("/sessions/s0").status_code == 200 and pg.get("/sessions/s2").status_code == 404
