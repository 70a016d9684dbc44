"""Search's statements are compiled once per connection, whatever values they are run with."""

from __future__ import annotations

from pathlib import Path

from app.storage.commit_notice import Changes
from app.storage.repos import search
from app.storage.repos.messages import Messages
from app.storage.repos.search import SearchRows
from app.storage.sqlite import migrate
from app.storage.sqlite.connection import open_connection
from app.storage.sqlite.driver import sqlite3


def test_windows_bookends_and_hit_chunks_are_not_compiled_again(tmp_path: Path) -> None:
    path = tmp_path / "state.db"
    conn = open_connection(path)
    migrate.upgrade(conn, path)
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("INSERT INTO sessions (id, source, started_at) VALUES ('s', 'cli', 1)")
    roles = ("user", "assistant")
    turns = [{"role": roles[i % 2], "content": f"deploy step {i}"} for i in range(40)]
    ids = [m["id"] for m in Messages(conn, Changes()).insert_messages("s", turns)]
    conn.execute("COMMIT")

    def run(anchor: int, size: int) -> None:
        SearchRows(conn, Changes()).context("s", anchor, size, size)
        search.window_floor(conn, "messages_fts", "deploy", anchor, size)

    run(ids[20], 3)
    compiled: list[int] = []

    def authorize(action: int, *_: object) -> int:
        # SQLite asks while it compiles a statement, never while it runs one.
        if action == sqlite3.SQLITE_SELECT:
            compiled.append(action)
        return sqlite3.SQLITE_OK

    conn.set_authorizer(authorize)
    run(ids[20], 3)  # setting an authorizer expires every statement: each is compiled once more here
    compiled.clear()
    for anchor, size in ((ids[10], 2), (ids[25], 4), (ids[30], 5)):
        run(anchor, size)
    assert compiled == []
