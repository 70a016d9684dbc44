"""Build test data with the real agent (hermes-agent 0.19.0) on the test's state.db."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import hermes_state

from app.settings import Settings
from app.storage.sqlite.driver import sqlite3
from tests.conftest import RawDatabase

DAY = 86400.0


def agent_db(home: Path) -> hermes_state.SessionDB:
    """The agent's SessionDB on ``home/state.db``."""
    return hermes_state.SessionDB(db_path=home / "state.db")


def make_session(
    db: hermes_state.SessionDB,
    sid: str,
    *,
    source: str = "cli",
    messages: int = 3,
    age_days: float = 0.0,
    ended: bool = True,
    parent: str | None = None,
    title: str | None = None,
    **kwargs: Any,
) -> str:
    """Create a session with ``messages`` user/assistant/tool messages, started ``age_days`` ago."""
    db.create_session(sid, source, parent_session_id=parent, **kwargs)
    for i in range(messages):
        if i % 3 == 2:
            db.append_message(
                sid, "tool", content=f"résultat {i} 東京", tool_call_id=f"c{i}", tool_name="terminal"
            )
        elif i % 3 == 1:
            db.append_message(
                sid,
                "assistant",
                content=f"answer {i}",
                tool_calls=[
                    {"id": f"c{i}", "type": "function", "function": {"name": "terminal", "arguments": "{}"}}
                ],
                reasoning="thinking…",
            )
        else:
            db.append_message(sid, "user", content=f"question {i} — naïve ✓ {sid}")
    if title:
        db.set_session_title(sid, title)
    if ended:
        db.end_session(sid, "cli_close")
    if age_days:
        shift = age_days * DAY
        with sqlite3.connect(db.db_path) as conn:
            conn.execute(
                "UPDATE sessions SET started_at = started_at - ?, "
                "ended_at = CASE WHEN ended_at IS NULL THEN NULL ELSE ended_at - ? END WHERE id = ?",
                (shift, shift, sid),
            )
            conn.execute("UPDATE messages SET timestamp = timestamp - ? WHERE session_id = ?", (shift, sid))
    return sid


def rows(path: Path, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
    """Query a state.db directly."""
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    try:
        return [dict(r) for r in conn.execute(sql, params)]
    finally:
        conn.close()


def now() -> float:
    """Current epoch seconds."""
    return time.time()


# --- What a test's server stored, on either backend (tests/lifecycle on SQLite and PostgreSQL) ---


def stored_rows(settings: Settings, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
    """Query the test's server's store (the SQLite file or the PostgreSQL database, sqlite3's ``?``
    placeholders on both), rows as dicts."""
    with RawDatabase(settings) as raw:
        cur = raw.execute(sql, params)
        names = [d[0] for d in cur.description]
        return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]


def stored_ids(settings: Settings) -> list[str]:
    """The ids of the sessions the test's server holds, sorted here (the backends' collations differ)."""
    return sorted(r["id"] for r in stored_rows(settings, "SELECT id FROM sessions"))


def agent_reading_the_server(settings: Settings, scratch: Path) -> hermes_state.SessionDB:
    """The agent's ``SessionDB`` over what the server stored: on SQLite the server's own file; on PostgreSQL
    a new agent file in ``scratch`` (not ``$HERMES_HOME``, which the test mirror copies the other way)
    holding a row-for-row copy of the database's sessions and messages, ids kept."""
    if settings.database_url is None:
        return hermes_state.SessionDB(db_path=settings.db_path)
    scratch.mkdir(parents=True, exist_ok=True)
    path = scratch / "state.db"
    hermes_state.SessionDB(db_path=path).close()  # the agent's own schema
    target = sqlite3.connect(path)
    try:
        with RawDatabase(settings) as raw, target:
            for table in ("sessions", "messages"):
                wanted = set(raw.column_names(table))
                names = [r[1] for r in target.execute(f"PRAGMA table_info({table})") if r[1] in wanted]
                quoted = ", ".join(f'"{n}"' for n in names)
                found = raw.execute(f"SELECT {quoted} FROM {table} ORDER BY 1").fetchall()
                target.executemany(
                    f"INSERT INTO {table} ({quoted}) VALUES ({', '.join('?' * len(names))})",
                    [tuple(r) for r in found],
                )
    finally:
        target.close()
    return hermes_state.SessionDB(db_path=path)
