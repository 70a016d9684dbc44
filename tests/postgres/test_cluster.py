"""The test cluster itself: it starts, takes connections on loopback, and has pg_trgm for search."""

from __future__ import annotations

from typing import Any


def test_cluster_serves_fresh_databases_with_pg_trgm(pg_cluster: Any, pg_url: str) -> None:
    name = pg_url.rsplit("/", 1)[1]
    assert pg_cluster.psql(name, "SELECT current_database()") == name
    pg_cluster.psql(name, "CREATE EXTENSION IF NOT EXISTS pg_trgm")
    assert pg_cluster.psql(name, "SELECT similarity('hermes', 'hermes')") == "1"
    assert pg_cluster.psql(name, "SHOW server_version_num")[:2] == "15"
