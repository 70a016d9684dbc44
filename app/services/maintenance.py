"""Stats, insights, prune, VACUUM, FTS optimize and backups of state.db.

Prune deletes in small writer jobs, so appends queued behind it wait for one small job, never for the whole
prune. A session is never split across jobs: each job deletes whole sessions (their messages and the row),
so every committed state has each session fully present or fully gone, even after a crash. A session larger
than the batch budget is a job of its own; the writer then pauses for it alone (about 30 us per message).

VACUUM, checkpoints and backups cannot run inside a transaction, so they use a dedicated autocommit
connection; the writer simply waits for the lock (up to its budget) meanwhile, and readers, being in WAL
mode, keep reading.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from app.domain.retention import DAY_S, PruneFilter, cutoff
from app.domain.stored_json import MAX_COUNTER
from app.errors import BackupDirUnusable, MaintenanceBusy, StorageFull
from app.storage.connection import open_connection, translated
from app.storage.database import Database
from app.storage.files import file_size, is_disk_full, private_dir
from app.storage.repos import fts_backlog
from app.storage.repos import maintenance as repo
from app.storage.snapshots import write_snapshot

# Messages deleted per writer job (whole sessions only). Deleting a message costs about as much as indexing
# it (both FTS indexes must remove its tokens), so jobs stay small: an append queued behind one waits
# a few ms.
PRUNE_BATCH_MESSAGES = 64
# Pause between prune jobs so appends queued meanwhile commit in a group of their own, not behind the next.
PRUNE_PAUSE_S = 0.005
# One VACUUM / backup at a time per process (they each rewrite the whole file).
_exclusive = threading.Lock()


def file_sizes(db: Database) -> tuple[int, int]:
    """Bytes of state.db and of its ``-wal`` file (0 when absent)."""
    return file_size(db.path), file_size(db.wal_path)


async def stats(db: Database, include_fts: bool = False) -> dict[str, Any]:
    """Counts for every source plus database, WAL and free-page bytes (FTS bytes on request: a page walk)."""

    def read(conn: sqlite3.Connection) -> dict[str, Any]:
        sessions, messages, by_source = repo.counts(conn)
        pages = repo.page_stats(conn)
        return {
            "sessions": sessions,
            "messages": messages,
            "by_source": by_source,
            "page_size": pages.page_size,
            "page_count": pages.page_count,
            "freelist_bytes": pages.freelist_count * pages.page_size,
            "fts_bytes": repo.fts_bytes(conn) if include_fts else None,
            "indexing": {"pending_messages": fts_backlog.pending_messages(conn)},
        }

    out = await db.read(read)
    out["database_bytes"], out["wal_bytes"] = await asyncio.to_thread(file_sizes, db)
    return out


async def insights(db: Database, days: int, source: str | None, top: int = 10) -> dict[str, Any]:
    """Tokens and cost by day, model and source; top tools; activity by UTC hour and weekday."""
    now = time.time()
    since = now - days * DAY_S

    def read(conn: sqlite3.Connection) -> dict[str, Any]:
        by_day = repo.usage_by(conn, "date(s.started_at, 'unixepoch')", since, source)
        by_model = repo.usage_by(conn, "s.model", since, source)
        by_source = repo.usage_by(conn, "s.source", since, source)
        hours = repo.activity(conn, "%H", since, source)
        weekdays = repo.activity(conn, "%w", since, source)
        return {
            "days": days,
            "source": source,
            "since": since,
            "until": now,
            "totals": _totals(by_source),
            "by_day": [{"day": r.pop("key"), **r} for r in by_day],
            "by_model": sorted(
                ({"model": r.pop("key"), **r} for r in by_model),
                key=lambda r: (-r["input_tokens"] - r["output_tokens"], r["model"] or ""),
            ),
            "by_source": sorted(
                ({"source": r.pop("key"), **r} for r in by_source), key=lambda r: -r["sessions"]
            ),
            "top_tools": repo.top_tools(conn, since, source, top),
            # 0 = Sunday, as SQLite's %w; hours are UTC.
            "activity_by_hour": [{"hour": h, "messages": hours.get(h, 0)} for h in range(24)],
            "activity_by_weekday": [{"weekday": d, "messages": weekdays.get(d, 0)} for d in range(7)],
        }

    return await db.read(read)


def _totals(rows: list[dict[str, Any]]) -> dict[str, Any]:
    keys = (
        "sessions",
        "messages",
        "input_tokens",
        "output_tokens",
        "cache_read_tokens",
        "cache_write_tokens",
        "reasoning_tokens",
    )
    totals: dict[str, Any] = {k: min(sum(r[k] for r in rows), MAX_COUNTER) for k in keys}
    totals["cost_usd"] = round(sum(r["cost_usd"] for r in rows), 6)
    return totals


# -- prune ------------------------------------------------------------------------------------------


@dataclass
class PruneResult:
    """What a prune did (or, in a dry run, would do)."""

    pruned: int = 0
    messages: int = 0
    reclaimable_bytes: int = 0
    cutoff: float | None = None
    ids: list[str] = field(default_factory=list)


def _batches(candidates: list[repo.PruneCandidate]) -> Iterator[list[repo.PruneCandidate]]:
    batch: list[repo.PruneCandidate] = []
    budget = 0
    for cand in candidates:
        if batch and budget + cand.message_count > PRUNE_BATCH_MESSAGES:
            yield batch
            batch, budget = [], 0
        batch.append(cand)
        budget += cand.message_count
    if batch:
        yield batch


async def prune(db: Database, older_than_days: float, source: str | None, dry_run: bool) -> PruneResult:
    """Delete ended sessions started more than ``older_than_days`` ago (never open ones): the agent's
    ``prune_sessions(older_than_days, source)``."""
    flt = PruneFilter(started_before=cutoff(time.time(), older_than_days), source=source)
    return await prune_matching(db, flt, dry_run)


async def prune_matching(db: Database, flt: PruneFilter, dry_run: bool) -> PruneResult:
    """Delete the ended sessions ``flt`` selects (never open ones), oldest first.

    Children of pruned sessions that are not pruned themselves are orphaned (``parent_session_id`` set to
    NULL), exactly like the agent's ``prune_sessions``. Each batch re-checks that its sessions still qualify
    inside the deleting transaction, so a session reopened meanwhile is kept.
    """
    if not dry_run:
        db.require_writable()  # refused even when nothing matches: the answer must not depend on the data
    candidates = await db.read(lambda conn: repo.prune_candidates(conn, flt))
    result = PruneResult(
        cutoff=flt.started_before, reclaimable_bytes=sum(c.payload_bytes for c in candidates)
    )
    if dry_run:
        result.pruned = len(candidates)
        result.messages = sum(c.message_count for c in candidates)
        result.ids = [c.id for c in candidates]
        return result
    for batch in _batches(candidates):
        ids = [c.id for c in batch]

        def delete(conn: sqlite3.Connection, ids: list[str] = ids) -> tuple[list[str], int]:
            keep = repo.still_prunable(conn, ids, flt)
            return keep, repo.delete_sessions(conn, keep)

        deleted, messages = await db.write(delete)
        await asyncio.sleep(PRUNE_PAUSE_S)
        result.pruned += len(deleted)
        result.messages += messages
        result.ids.extend(deleted)
    return result


# -- VACUUM, optimize, checkpoint, backup -------------------------------------------------------------


@contextlib.contextmanager
def _side_connection(db: Database) -> Iterator[sqlite3.Connection]:
    # Autocommit connection of its own: VACUUM and checkpoints refuse to run inside a transaction, and the
    # writer's connection is always inside its group-commit transaction while it works.
    db.require_writable()
    with translated():
        conn = open_connection(
            db.path,
            synchronous=db.settings.db_synchronous,
            busy_timeout_ms=max(db.settings.busy_timeout_ms, 30_000),
        )
        try:
            yield conn
        finally:
            conn.close()


def _checkpoint(conn: sqlite3.Connection) -> dict[str, int]:
    busy, log_frames, done = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    return {"busy": busy, "log_frames": log_frames, "checkpointed_frames": done}


async def optimize(db: Database) -> dict[str, Any]:
    """FTS optimize (through the writer) then a TRUNCATE checkpoint, as ``hermes sessions optimize``."""
    before = await asyncio.to_thread(file_sizes, db)
    tables = await db.write(repo.optimize_fts)

    def checkpoint() -> dict[str, int]:
        with _side_connection(db) as conn:
            return _checkpoint(conn)

    ckpt = await asyncio.to_thread(checkpoint)
    after = await asyncio.to_thread(file_sizes, db)
    return {
        "fts_optimized": tables,
        "checkpoint": ckpt,
        "database_bytes_before": before[0],
        "wal_bytes_before": before[1],
        "database_bytes": after[0],
        "wal_bytes": after[1],
    }


def vacuum_sync(db: Database) -> dict[str, Any]:
    """FTS optimize, checkpoint, VACUUM, checkpoint — blocking; call from a worker thread."""
    if not _exclusive.acquire(blocking=False):
        raise MaintenanceBusy()
    try:
        started = time.monotonic()
        before = file_sizes(db)
        tables = db.write_sync(repo.optimize_fts)
        with _side_connection(db) as conn:
            _checkpoint(conn)
            conn.execute("VACUUM")
            # In WAL mode VACUUM writes the new pages to the WAL; the file shrinks at this checkpoint.
            _checkpoint(conn)
        after = file_sizes(db)
    finally:
        _exclusive.release()
    return {
        "fts_optimized": tables,
        "database_bytes_before": before[0],
        "wal_bytes_before": before[1],
        "database_bytes": after[0],
        "wal_bytes": after[1],
        "reclaimed_bytes": max(0, before[0] + before[1] - after[0] - after[1]),
        "duration_s": round(time.monotonic() - started, 3),
    }


async def vacuum(db: Database) -> dict[str, Any]:
    """Reclaim free pages: the agent's ``vacuum()`` on a connection of its own."""
    return await asyncio.to_thread(vacuum_sync, db)


def _backup_sync(db: Database) -> dict[str, Any]:
    if not _exclusive.acquire(blocking=False):
        raise MaintenanceBusy()
    try:
        settings = db.settings
        target_dir = private_dir(settings.home, settings.backups_dir, BackupDirUnusable)
        created = time.time()
        stamp = datetime.fromtimestamp(created, UTC).strftime("%Y%m%dT%H%M%S%fZ")
        name = f"state-{stamp}.db"
        target = target_dir / name
        try:
            with _side_connection(db) as conn:
                write_snapshot(conn, target)
        except BaseException as exc:
            if isinstance(exc, StorageFull) or is_disk_full(exc):
                raise StorageFull(str(target_dir)) from exc
            raise
    finally:
        _exclusive.release()
    return {"name": name, "path": str(target), "bytes": target.stat().st_size, "created_at": created}


async def backup(db: Database) -> dict[str, Any]:
    """Write a consistent copy of state.db under ``$HERMES_HOME/backups/``."""
    return await asyncio.to_thread(_backup_sync, db)
