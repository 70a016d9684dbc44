"""The first start on an agent's existing state.db: say what is there, and keep a copy before we migrate it.

Our first migration adds our tables and indexes beside the agent's. It changes none of the agent's rows,
but it is the first time this program writes a user's history, so a compact copy of the file as the agent
left it is taken once, beside it, and named in the log. A file we have migrated before carries Alembic's
``alembic_version`` table and is left alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from app.storage.hermes_schema import stored_version
from app.storage.sqlite.driver import sqlite3
from app.storage.sqlite.read_only import open_read_only
from app.storage.sqlite.snapshots import write_snapshot

BACKUP_INFIX = ".before-hermes-sessions-"
"""Backups are named ``state.before-hermes-sessions-<UTC time>.db`` beside ``state.db``."""


@dataclass(frozen=True)
class AgentFile:
    """An agent's state.db as found before our first migration."""

    schema_version: int | None
    sessions: int
    messages: int

    def describe(self) -> str:
        """One sentence for the start-up log."""
        version = f"schema v{self.schema_version}" if self.schema_version is not None else "no schema version"
        return f"{version}, {self.sessions} sessions, {self.messages} messages"


def unadopted_agent_file(path: Path, *, busy_timeout_ms: int) -> AgentFile | None:
    """The agent's file at ``path`` if it holds the agent's tables and we have never migrated it, else
    ``None`` (no file, an empty one, or one that is already ours). Reads only."""
    if not path.exists() or path.stat().st_size == 0:
        return None
    conn = open_read_only(path, busy_timeout_ms=busy_timeout_ms)
    try:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "sessions" not in tables or "alembic_version" in tables:
            return None
        sessions = int(conn.execute("SELECT COUNT(*) FROM sessions").fetchone()[0])
        messages = (
            int(conn.execute("SELECT COUNT(*) FROM messages").fetchone()[0]) if "messages" in tables else 0
        )
        return AgentFile(stored_version(conn), sessions, messages)
    finally:
        conn.close()


def backup_agent_file(path: Path, *, busy_timeout_ms: int, now: float) -> Path:
    """Write the one-time copy of ``path`` beside it (0600, all or nothing) and return where it is."""
    stamp = datetime.fromtimestamp(now, UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.stem}{BACKUP_INFIX}{stamp}{path.suffix or '.db'}")
    conn: sqlite3.Connection = open_read_only(path, busy_timeout_ms=busy_timeout_ms)
    try:
        write_snapshot(conn, target)
    finally:
        conn.close()
    return target
