"""Lookups by session id take the primary key, and lookups by title the unique title index, on PostgreSQL,
even before the planner has statistics: no trigram index answers ``id = ...`` or a sync batch's title
lookup (pg_trgm's operator class also serves ``=``: a trigram index on the bare ``id`` made a sync batch's
lookup of 500 ids take seconds, and the listing's one on ``title`` did the same to ``title IN (...)``)."""

from __future__ import annotations

from typing import Any

import psycopg

from app.storage.postgres.repos.sync import TITLES_HELD_SQL


def _title(i: int) -> str:
    return f"Session about topic {i * 7919 % 999983}"


def _fill(conn: psycopg.Connection[Any], start: int, count: int) -> list[str]:
    """``count`` titled sessions, each also synced from home 1 (as after a bulk sync)."""
    ids = [f"20260806_{i:06d}_{i * 7919 % 999983:06x}" for i in range(start, start + count)]
    titles = [_title(i) for i in range(start, start + count)]
    conn.execute(
        "INSERT INTO sessions (id, title, source, started_at)"
        " SELECT unnest(%s::text[]), unnest(%s::text[]), 'cli', 1.0",
        (ids, titles),
    )
    conn.execute(
        "INSERT INTO hs_sync_homes (id, label, created_at) VALUES (1, 'h', 1) ON CONFLICT DO NOTHING"
    )
    conn.execute(
        "INSERT INTO hs_sync_sessions (session_id, home_id, synced_at) SELECT unnest(%s::text[]), 1, 1.0",
        (ids,),
    )
    return ids


def _trigram_indexes(conn: psycopg.Connection[Any]) -> list[str]:
    rows = conn.execute(
        "SELECT indexname FROM pg_indexes WHERE tablename = 'sessions' AND indexdef LIKE '%%gin_trgm_ops%%'"
    )
    return [str(row[0]) for row in rows]


def _plan(conn: psycopg.Connection[Any], sql: str, params: Any = None) -> str:
    return "\n".join(str(row[0]) for row in conn.execute(f"EXPLAIN {sql}", params))


def test_a_batch_of_ids_is_looked_up_by_the_primary_key(pg_migrated_url: str) -> None:
    with psycopg.connect(pg_migrated_url, autocommit=True) as conn:
        trigram_indexes = _trigram_indexes(conn)
        assert trigram_indexes  # the listing's, at least
        ids: list[str] = []
        for grown in (500, 1500, 5000):  # no ANALYZE: a server right after a bulk sync
            ids += _fill(conn, len(ids), grown)
            for size in (5, 20, 40, 100, 500):
                wanted = ids[:: len(ids) // size][:size]
                marks = ",".join(["%s"] * len(wanted))
                # The lookup of a sync batch's sessions (``repos.sync.session_homes``), then by array.
                homes = _plan(
                    conn,
                    "SELECT s.id, h.home_id FROM sessions s LEFT JOIN hs_sync_sessions h"
                    f" ON h.session_id = s.id WHERE s.id IN ({marks})",
                    wanted,
                )
                any_of = _plan(conn, "SELECT id FROM sessions WHERE id = ANY(%s)", [wanted])
                # The titles a sync batch may take, and those its sessions hold (``PgSync.titles_held``).
                titles = [_title(i) for i in range(0, len(ids), len(ids) // size)][:size]
                held = _plan(conn, TITLES_HELD_SQL, [titles, wanted])
                used = [name for name in trigram_indexes if name in homes + any_of + held]
                assert not used, (len(ids), size, homes, any_of, held)
                assert "idx_sessions_title_unique" in held, held


def test_the_listing_and_prefix_resolution_use_the_id_trigrams(pg_migrated_url: str) -> None:
    with psycopg.connect(pg_migrated_url, autocommit=True) as conn:
        _fill(conn, 0, 50_000)
        conn.execute("ANALYZE sessions")
        for pattern in ("%000123%", "20260806_0001%"):
            plan = _plan(conn, "SELECT id FROM sessions WHERE lower(id) LIKE lower(%s)", [pattern])
            assert "idx_sessions_id_lower_trgm" in plan, plan
