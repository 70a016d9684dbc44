"""A connection compiles the statements it runs again and again once, however many it ran before."""

from __future__ import annotations

from pathlib import Path

from app.storage.commit_notice import Changes
from app.storage.repos.messages import Messages
from app.storage.sqlite import migrate
from app.storage.sqlite.connection import open_connection
from app.storage.sqlite.driver import sqlite3


def test_an_append_compiles_its_statements_once_after_the_migration(tmp_path: Path) -> None:
    path = tmp_path / "state.db"
    conn = open_connection(path)
    # The migration runs far more distinct statements than the driver's own cache holds, several twice.
    migrate.upgrade(conn, path)
    conn.execute("INSERT INTO sessions (id, source, started_at) VALUES ('s', 'cli', 1)")
    compiled: list[str] = []

    def authorize(action: int, table: str | None, column: str | None, *_: object) -> int:
        # SQLite asks while it compiles a statement (once per column an UPDATE sets), never while it runs one.
        if action in (sqlite3.SQLITE_INSERT, sqlite3.SQLITE_UPDATE) and table in ("messages", "sessions"):
            compiled.append(f"{action} {table} {column}")
        return sqlite3.SQLITE_OK

    conn.set_authorizer(authorize)
    for turn in range(30):
        conn.execute("BEGIN IMMEDIATE")
        Messages(conn, Changes()).insert_messages("s", [{"role": "user", "content": f"turn {turn}"}])
        conn.execute("COMMIT")
    assert sorted(set(compiled)) == sorted(compiled)
    assert len(compiled) >= 3  # the message INSERT and the counters' UPDATE, each once
    assert conn.execute("SELECT message_count FROM sessions WHERE id = 's'").fetchone()[0] == 30
