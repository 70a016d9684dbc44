"""Revision ``0025_sync_file_generations`` on SQLite: origins synced before become generation 0, and a
downgrade keeps one origin per home and id (and the same on PostgreSQL)."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from sqlalchemy import create_engine
from sqlalchemy.pool import StaticPool

from app.settings import Settings
from app.storage.migrate import MIGRATIONS_DIR
from app.storage.sqlite.driver import sqlite3
from tests.postgres import revisions


def _move(db: Path, step: str, revision: str) -> None:
    conn = sqlite3.connect(db, isolation_level=None)
    engine = create_engine("sqlite://", module=sqlite3, creator=lambda: conn, poolclass=StaticPool)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    try:
        with engine.connect() as sa_conn:
            cfg.attributes["connection"] = sa_conn
            getattr(command, step)(cfg, revision)
            sa_conn.commit()
    finally:
        engine.dispose()
        conn.close()


def test_origins_synced_before_are_generation_zero(client: TestClient, settings: Settings) -> None:
    if settings.database_url:
        pytest.skip("the SQLite rebuild")
    body = {
        "home": "laptop",
        "sessions": [{"id": "s1", "source": "cli", "started_at": 1_767_600_000.0}],
        "messages": {"columns": ["id", "session_id", "role", "content"], "rows": [[7, "s1", "user", "hi"]]},
    }
    assert client.post("/sync/batches", json=body).json()["messages_inserted"] == 1
    client.close()
    _move(settings.db_path, "downgrade", "0024_pg_store_routing_scope")
    conn = sqlite3.connect(settings.db_path)
    assert conn.execute("SELECT home_id, origin_id FROM hs_sync_messages").fetchall() == [(1, 7)]
    assert conn.execute("SELECT name FROM sqlite_master WHERE name = 'hs_sync_files'").fetchall() == []
    conn.close()
    _move(settings.db_path, "upgrade", "head")
    conn = sqlite3.connect(settings.db_path)
    assert conn.execute("SELECT home_id, file_id, origin_id FROM hs_sync_messages").fetchall() == [(1, 0, 7)]
    conn.close()


def test_revision_0024_on_postgresql_keeps_origins_as_generation_zero(pg_migrated_url: str) -> None:
    with psycopg.connect(pg_migrated_url, autocommit=True) as conn:
        conn.execute("INSERT INTO hs_sync_homes (id, label, created_at) VALUES (1, 'laptop', 0)")
        conn.execute(
            "INSERT INTO hs_sync_messages (home_id, file_id, origin_id, message_id) VALUES (1, 0, 7, 70)"
        )
        conn.execute("INSERT INTO hs_sync_files (home_id, token, created_at) VALUES (1, 'abc', 0)")
        conn.execute(
            "INSERT INTO hs_sync_messages (home_id, file_id, origin_id, message_id) VALUES (1, 1, 7, 71)"
        )
    revisions.downgrade(pg_migrated_url, "0024_pg_store_routing_scope")
    with psycopg.connect(pg_migrated_url, autocommit=True) as conn:
        # One origin per home and id again: the later generation's.
        assert conn.execute("SELECT home_id, origin_id, message_id FROM hs_sync_messages").fetchall() == [
            (1, 7, 71)
        ]
        assert conn.execute("SELECT to_regclass('hs_sync_files')").fetchone() == (None,)
    revisions.upgrade(pg_migrated_url, "0025_sync_file_generations")
    with psycopg.connect(pg_migrated_url, autocommit=True) as conn:
        rows = conn.execute("SELECT home_id, file_id, origin_id, message_id FROM hs_sync_messages").fetchall()
        assert rows == [(1, 0, 7, 71)]
