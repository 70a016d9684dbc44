"""Search indexing left to the background indexer on PostgreSQL (``hs_search_ready``), as SQLite leaves a
big import's FTS indexing to it: the rows of a deferred sync batch are stored and listed at once, missed by
word and trigram search (and counted as pending) until the indexer's slices take them in, which then find
them with the content they have by then. Revision 0015 converts a database of the earlier layout."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import psycopg
import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine
from sqlalchemy.pool import NullPool

from app.services.search import SearchRequest, discover, hit_budget
from app.storage.migrate import MIGRATIONS_DIR
from app.storage.postgres.migrate import sqlalchemy_url, upgrade
from app.storage.postgres.search import list_candidates
from app.storage.postgres.search_schema import LIST_INDEXED_ROWS
from app.storage.postgres.tx import PgTx
from app.storage.protocols import Tx
from app.storage.rows import HitFilter, ListQuery, SyncedRows

COLUMNS = ("role", "content", "timestamp")
ROWS = [
    ("user", "the zebra crossing at dawn", 1.0),
    ("assistant", "数据库迁移 finished", 2.0),
    ("user", "another zebra", 3.0),
    ("assistant", "a quiet reply", 4.0),
]


@pytest.fixture
def tx(pg_migrated_url: str) -> Iterator[Tx]:
    with psycopg.connect(pg_migrated_url, autocommit=True) as conn:
        conn.execute("INSERT INTO sessions (id, source, started_at) VALUES ('s1', 'cli', 1.0)")
        yield cast(Tx, PgTx(conn))


def _sync(tx: Tx, *, inline: bool) -> list[int]:
    home = tx.sync.home_id("laptop")
    rows = [("s1", *row) for row in ROWS]
    batch = SyncedRows(list(range(1, len(rows) + 1)), rows, list(COLUMNS))
    return tx.sync.insert_messages(home, batch, index_inline=inline)


def _found(tx: Tx, q: str) -> int:
    """How many messages the hit stream of ``q`` yields."""
    return len(list(tx.search.message_hits(q, "newest", hit_budget()).hits(HitFilter())))


def test_a_deferred_batch_is_found_once_the_indexer_took_it_in(tx: Tx) -> None:
    ids = _sync(tx, inline=False)
    assert (tx.indexing.pending_messages(), tx.indexing.has_queued(ids[0])) == (4, True)
    assert (_found(tx, "zebra"), _found(tx, "数据库迁移")) == (0, 0)
    assert discover(tx, SearchRequest(q="zebra"))["indexing"] == {"pending_messages": 4}
    # A term too short for the trigram index is scanned in the table, as SQLite scans it: found at once.
    assert _found(tx, "数据") == 1
    # Content changed while waiting is indexed as it is when the indexer comes.
    pg = cast(Any, tx).pg
    pg.execute("UPDATE messages SET content = 'a zebra reply' WHERE id = %s", (ids[3],))
    assert tx.indexing.index_next_slice(3) == 3
    assert (
        tx.indexing.pending_messages(),
        tx.indexing.has_queued(ids[2]),
        tx.indexing.has_queued(ids[3]),
    ) == (
        1,
        False,
        True,
    )
    assert tx.indexing.index_next_slice(3) == 1
    assert tx.indexing.index_next_slice(3) is None
    assert (_found(tx, "zebra"), _found(tx, "数据库迁移"), _found(tx, "quiet")) == (3, 1, 0)
    assert "indexing" not in discover(tx, SearchRequest(q="zebra"))


def _listed(tx: Tx, term: str) -> list[str]:
    page = tx.sessions.list_sessions_cached(ListQuery(limit=20, search=term, include_children=True))
    return [item["id"] for item in page.items]


def _in_list_index(tx: Tx, message_id: int) -> bool:
    pg = cast(Any, tx).pg
    row = pg.execute(
        f"SELECT count(*) FROM messages WHERE id = %s AND {LIST_INDEXED_ROWS}", (message_id,)
    ).fetchone()
    return bool(row[0])


def test_the_listing_finds_a_deferred_batch_before_and_after_the_indexer(tx: Tx) -> None:
    cast(Any, tx).pg.execute("INSERT INTO sessions (id, source, started_at) VALUES ('s2', 'cli', 2.0)")
    ids = _sync(tx, inline=False)
    # The listing's trigram index holds none of the waiting rows: the candidates read them through the
    # backlog's runs, so the session is listed at once, by its preview's words and by a later message's.
    assert not _in_list_index(tx, ids[0])
    pg = cast(Any, tx).pg
    for term in ("zebra crossing", "ZEBRA"):
        assert _listed(tx, term) == ["s1"], term
        assert list_candidates(pg, term, projecting=False) == ["s1"], term
    # A later user message makes a candidate too, which the exact check then drops (the preview is the
    # first one); an assistant's message makes none.
    assert (list_candidates(pg, "another zeb", projecting=False), _listed(tx, "another zeb")) == (["s1"], [])
    assert list_candidates(pg, "quiet reply", projecting=False) == []
    assert tx.indexing.index_next_slice(10) == 4
    assert _in_list_index(tx, ids[0])
    assert tx.indexing.pending_messages() == 0
    for term in ("zebra crossing", "ZEBRA"):
        assert _listed(tx, term) == ["s1"], term
    assert list_candidates(pg, "another zeb", projecting=False) == ["s1"]


def test_an_inline_batch_enters_the_listing_index_at_commit(tx: Tx) -> None:
    ids = _sync(tx, inline=True)
    assert _in_list_index(tx, ids[0])
    assert _listed(tx, "zebra crossing") == ["s1"]


def test_a_row_deleted_while_waiting_counts_until_the_indexer_passes_it(tx: Tx) -> None:
    """The count is the queued runs' size, an upper bound as on SQLite, which the indexer brings to 0."""
    ids = _sync(tx, inline=False)
    pg = cast(Any, tx).pg
    pg.execute("DELETE FROM messages WHERE id = %s", (ids[1],))
    assert tx.indexing.pending_messages() == 4
    assert tx.indexing.queued_runs(ids[-1]) == [(ids[0], ids[-1])]
    assert tx.indexing.index_next_slice(2) == 3  # two rows marked, the deleted id between them passed
    assert tx.indexing.queued_runs(ids[-1]) == [(ids[3], ids[3])]
    assert tx.indexing.index_next_slice(2) == 1
    assert (tx.indexing.pending_messages(), tx.indexing.index_next_slice(2)) == (0, None)
    assert _found(tx, "zebra") == 2


def test_an_inline_batch_is_found_at_commit(tx: Tx) -> None:
    _sync(tx, inline=True)
    assert tx.indexing.pending_messages() == 0
    assert (_found(tx, "zebra"), _found(tx, "数据库迁移")) == (2, 1)


@pytest.mark.parametrize(
    ("q", "index"), [("zebra", "idx_messages_search_vector"), ("数据库迁移", "idx_messages_search_trgm")]
)
def test_search_conditions_can_use_the_partial_indexes(tx: Tx, q: str, index: str) -> None:
    """The indexes hold only indexed rows, so a search condition must imply their predicate to use them."""
    _sync(tx, inline=False)
    pg = cast(Any, tx).pg
    assert pg.execute("SELECT count(*) FROM messages WHERE search_vector IS NULL").fetchone() == (4,)
    hits = cast(Any, tx.search.message_hits(q, "newest", hit_budget()))
    pg.execute("SET enable_seqscan = off")
    plan = "\n".join(
        str(r[0])
        for r in pg.execute(f"EXPLAIN SELECT id FROM messages m WHERE {hits.condition}", hits.params)
    )
    assert index in plan, plan


def _alembic(conn: Any) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.attributes["connection"] = conn
    return cfg


def test_revision_0015_converts_a_database_of_the_earlier_layout(pg_migrated_url: str) -> None:
    engine = create_engine(sqlalchemy_url(pg_migrated_url), poolclass=NullPool)
    try:
        with engine.connect() as conn:
            command.downgrade(_alembic(conn), "0014_pg_session_id_trigrams")
            conn.commit()
    finally:
        engine.dispose()
    with psycopg.connect(pg_migrated_url, autocommit=True) as pg:
        columns = {
            r[0]
            for r in pg.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = 'messages'"
            )
        }
        assert "hs_search_ready" not in columns and "search_vector" in columns
        pg.execute("INSERT INTO sessions (id, source, started_at) VALUES ('old', 'cli', 1.0)")
        pg.execute(
            "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('old', 'user', 'zebra', 1.0)"
        )
    upgrade(pg_migrated_url)
    with psycopg.connect(pg_migrated_url, autocommit=True) as pg:
        tx = cast(Tx, PgTx(pg))
        assert tx.indexing.pending_messages() == 0
        assert _found(tx, "zebra") == 1
        found = pg.execute("SELECT to_regclass('hs_fts_backlog') IS NOT NULL").fetchone()
        assert found == (True,)
