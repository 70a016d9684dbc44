"""The merge quantum the writer runs between group commits keeps the agent's FTS indexes compact and sound."""

from __future__ import annotations

from pathlib import Path

from hermes_state import SessionDB

from app.storage.hermes_ddl import FTS_TABLES
from app.storage.sqlite import migrate
from app.storage.sqlite.connection import open_connection
from app.storage.sqlite.driver import sqlite3
from app.storage.sqlite.fts_merge import merge_quantum


def _segments(conn: sqlite3.Connection, table: str) -> int:
    return int(conn.execute(f"SELECT COUNT(DISTINCT segid) FROM {table}_idx").fetchone()[0])


def _store(path: Path, *, quanta: bool) -> sqlite3.Connection:
    conn = open_connection(path)
    migrate.upgrade(conn, path)
    conn.execute("INSERT INTO sessions (id, source, started_at) VALUES ('s', 'cli', 1)")
    for i in range(120):  # one small commit each, as the writer's group commits are under light load
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(
            "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('s', 'user', ?, ?)",
            (f"note {i} about merging segments quietly", float(i)),
        )
        conn.execute("COMMIT")
        if quanta:
            conn.execute("BEGIN IMMEDIATE")
            merge_quantum(conn)
            conn.execute("COMMIT")
    return conn


def test_quanta_leave_fewer_segments_and_sound_indexes(tmp_path: Path) -> None:
    plain = _store(tmp_path / "plain.db", quanta=False)
    merged = _store(tmp_path / "merged.db", quanta=True)
    try:
        for table in FTS_TABLES:
            assert _segments(merged, table) < _segments(plain, table)
            merged.execute(f"INSERT INTO {table}({table}) VALUES('integrity-check')")
    finally:
        plain.close()
        merged.close()
    agent = SessionDB(db_path=tmp_path / "merged.db")
    try:
        assert len(agent.search_messages("quietly", limit=500)) == 120
    finally:
        agent.close()
