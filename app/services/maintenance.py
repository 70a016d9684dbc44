"""Stats, insights, prune, archive, VACUUM, FTS optimize, backups and repair of state.db.

Prune and archive change sessions in small writer jobs, so appends queued behind them wait for one small
job, never for the whole prune. A session is never split across jobs: each prune job deletes whole sessions
(their messages and the row), so every committed state has each session fully present or fully gone, even
after a crash. A session larger than the batch budget is a job of its own; the writer then pauses for it
alone.

VACUUM, checkpoints, backups and the repair check are the SQLite file's own operations (the store's
``files``); on a store without such a file they answer ``not_supported_on_backend``.
"""

from __future__ import annotations

import asyncio
import functools
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from app.domain.retention import DAY_S, cutoff
from app.domain.session_filter import SessionFilter
from app.domain.stored_json import MAX_COUNTER
from app.errors import BackupDirUnusable, MaintenanceBusy, NotSupportedOnBackend, StorageFull
from app.storage.files import is_disk_full, private_dir
from app.storage.protocols import FileStore, Store, Tx
from app.storage.rows import PruneCandidate

# Messages deleted per writer job (whole sessions only). Deleting a message costs about as much as indexing
# it (both FTS indexes must remove its tokens), so jobs stay small: an append queued behind one waits
# a few ms.
PRUNE_BATCH_MESSAGES = 64
# Pause between prune jobs so appends queued meanwhile commit in a group of their own, not behind the next.
PRUNE_PAUSE_S = 0.005
# One VACUUM / backup / repair at a time per process (they each rewrite the whole file).
_exclusive = threading.Lock()


def file_store(db: Store, operation: str) -> FileStore:
    """The store's SQLite file operations; ``not_supported_on_backend`` naming ``operation`` when it has
    none."""
    if db.files is None:
        raise NotSupportedOnBackend(operation, db.backend)
    return db.files


async def stats(db: Store, include_fts: bool = False) -> dict[str, Any]:
    """Counts for every source plus database, WAL and free-page bytes (FTS bytes on request: a page walk).
    A store without a file reports its own sizes in ``store_stats``."""
    out = await db.read(lambda tx: tx.maintenance.store_stats(include_fts))
    if db.files is not None:
        out["database_bytes"], out["wal_bytes"] = await asyncio.to_thread(db.files.sizes)
    return out


async def insights(db: Store, days: int, source: str | None, top: int = 10) -> dict[str, Any]:
    """Tokens and cost by day, model and source; top tools; activity by UTC hour and weekday."""
    now = time.time()
    since = now - days * DAY_S
    report = await db.read(lambda tx: tx.maintenance.usage_report(since, source, top))
    return {
        "days": days,
        "source": source,
        "since": since,
        "until": now,
        "totals": _totals(report.by_source),
        "by_day": [{"day": r.pop("key"), **r} for r in report.by_day],
        "by_model": sorted(
            ({"model": r.pop("key"), **r} for r in report.by_model),
            key=lambda r: (-r["input_tokens"] - r["output_tokens"], r["model"] or ""),
        ),
        "by_source": sorted(
            ({"source": r.pop("key"), **r} for r in report.by_source), key=lambda r: -r["sessions"]
        ),
        "top_tools": report.top_tools,
        # 0 = Sunday, as SQLite's %w; hours are UTC.
        "activity_by_hour": [{"hour": h, "messages": report.hours.get(h, 0)} for h in range(24)],
        "activity_by_weekday": [{"weekday": d, "messages": report.weekdays.get(d, 0)} for d in range(7)],
    }


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


# -- prune and archive ------------------------------------------------------------------------------

# Sessions archived per writer job: each is one UPDATE of its compression lineage.
ARCHIVE_BATCH_SESSIONS = 200


@dataclass
class PruneResult:
    """What a prune did (or, in a dry run, would do)."""

    pruned: int = 0
    messages: int = 0
    reclaimable_bytes: int = 0
    cutoff: float | None = None
    ids: list[str] = field(default_factory=list)
    candidates: list[PruneCandidate] = field(default_factory=list)
    kept_open: int = 0
    """Sessions the filter matches that are left because they are open (dry run)."""
    kept_pinned: int = 0
    """Sessions the filter matches that are left because they are pinned (dry run)."""


@dataclass
class ArchiveResult:
    """What an archive did (or, in a dry run, would do)."""

    archived: int = 0
    ids: list[str] = field(default_factory=list)
    candidates: list[PruneCandidate] = field(default_factory=list)


def _prune_batch(tx: Tx, *, ids: list[str], flt: SessionFilter) -> tuple[list[str], int]:
    return tx.maintenance.prune_batch(ids, flt)


def _archive_batch(tx: Tx, *, ids: list[str], flt: SessionFilter) -> list[str]:
    return tx.maintenance.archive_batch(ids, flt)


def _batches(candidates: list[PruneCandidate]) -> Iterator[list[PruneCandidate]]:
    batch: list[PruneCandidate] = []
    budget = 0
    for cand in candidates:
        if batch and budget + cand.message_count > PRUNE_BATCH_MESSAGES:
            yield batch
            batch, budget = [], 0
        batch.append(cand)
        budget += cand.message_count
    if batch:
        yield batch


async def prune(db: Store, older_than_days: float, source: str | None, dry_run: bool) -> PruneResult:
    """Delete ended sessions started more than ``older_than_days`` ago (never open or pinned ones): the
    agent's ``prune_sessions(older_than_days, source)``."""
    flt = SessionFilter(started_before=cutoff(time.time(), older_than_days), source=source)
    return await prune_matching(db, flt, dry_run)


async def prune_matching(
    db: Store, flt: SessionFilter, dry_run: bool, ids: list[str] | None = None
) -> PruneResult:
    """Delete the ended sessions ``flt`` selects (of ``ids`` when given), oldest first; never an open or a
    pinned session.

    Children of pruned sessions that are not pruned themselves are orphaned (``parent_session_id`` set to
    NULL), exactly like the agent's ``prune_sessions``. Each batch re-checks that its sessions still qualify
    inside the deleting transaction, so a session reopened or pinned meanwhile is kept.
    """
    if not dry_run:
        db.require_writable()  # refused even when nothing matches: the answer must not depend on the data
    found = await db.read(lambda tx: tx.maintenance.candidates(flt, ids=ids, payload=True))
    result = PruneResult(cutoff=flt.started_before, reclaimable_bytes=sum(c.payload_bytes for c in found))
    if dry_run:
        result.pruned = len(found)
        result.messages = sum(c.message_count for c in found)
        result.ids = [c.id for c in found]
        result.candidates = found
        if ids is None:
            result.kept_open, result.kept_pinned = await db.read(lambda tx: tx.maintenance.kept(flt))
        return result
    for batch in _batches(found):
        batch_ids = [c.id for c in batch]
        deleted, messages = await db.write(functools.partial(_prune_batch, ids=batch_ids, flt=flt), bulk=True)
        await asyncio.sleep(PRUNE_PAUSE_S)
        result.pruned += len(deleted)
        result.messages += messages
        result.ids.extend(deleted)
    return result


async def archive_matching(
    db: Store, flt: SessionFilter, dry_run: bool, ids: list[str] | None = None
) -> ArchiveResult:
    """Archive (hide, delete nothing) the ended, not yet archived sessions ``flt`` selects, each with its
    compression lineage (the agent's ``archive_sessions``); never a pinned session."""
    if not dry_run:
        db.require_writable()
    flt = replace(flt, archived=False)
    found = await db.read(lambda tx: tx.maintenance.candidates(flt, ids=ids))
    if dry_run:
        return ArchiveResult(archived=len(found), ids=[c.id for c in found], candidates=found)
    result = ArchiveResult()
    for start in range(0, len(found), ARCHIVE_BATCH_SESSIONS):
        batch_ids = [c.id for c in found[start : start + ARCHIVE_BATCH_SESSIONS]]
        done = await db.write(functools.partial(_archive_batch, ids=batch_ids, flt=flt), bulk=True)
        await asyncio.sleep(PRUNE_PAUSE_S)
        result.archived += len(done)
        result.ids.extend(done)
    return result


# -- VACUUM, optimize, checkpoint, backup, repair ---------------------------------------------------


async def optimize(db: Store) -> dict[str, Any]:
    """FTS optimize (through the writer) then a TRUNCATE checkpoint, as ``hermes sessions optimize``."""
    files = file_store(db, "An FTS optimize with a WAL checkpoint")
    before = await asyncio.to_thread(files.sizes)
    tables = await db.write(lambda tx: tx.maintenance.optimize_fts())
    ckpt = await asyncio.to_thread(files.checkpoint)
    after = await asyncio.to_thread(files.sizes)
    return {
        "fts_optimized": tables,
        "checkpoint": {
            "busy": ckpt.busy,
            "log_frames": ckpt.log_frames,
            "checkpointed_frames": ckpt.checkpointed_frames,
        },
        "database_bytes_before": before[0],
        "wal_bytes_before": before[1],
        "database_bytes": after[0],
        "wal_bytes": after[1],
    }


def vacuum_sync(db: Store) -> dict[str, Any]:
    """FTS optimize, checkpoint, VACUUM, checkpoint — blocking; call from a worker thread."""
    files = file_store(db, "A VACUUM")
    if not _exclusive.acquire(blocking=False):
        raise MaintenanceBusy()
    try:
        started = time.monotonic()
        before = files.sizes()
        tables = db.write_sync(lambda tx: tx.maintenance.optimize_fts())
        files.vacuum()
        after = files.sizes()
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


async def vacuum(db: Store) -> dict[str, Any]:
    """Reclaim free pages: the agent's ``vacuum()`` on a connection of its own."""
    return await asyncio.to_thread(vacuum_sync, db)


def _snapshot_locked(db: Store, files: FileStore) -> dict[str, Any]:
    """A ``VACUUM INTO`` copy under ``$HERMES_HOME/backups/``; the caller holds ``_exclusive``."""
    settings = db.settings
    target_dir = private_dir(settings.home, settings.backups_dir, BackupDirUnusable)
    created = time.time()
    stamp = datetime.fromtimestamp(created, UTC).strftime("%Y%m%dT%H%M%S%fZ")
    name = f"state-{stamp}.db"
    target = target_dir / name
    try:
        files.snapshot(target)
    except BaseException as exc:
        if isinstance(exc, StorageFull) or is_disk_full(exc):
            raise StorageFull(str(target_dir)) from exc
        raise
    return {"name": name, "path": str(target), "bytes": target.stat().st_size, "created_at": created}


def _backup_sync(db: Store) -> dict[str, Any]:
    files = file_store(db, "A backup (VACUUM INTO)")
    if not _exclusive.acquire(blocking=False):
        raise MaintenanceBusy()
    try:
        return _snapshot_locked(db, files)
    finally:
        _exclusive.release()


async def backup(db: Store) -> dict[str, Any]:
    """Write a consistent copy of state.db under ``$HERMES_HOME/backups/``."""
    return await asyncio.to_thread(_backup_sync, db)


def _repair_sync(db: Store, check_only: bool, backup_first: bool) -> dict[str, Any]:
    files = file_store(db, "The repair check")
    if not _exclusive.acquire(blocking=False):
        raise MaintenanceBusy()
    try:
        found = files.health_check()
        out: dict[str, Any] = {
            "path": str(files.path),
            "healthy": not found.problems(),
            "problems": found.problems(),
            "check_only": check_only,
            "repaired": False,
            "strategy": "already_healthy" if not found.problems() else None,
            "backup_path": None,
            "error": None,
            "sessions": found.sessions,
        }
        if check_only or out["healthy"]:
            return out
        if backup_first:
            out["backup_path"] = _snapshot_locked(db, files)["path"]
        steps = db.write_sync(lambda tx: tx.maintenance.repair(found))
        out["strategy"] = ", ".join(steps)
        after = files.health_check()
        out["sessions"] = after.sessions
        if after.problems():
            out["error"] = "; ".join(after.problems()[:3])
        else:
            out["repaired"] = True
        return out
    finally:
        _exclusive.release()


async def repair(db: Store, check_only: bool, backup_first: bool = True) -> dict[str, Any]:
    """Check the store (integrity, FTS consistency, a rolled-back write), and unless ``check_only`` repair
    what was found after a ``VACUUM INTO`` backup; session and message rows are never changed."""
    return await asyncio.to_thread(_repair_sync, db, check_only, backup_first)
