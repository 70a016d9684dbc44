"""The PostgreSQL store under concurrent writers: unique titles and lineage numbers, one handoff claim
winner, a commit notice per write, and migrations that any number of replicas may run at once."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from app.errors import TitleTaken
from app.settings import Settings
from app.storage.commit_notice import CommitNotice
from app.storage.dialect import dialect_of
from app.storage.migrate import head_revision
from app.storage.postgres import migrate
from app.storage.postgres.dialect import POSTGRES
from app.storage.postgres.store import PgStore, open_store
from app.storage.postgres.tx import PgTx
from app.storage.protocols import WriteRejected
from app.storage.rows import MessageQuery
from tests.postgres.conftest import new_session

THREADS = 8


def _in_parallel(count: int, job: Callable[[int], Any]) -> list[Any]:
    """Run ``job(i)`` for ``i < count`` on as many threads, all released at once."""
    barrier = threading.Barrier(count)

    def run(i: int) -> Any:
        barrier.wait()
        return job(i)

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(run, range(count)))


def test_concurrent_lineage_numbering_gives_every_session_its_own_number(store: PgStore) -> None:
    ids = [f"s{i}" for i in range(THREADS * 2)]
    for sid in ids:
        new_session(store, sid)

    def take_next(i: int) -> str:
        def job(tx: PgTx) -> str:
            title = tx.titles.next_title_in_lineage("Weekly report")
            tx.titles.set_title(ids[i], title)
            return title

        return store.write_sync(job)

    titles = _in_parallel(len(ids), take_next)
    assert len(set(titles)) == len(ids)
    expected = {"Weekly report", *(f"Weekly report #{n}" for n in range(2, len(ids) + 1))}
    assert set(titles) == expected
    stored = store.read_sync(lambda tx: [tx.sessions.fetch_session(s) for s in ids])
    assert sorted(str(s["title"]) for s in stored if s) == sorted(expected)


def test_concurrent_creates_with_one_title_have_one_winner(store: PgStore) -> None:
    def create(i: int) -> str:
        try:
            new_session(store, f"t{i}", title="Same title")
        except TitleTaken as exc:
            return f"taken:{exc.extra['holder']}"
        return "created"

    outcomes = _in_parallel(THREADS, create)
    assert outcomes.count("created") == 1
    winner = f"t{outcomes.index('created')}"
    assert all(o == f"taken:{winner}" for o in outcomes if o != "created")
    assert store.read_sync(lambda tx: tx.titles.resolve_by_title("Same title")) == winner


def test_one_claim_winner_among_many_claimers(store: PgStore) -> None:
    new_session(store, "h1")
    assert store.write_sync(lambda tx: tx.handoff.request("h1", "telegram"))
    wins = _in_parallel(THREADS, lambda _: store.write_sync(lambda tx: tx.handoff.claim("h1")))
    assert wins.count(True) == 1
    assert store.read_sync(lambda tx: tx.handoff.fetch("h1"))["state"] == "running"  # type: ignore[index]


def test_a_commit_notice_follows_each_write_that_changed_something(store: PgStore) -> None:
    new_session(store, "n1")

    async def scenario() -> list[CommitNotice]:
        seen: list[CommitNotice] = []
        unsubscribe = store.subscribe(seen.append)
        try:
            await store.write(
                lambda tx: tx.messages.insert_messages("n1", [{"role": "user", "content": "a"}])
            )
            await store.write(
                lambda tx: tx.events.insert_many([("x", "n1", "{}", 1.0), ("y", None, "{}", 2.0)])
            )
            await store.write(lambda tx: tx.sessions.set_model("n1", "m"))  # nothing noted: no notice
            for _ in range(100):
                if len([n for n in seen if n.commit]) >= 2:
                    break
                await asyncio.sleep(0.01)
        finally:
            unsubscribe()
        # This process's own commits are numbered; the LISTEN relay also hands on every replica's event
        # commits (this one's included) as unnumbered notices, tested in test_replica_stores.py.
        return [n for n in seen if n.commit]

    first, second = asyncio.run(scenario())
    assert first.message_sessions == frozenset({"n1"}) and not first.event_ids
    latest = store.read_sync(lambda tx: tx.events.latest_id())
    assert list(second.event_ids) == [latest - 1, latest] and not second.message_sessions
    assert second.commit > first.commit


def test_nul_in_stored_text_round_trips(store: PgStore) -> None:
    new_session(store, "j1")
    parts = [{"type": "text", "text": "look ü"}]
    store.write_sync(lambda tx: tx.messages.insert_messages("j1", [{"role": "user", "content": parts}]))
    rows = store.read_sync(lambda tx: tx.messages.page(MessageQuery("j1", limit=10)))
    assert rows[0]["content"].startswith("\x00json:[")
    assert store.read_sync(lambda tx: tx.messages.to_messages(rows))[0]["content"] == parts


def test_every_text_column_of_an_append_is_stored_exactly(store: PgStore) -> None:
    # The column arrays bind in binary: NUL (through the store's stand-in), quotes, backslashes, braces,
    # commas and non-ASCII text in each text column come back as given, in a batch with a missing value.
    new_session(store, "x1")
    text = 'a\x00b "q" \\ {x,y} NULL 数'
    batch: list[dict[str, Any]] = [
        {
            "role": "assistant",
            "content": text,
            "tool_call_id": text,
            "tool_name": text,
            "finish_reason": text,
            "reasoning": text,
            "reasoning_content": text,
            "token_count": 2**63 - 1,
        },
        {"role": "tool", "content": None, "tool_call_id": "c2"},
    ]
    store.write_sync(lambda tx: tx.messages.insert_messages("x1", batch))
    rows = store.read_sync(lambda tx: tx.messages.page(MessageQuery("x1", limit=10)))
    columns = ("content", "tool_call_id", "tool_name", "finish_reason", "reasoning", "reasoning_content")
    assert [tuple(r[c] for c in columns) for r in rows] == [(text,) * 6, (None, "c2", None, None, None, None)]
    assert [r["token_count"] for r in rows] == [2**63 - 1, None]


def test_a_batch_goes_in_as_typed_arrays_whatever_its_callers_numbers(store: PgStore) -> None:
    new_session(store, "t1")
    batch = [
        {"role": "user", "content": "a", "timestamp": 1_700_000_000, "token_count": 3},
        {"role": "assistant", "content": "b", "timestamp": 1_700_000_000.5},
    ]
    stored = store.write_sync(lambda tx: tx.messages.insert_messages("t1", batch))
    assert [m["id"] for m in stored] == sorted(m["id"] for m in stored)
    rows = store.read_sync(lambda tx: tx.messages.page(MessageQuery("t1", limit=10)))
    assert [(r["content"], r["timestamp"], r["token_count"]) for r in rows] == [
        ("a", 1_700_000_000.0, 3),
        ("b", 1_700_000_000.5, None),
    ]
    counters = store.read_sync(lambda tx: tx.messages.session_counters("t1"))
    assert counters["message_count"] == 2


def test_a_read_job_cannot_write_and_leaves_its_connection_clean(store: PgStore) -> None:
    import psycopg

    new_session(store, "r1")

    def sneaky(tx: Any) -> None:
        tx.conn.execute("UPDATE sessions SET title = 'changed' WHERE id = 'r1'")

    # Every pooled connection gets the chance to refuse, and each goes back to the pool usable.
    for _ in range(store.settings.reader_threads + 3):
        with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
            store.read_sync(sneaky)
        row = store.read_sync(lambda tx: tx.sessions.fetch_session("r1"))
        assert row is not None and row["title"] is None


def test_pooled_connections_run_without_jit_and_keep_the_urls_own_options(
    pg_migrated_url: str, tmp_path: Path
) -> None:
    # JIT compilation cost the listing's search tens of milliseconds a call (connection.POOL_SETTINGS).
    url = f"{pg_migrated_url}?options=-c%20statement_timeout%3D4321"
    opened = open_store(Settings(home=tmp_path / "home", database_url=url))
    try:

        def settings(tx: PgTx) -> Any:
            return tx.conn.execute(
                "SELECT current_setting('jit'), current_setting('statement_timeout')"
            ).fetchone()

        assert tuple(opened.read_sync(settings)) == ("off", "4321ms")
        assert tuple(opened.write_sync(settings)) == ("off", "4321ms")
    finally:
        opened.close()


def test_upgrade_runs_twice_and_concurrently(pg_cluster: Any) -> None:
    url = pg_cluster.create_database()
    try:
        _in_parallel(4, lambda _: migrate.upgrade(url))
        migrate.upgrade(url)
        name = url.rsplit("/", 1)[1]
        assert pg_cluster.psql(name, "SELECT version_num FROM alembic_version") == head_revision()
        assert pg_cluster.psql(name, "SELECT count(*) FROM pg_extension WHERE extname = 'pg_trgm'") == "1"
    finally:
        pg_cluster.drop_database(url)


def test_percent_signs_and_placeholders_in_shared_sql_reach_postgresql_intact(store: PgStore) -> None:
    def job(tx: PgTx) -> Any:
        d = dialect_of(tx.conn)
        return tx.conn.execute(f"SELECT '50{d.pct}', {d.p} || '{d.pct}', 'a?b'", ("x",)).fetchone()

    assert tuple(store.read_sync(job)) == ("50%", "x%", "a?b")
    hundred = f"SELECT '100{POSTGRES.pct}'"
    assert tuple(store.read_sync(lambda tx: tx.conn.execute(hundred).fetchone())) == ("100%",)


def test_usage_reports_add_up_and_roll_up_per_model(store: PgStore) -> None:
    from app.storage.rows import Usage

    new_session(store, "u1")
    report = Usage(input_tokens=5, output_tokens=2, api_call_count=1, estimated_cost_usd=0.5, model="m1")
    store.write_sync(lambda tx: tx.sessions.record_usage("u1", report))
    store.write_sync(lambda tx: tx.sessions.record_usage("u1", report))
    session = store.read_sync(lambda tx: tx.sessions.fetch_session("u1"))
    assert session is not None
    assert (session["input_tokens"], session["output_tokens"], session["api_call_count"]) == (10, 4, 2)
    assert session["estimated_cost_usd"] == 1.0 and session["actual_cost_usd"] is None
    rolled = store.read_sync(
        lambda tx: tx.conn.execute(
            "SELECT model, input_tokens, api_call_count FROM session_model_usage WHERE session_id = %s",
            ("u1",),
        ).fetchall()
    )
    assert [tuple(r) for r in rolled] == [("m1", 10, 2)]
    total = Usage(input_tokens=7, actual_cost_usd=2.0, absolute=True)
    store.write_sync(lambda tx: tx.sessions.record_usage("u1", total))
    session = store.read_sync(lambda tx: tx.sessions.fetch_session("u1"))
    assert session is not None and (session["input_tokens"], session["actual_cost_usd"]) == (7, 2.0)


def test_events_go_in_with_the_commit_and_never_from_a_rolled_back_savepoint(store: PgStore) -> None:
    def job(tx: PgTx) -> None:
        tx.events.insert("kept.before", None, "{}", 1.0)
        with pytest.raises(WriteRejected), tx.savepoint():
            tx.events.insert("dropped", None, "{}", 2.0)
            tx.conn.execute("INSERT INTO no_such_table VALUES (1)")
        tx.events.insert("kept.after", None, "{}", 3.0)
        # Held in the transaction until its COMMIT, which sends them under the ordering lock.
        assert tx.conn.execute("SELECT COUNT(*) FROM hs_events").fetchone()[0] == 0

    store.write_sync(job)

    def failing(tx: PgTx) -> None:
        tx.events.insert("never", None, "{}", 4.0)
        raise RuntimeError("the job fails after emitting")

    with pytest.raises(RuntimeError):
        store.write_sync(failing)
    types = store.read_sync(
        lambda tx: [r[0] for r in tx.conn.execute("SELECT type FROM hs_events ORDER BY id")]
    )
    assert types == ["kept.before", "kept.after"]


def test_concurrent_forks_start_in_the_order_they_are_numbered(store: PgStore) -> None:
    """The bare title resolves to the newest child by ``started_at`` (the agent's rule): each fork takes
    its number before its row is stamped, so the newest is the highest number however the forks race."""
    from app.services.lineage import Fork, _fork

    new_session(store, "root", title="proj")
    children = _in_parallel(THREADS * 2, lambda _: store.write_sync(lambda tx: _fork(tx, "root", Fork())))
    by_start = sorted(children, key=lambda child: (child["started_at"], child["id"]))
    numbers = [int(str(child["title"]).split("#")[1]) for child in by_start]
    assert numbers == list(range(2, THREADS * 2 + 2))
    newest = store.read_sync(lambda tx: tx.titles.resolve_by_title("proj"))
    assert newest == by_start[-1]["id"]
