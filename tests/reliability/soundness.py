"""What every reliability suite checks on a state.db after its ordeal (the CI/soak sizes: tests.sizes)."""

from __future__ import annotations

import time
from pathlib import Path

from app.storage.sqlite.driver import sqlite3

FTS_TABLES = ("messages_fts", "messages_fts_trigram")
# What the agent's FTS triggers index for a message (hermes_state 0.19.0), written out here on purpose:
# the check must not trust the app's own copy of that expression.
DOCUMENT = "COALESCE(m.content, '') || ' ' || COALESCE(m.tool_name, '') || ' ' || COALESCE(m.tool_calls, '')"


def connect(path: Path) -> sqlite3.Connection:
    """A plain inspection connection (the server may still be running: wait for its locks)."""
    conn = sqlite3.connect(path, timeout=30)
    conn.row_factory = sqlite3.Row
    return conn


def wait_backlog_drained(path: Path, timeout_s: float = 60.0) -> None:
    """Wait until the background FTS indexer has emptied ``hs_fts_backlog`` (a deferred import)."""
    deadline = time.monotonic() + timeout_s
    while True:
        conn = connect(path)
        try:
            has_table = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'hs_fts_backlog'").fetchone()
            left = conn.execute("SELECT COUNT(*) FROM hs_fts_backlog").fetchone()[0] if has_table else 0
        finally:
            conn.close()
        if left == 0:
            return
        assert time.monotonic() < deadline, f"FTS backlog still holds {left} runs after {timeout_s} s"
        time.sleep(0.1)


def integrity_problems(path: Path) -> list[str]:
    """Everything wrong with the file: SQLite's integrity_check, both FTS integrity-checks, each FTS
    document against the content table, and every session's ``message_count`` against its rows.

    ``message_count`` counts active and inactive rows alike: a rewind keeps it (as the agent's
    ``rewind_to_message`` does), so a session with fewer rows than its count has been half-deleted.
    The FTS tables hold their own copy of each document (not external content), so their integrity-check
    only proves the index matches that copy; the copy is compared with ``messages`` here.
    """
    conn = connect(path)
    problems: list[str] = []
    try:
        result = [r[0] for r in conn.execute("PRAGMA integrity_check")]
        if result != ["ok"]:
            problems.append(f"integrity_check: {result[:5]}")
        for table in FTS_TABLES:
            try:
                conn.execute(f"INSERT INTO {table}({table}) VALUES('integrity-check')")
            except sqlite3.DatabaseError as exc:
                problems.append(f"{table} integrity-check: {exc}")
            missing = conn.execute(
                f"SELECT COUNT(*) FROM messages m LEFT JOIN {table} f ON f.rowid = m.id "
                f"WHERE f.rowid IS NULL OR f.content IS NOT ({DOCUMENT})"
            ).fetchone()[0]
            orphans = conn.execute(
                f"SELECT COUNT(*) FROM {table} WHERE rowid NOT IN (SELECT id FROM messages)"
            ).fetchone()[0]
            if missing or orphans:
                problems.append(f"{table}: {missing} messages unindexed or stale, {orphans} orphan rows")
        bad = conn.execute(
            "SELECT s.id, s.message_count, COUNT(m.id) FROM sessions s LEFT JOIN messages m"
            " ON m.session_id = s.id GROUP BY s.id HAVING s.message_count != COUNT(m.id) LIMIT 5"
        ).fetchall()
        problems.extend(f"session {r[0]}: message_count {r[1]} but {r[2]} rows" for r in bad)
        strays = conn.execute(
            "SELECT COUNT(*) FROM messages WHERE session_id NOT IN (SELECT id FROM sessions)"
        ).fetchone()[0]
        if strays:
            problems.append(f"{strays} messages belong to no session")
    finally:
        conn.close()
    return problems


def assert_sound(path: Path) -> None:
    """Drain the FTS backlog, then fail with every problem :func:`integrity_problems` finds."""
    wait_backlog_drained(path)
    problems = integrity_problems(path)
    assert not problems, problems
