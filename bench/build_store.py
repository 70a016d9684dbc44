"""Build (and cache) a state.db holding a given number of sessions and messages, quickly.

The schema is the one our ``Database`` creates (the agent's v22 tables, FTS5 indexes and triggers, plus our
``hs_`` tables), so the agent's triggers fire on every insert and both FTS indexes are populated exactly as if
the agent had written the rows. Rows are inserted with raw ``sqlite3`` ``executemany`` in a few large
transactions. Stores are cached under ``bench/data/<name>/state.db``; ``copy_store`` gives a benchmark a
private copy to write into.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.settings import Settings
from app.storage.sqlite.driver import sqlite3
from app.storage.sqlite.store import Database
from bench.corpus import DATA_DIR, Corpus

SOURCES = ("cli", "cli", "cli", "tui", "telegram", "discord", "slack", "api_server", "cron", "acp")
MESSAGE_COLUMNS = (
    "session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp, token_count, finish_reason"
)
INSERT_MESSAGE = f"INSERT INTO messages ({MESSAGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
INSERT_SESSION = (
    "INSERT INTO sessions (id, source, model, system_prompt, started_at, ended_at, end_reason, "
    "message_count, tool_call_count, input_tokens, output_tokens, title) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
SPAN_DAYS = 120


@dataclass(frozen=True)
class StoreSpec:
    """How big a cached store is."""

    name: str
    sessions: int
    messages: int

    @property
    def path(self) -> Path:
        """The cached state.db."""
        return DATA_DIR / self.name / "state.db"


SMALL = StoreSpec("s10k", sessions=1_000, messages=10_000)
MEDIUM = StoreSpec("s100k", sessions=10_000, messages=100_000)
LARGE = StoreSpec("s500k", sessions=50_000, messages=500_000)
STORES = {spec.name: spec for spec in (SMALL, MEDIUM, LARGE)}
"""The stores benchmarks may name (``--store``); the default build makes the small and the large one."""


def session_id(source: str, started_at: float, rng: random.Random) -> str:
    """An id in the agent's format for the source."""
    if source == "api_server":
        return f"api_{int(started_at)}_{rng.getrandbits(32):08x}"
    stamp = time.strftime("%Y%m%d_%H%M%S", time.gmtime(started_at))
    hex_len = 6 if source in ("cli", "tui") else 8
    return f"{stamp}_{rng.getrandbits(4 * hex_len):0{hex_len}x}"


def message_row(sid: str, turn: dict[str, Any], timestamp: float) -> tuple[Any, ...]:
    """A messages row stored the way the agent stores it (tool_calls as JSON text)."""
    calls = turn.get("tool_calls")
    content = turn["content"]
    return (
        sid,
        turn["role"],
        content,
        turn.get("tool_call_id"),
        json.dumps(calls) if calls else None,
        turn.get("tool_name"),
        timestamp,
        max(1, len(content) // 4),
        turn.get("finish_reason"),
    )


def build(spec: StoreSpec, seed: int = 7) -> Path:
    """Create ``spec.path`` (replacing any previous file) and return it."""
    home = spec.path.parent
    if home.exists():
        shutil.rmtree(home)
    home.mkdir(parents=True)
    Database(Settings(home=home, api_token="bench")).open().close()  # migrations: schema + triggers

    corpus = Corpus(seed)
    rng = random.Random(seed)
    now = time.time()
    per_session = [1] * spec.sessions
    for _ in range(spec.messages - spec.sessions):
        per_session[rng.randrange(spec.sessions)] += 1
    starts = sorted(now - rng.uniform(0, SPAN_DAYS * 86400) for _ in range(spec.sessions))

    conn = sqlite3.connect(spec.path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=OFF")
    conn.execute("PRAGMA cache_size=-262144")
    conn.execute("BEGIN")
    sessions: list[tuple[Any, ...]] = []
    messages: list[tuple[Any, ...]] = []
    for index, (count, started) in enumerate(zip(per_session, starts, strict=True)):
        source = rng.choice(SOURCES)
        sid = session_id(source, started, rng)
        turns = corpus.messages(count)
        stamps = [started + 20.0 * i + rng.random() for i in range(count)]
        active = index >= spec.sessions - 20  # the newest few are still open
        tool_calls = sum(len(t.get("tool_calls") or ()) for t in turns)
        title = f"{turns[0]['content'][:40].strip()} {index}" if rng.random() < 0.5 else None
        rows = [message_row(sid, t, ts) for t, ts in zip(turns, stamps, strict=True)]
        sessions.append(
            (
                sid,
                source,
                "anthropic/claude-sonnet-4",
                "You are Hermes, a helpful agent.",
                started,
                None if active else stamps[-1] + 1,
                None if active else "session_end",
                count,
                tool_calls,
                sum(row[7] for row in rows if row[1] != "assistant"),
                sum(row[7] for row in rows if row[1] == "assistant"),
                title,
            )
        )
        messages.extend(rows)
        if len(messages) >= 20_000:
            _flush(conn, sessions, messages)
    _flush(conn, sessions, messages)
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return spec.path


def _flush(
    conn: sqlite3.Connection, sessions: list[tuple[Any, ...]], messages: list[tuple[Any, ...]]
) -> None:
    conn.executemany(INSERT_SESSION, sessions)
    conn.executemany(INSERT_MESSAGE, messages)
    sessions.clear()
    messages.clear()


def ensure(spec: StoreSpec) -> Path:
    """The cached store, built first when missing or incomplete."""
    if spec.path.exists():
        with contextlib.closing(sqlite3.connect(spec.path)) as conn:
            (n,) = conn.execute("SELECT COUNT(*) FROM messages").fetchone()
        if n == spec.messages:
            # Bring a store cached by an older build to the current migration head once, here, rather
            # than in every copy's server start-up.
            Database(Settings(home=spec.path.parent, api_token="bench")).open().close()
            return spec.path
    started = time.perf_counter()
    build(spec)
    print(
        f"built {spec.name}: {spec.messages} messages in {time.perf_counter() - started:.1f} s",
        file=sys.stderr,
    )
    return spec.path


def copy_store(spec: StoreSpec, dest_home: Path) -> Path:
    """A private copy of the cached store at ``dest_home/state.db`` (checkpointed, so one file suffices)."""
    src = ensure(spec)
    dest_home.mkdir(parents=True, exist_ok=True)
    dest = dest_home / "state.db"
    shutil.copyfile(src, dest)
    return dest


def main() -> None:
    """Build the stores named on the command line (default: all)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("stores", nargs="*", default=[SMALL.name, LARGE.name])
    args = parser.parse_args()
    for spec in (SMALL, LARGE):
        if spec.name in args.stores:
            print(f"{spec.name}: {ensure(spec)}")


if __name__ == "__main__":
    main()
