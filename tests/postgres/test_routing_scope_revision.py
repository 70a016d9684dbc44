"""Revision 0024: the routing entries every replica kept in its own home's scope move to the store's one
scope; where two replicas held the same chat, the entry written last stays."""

from __future__ import annotations

import psycopg

from tests.postgres import revisions


def test_revision_0024_merges_every_replicas_scope_into_the_stores(pg_migrated_url: str) -> None:
    revisions.downgrade(pg_migrated_url, "0023_pg_agent_flags")
    with psycopg.connect(pg_migrated_url, autocommit=True) as conn:
        conn.cursor().executemany(
            "INSERT INTO gateway_routing (scope, session_key, entry_json, updated_at) "
            "VALUES (%s, %s, %s, %s)",
            [
                ("/a/sessions", "k1", '{"session_id": "old"}', 1.0),
                ("/b/sessions", "k1", '{"session_id": "new"}', 2.0),
                ("/a/sessions", "k2", '{"session_id": "only"}', 1.0),
            ],
        )
        conn.cursor().executemany(
            "INSERT INTO hs_gateway_processes (scope, session_key, started_at_json, updated_at) "
            "VALUES (%s, %s, %s, %s)",
            [("/a/sessions", "k1", "[1.0]", 3.0), ("/b/sessions", "k1", "[2.0]", 2.0)],
        )
    revisions.upgrade(pg_migrated_url, "0024_pg_store_routing_scope")
    with psycopg.connect(pg_migrated_url, autocommit=True) as conn:
        entries = conn.execute(
            "SELECT scope, session_key, entry_json FROM gateway_routing ORDER BY 2"
        ).fetchall()
        processes = conn.execute(
            "SELECT scope, session_key, started_at_json FROM hs_gateway_processes"
        ).fetchall()
    assert entries == [("", "k1", '{"session_id": "new"}'), ("", "k2", '{"session_id": "only"}')]
    assert processes == [("", "k1", "[1.0]")]
