"""Stats, insights and maintenance endpoints."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Query

from app.api.deps import DB, Pruner
from app.api.error_docs import JSON_BODY, READ, WRITE, Errors
from app.api.operations import api_router, operation
from app.api.schemas.filters import prune_filter, session_filter
from app.api.schemas.maintenance import (
    ArchiveIn,
    ArchiveOut,
    AutoPruneRunOut,
    AutoPruneStatus,
    BackupOut,
    InsightsOut,
    OptimizeOut,
    PruneIn,
    PruneOut,
    RepairIn,
    RepairOut,
    SelectedSession,
    StatsOut,
    VacuumOut,
)
from app.errors import (
    BackupDirUnusable,
    ConflictingParameters,
    EmptyTimeWindow,
    FilterRequired,
    InvalidDuration,
    MaintenanceBusy,
    NotSupportedOnBackend,
)
from app.services import maintenance as service

router = api_router("maintenance")


@router.get("/stats", **operation("stats-get", "Store statistics", StatsOut, READ))
async def get_stats(
    db: DB,
    include_fts: Annotated[
        bool,
        Query(description="also measure the FTS indexes' size (walks their pages: slower on big stores)"),
    ] = False,
) -> dict[str, Any]:
    """Sessions and messages, sessions per source (all of them), database, WAL and free-page bytes."""
    return await service.stats(db, include_fts)


@router.get("/insights", **operation("insights-get", "Usage insights", InsightsOut, READ))
async def get_insights(
    db: DB,
    days: Annotated[
        int, Query(ge=1, le=3650, description="window: sessions started in the last N days")
    ] = 30,
    source: Annotated[str | None, Query(description="only this source")] = None,
) -> dict[str, Any]:
    """Tokens and cost by day, model and source; top tools; activity by hour and weekday (UTC)."""
    return await service.insights(db, days, source)


_FILTER_ERRORS: Errors = (InvalidDuration, EmptyTimeWindow)


def _candidates(found: list[Any]) -> list[dict[str, Any]]:
    # What the schema documents of each candidate, in its order (what a prune frees is reported in total).
    return [{name: getattr(c, name) for name in SelectedSession.model_fields} for c in found]


@router.post(
    "/maintenance/prune",
    **operation(
        "maintenance-prune",
        "Prune old ended sessions",
        PruneOut,
        WRITE,
        JSON_BODY,
        ConflictingParameters,
        InvalidDuration,
        EmptyTimeWindow,
    ),
)
async def prune(db: DB, body: PruneIn | None = None) -> dict[str, Any]:
    """Delete ended sessions matching every criterion given; open and pinned sessions are never touched.

    Without a time filter or criterion: ended sessions started more than 90 days ago. Children of pruned
    sessions are orphaned (their `parent_session_id` becomes null), as the agent does. Deletion runs in
    small batches so concurrent appends are not held up. Errors: `conflicting_parameters` (422, both
    `older_than` and `older_than_days`), `invalid_duration` (422, a time filter unreadable),
    `empty_time_window` (422, the lower time bound is not before the upper one).
    """
    req = body or PruneIn()
    if req.older_than is not None and req.older_than_days is not None:
        raise ConflictingParameters("older_than", "older_than_days")
    flt = prune_filter(req, req.source, req.older_than_days, None if req.include_archived else False)
    result = await service.prune_matching(db, flt, req.dry_run, req.session_ids)
    return {
        "dry_run": req.dry_run,
        "pruned": result.pruned,
        "messages": result.messages,
        "cutoff": result.cutoff,
        "reclaimable_bytes": result.reclaimable_bytes,
        "ids": result.ids if req.dry_run else None,
        "candidates": _candidates(result.candidates) if req.dry_run else None,
        "kept_open": result.kept_open if req.dry_run and req.session_ids is None else None,
        "kept_pinned": result.kept_pinned if req.dry_run and req.session_ids is None else None,
    }


@router.post(
    "/maintenance/archive",
    **operation(
        "maintenance-archive",
        "Archive ended sessions matching filters",
        ArchiveOut,
        WRITE,
        JSON_BODY,
        FilterRequired,
        _FILTER_ERRORS,
    ),
)
async def archive(db: DB, body: ArchiveIn) -> dict[str, Any]:
    """Archive (soft-hide) the ended sessions matching every criterion given, each with its compression
    lineage, as the agent's `hermes sessions archive`: nothing is deleted, archived sessions are only left
    out of listings. Already archived and pinned sessions are left alone, so a repeat is a no-op. Errors:
    `filter_required` (422, no filter at all), `invalid_duration`, `empty_time_window` (422).
    """
    flt = session_filter(body, body.source)
    if flt.is_empty():
        raise FilterRequired()
    result = await service.archive_matching(db, flt, body.dry_run, body.session_ids)
    return {
        "dry_run": body.dry_run,
        "archived": result.archived,
        "ids": result.ids,
        "candidates": _candidates(result.candidates) if body.dry_run else None,
    }


@router.post(
    "/maintenance/repair",
    **operation(
        "maintenance-repair",
        "Check, or repair, the store",
        RepairOut,
        WRITE,
        JSON_BODY,
        MaintenanceBusy,
        BackupDirUnusable,
        NotSupportedOnBackend,
    ),
)
async def repair(db: DB, body: RepairIn | None = None) -> dict[str, Any]:
    """`hermes sessions repair`: `PRAGMA integrity_check`, each FTS index's own integrity check, messages
    missing from an index and index rows of deleted messages, and the agent's rolled-back test write
    through the FTS triggers. Unless `check_only`, what was found is repaired after a `VACUUM INTO` backup
    to `$HERMES_HOME/backups/` (skipped with `backup: false`): indexes rebuilt, the search index brought in
    line with the messages. No session or message row is changed. Writes wait while it runs. Codes: 409
    `maintenance_busy`, `backup_dir_unusable`; 501 `not_supported_on_backend` (the store is PostgreSQL, not
    a SQLite file); 507 `storage_full`.
    """
    req = body or RepairIn()
    return await service.repair(db, req.check_only, req.backup)


@router.post(
    "/maintenance/vacuum",
    **operation(
        "maintenance-vacuum", "VACUUM state.db", VacuumOut, WRITE, MaintenanceBusy, NotSupportedOnBackend
    ),
)
async def vacuum(db: DB) -> dict[str, Any]:
    """FTS optimize, checkpoint, VACUUM and checkpoint again: the file shrinks by its free pages.

    Writes wait while VACUUM holds the lock (503 if that outlasts the configured budget). 501
    `not_supported_on_backend` when the store is PostgreSQL, not a SQLite file.
    """
    return await service.vacuum(db)


@router.post(
    "/maintenance/optimize",
    **operation(
        "maintenance-optimize", "FTS optimize + WAL checkpoint", OptimizeOut, WRITE, NotSupportedOnBackend
    ),
)
async def optimize(db: DB) -> dict[str, Any]:
    """Merge FTS segments and checkpoint (TRUNCATE) the WAL; cheap when nothing changed. 501
    `not_supported_on_backend` when the store is PostgreSQL, not a SQLite file."""
    return await service.optimize(db)


@router.post(
    "/maintenance/backup",
    **operation(
        "maintenance-backup",
        "Back up state.db",
        BackupOut,
        WRITE,
        MaintenanceBusy,
        BackupDirUnusable,
        NotSupportedOnBackend,
    ),
)
async def backup(db: DB) -> dict[str, Any]:
    """Write a consistent copy (`VACUUM INTO`) to `$HERMES_HOME/backups/state-<UTC time>.db` (mode 0600,
    built under a temporary name and renamed when complete). Codes: 409 `maintenance_busy` (another VACUUM
    or backup is running), 409 `backup_dir_unusable` (`backups` is not a directory, or resolves outside
    `$HERMES_HOME`); 501 `not_supported_on_backend` (the store is PostgreSQL, not a SQLite file); 507
    `storage_full` (no file is left behind)."""
    return await service.backup(db)


@router.get(
    "/maintenance/auto-prune",
    **operation("maintenance-auto-prune-status", "Auto-prune status", AutoPruneStatus, READ),
)
async def auto_prune_status(pruner: Pruner) -> dict[str, Any]:
    """Configuration (config.yaml `sessions:` + `HERMES_SESSIONS_*`) and the last run."""
    return await pruner.status()


@router.post(
    "/maintenance/auto-prune/run",
    **operation("maintenance-auto-prune-run", "Run auto-prune if due", AutoPruneRunOut, WRITE),
)
async def auto_prune_run(pruner: Pruner) -> dict[str, Any]:
    """One `maybe_auto_prune_and_vacuum`: skipped within `min_interval_hours` of any process's last run."""
    return await pruner.run_once()
