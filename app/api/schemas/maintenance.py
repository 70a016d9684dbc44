"""Request and response bodies of the stats, insights and maintenance endpoints."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from app.api.schemas import examples as ex
from app.api.schemas.common import FilterText, RequestModel
from app.api.schemas.filters import SessionFilterFields
from app.api.schemas.row_models import from_row
from app.api.schemas.transfer import IndexingStatus
from app.storage.rows import PruneCandidate


class StatsOut(BaseModel):
    """Counts for every source and the file's size accounting."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.STATS]})

    sessions: int
    messages: int
    by_source: dict[str, int]
    database_bytes: int = Field(description="size of state.db (without -wal)")
    wal_bytes: int = Field(description="size of state.db-wal (0 when absent)")
    freelist_bytes: int = Field(description="free pages inside state.db that VACUUM would return")
    fts_bytes: int | None = Field(description="bytes of the FTS indexes when include_fts=true (else null)")
    page_size: int
    page_count: int
    indexing: IndexingStatus


class UsageRow(BaseModel):
    """Token and cost sums of a group of sessions."""

    sessions: int
    messages: int
    input_tokens: int
    output_tokens: int
    cache_read_tokens: int
    cache_write_tokens: int
    reasoning_tokens: int
    cost_usd: float = Field(description="actual cost where known, else estimated")


class DayUsage(UsageRow):
    day: str = Field(description="UTC date, YYYY-MM-DD")


class ModelUsage(UsageRow):
    model: str | None


class SourceUsage(UsageRow):
    source: str


class ToolCount(BaseModel):
    tool: str
    calls: int


class HourActivity(BaseModel):
    hour: int = Field(description="UTC hour 0-23")
    messages: int


class WeekdayActivity(BaseModel):
    weekday: int = Field(description="0 = Sunday ... 6 = Saturday (UTC)")
    messages: int


class InsightsOut(BaseModel):
    """Usage over the last ``days`` days (sessions started in the window)."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.INSIGHTS]})

    days: int
    source: str | None
    since: float
    until: float
    totals: UsageRow
    by_day: list[DayUsage]
    by_model: list[ModelUsage]
    by_source: list[SourceUsage]
    top_tools: list[ToolCount]
    activity_by_hour: list[HourActivity]
    activity_by_weekday: list[WeekdayActivity]


SessionIds = Annotated[list[FilterText], Field(min_length=1, max_length=1000)]


class BulkSelection(SessionFilterFields):
    """The filter set of a prune or an archive: ``source`` (exact) and only ``session_ids`` when given."""

    source: FilterText | None = Field(default=None, description="only this source (exact)")
    session_ids: SessionIds | None = Field(
        default=None,
        description="act only on these of the matching sessions (at most 1000): the CLI sends the ones it "
        "showed, so nothing that started to match after the preview is touched",
    )
    dry_run: bool = Field(default=False, description="only report what would change")


class PruneIn(RequestModel, BulkSelection):
    """Which ended sessions to delete: every criterion given must match (the agent's prune filters).

    Pinned sessions are never pruned.
    """

    model_config = ConfigDict(json_schema_extra={"examples": [ex.PRUNE_IN]})

    older_than_days: float | None = Field(
        default=None,
        ge=0,
        le=1_000_000,
        description="sessions started more than this many days ago. Default: 90, unless a time filter or "
        "a criterion other than `source` is given: then any age (as the agent since PR #59415). `source` "
        "alone keeps the 90-day default. Not with older_than.",
    )
    include_archived: bool = Field(
        default=True,
        description="also prune archived sessions (the CLI sends false unless `--include-archived`)",
    )


@from_row(PruneCandidate, omit={"payload_bytes"})
class SelectedSession(BaseModel):
    """A session a prune or an archive selects (the agent's ``list_prune_candidates`` row)."""


class PruneOut(BaseModel):
    """What the prune deleted (or would delete)."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.PRUNE_OUT]})

    dry_run: bool
    pruned: int = Field(description="sessions deleted (dry run: that would be deleted)")
    messages: int
    cutoff: float | None = Field(
        description="sessions started before this epoch time qualified (null: no upper bound)"
    )
    reclaimable_bytes: int = Field(
        description="stored payload of the pruned sessions (estimate, before VACUUM)"
    )
    ids: list[str] | None = Field(description="the candidates, oldest first (dry run only)")
    candidates: list[SelectedSession] | None = Field(
        default=None, description="the candidates with their title, source, start and size (dry run only)"
    )
    kept_open: int | None = Field(
        default=None,
        description="sessions the criteria match that are kept because they are open (dry run without "
        "`session_ids` only)",
    )
    kept_pinned: int | None = Field(
        default=None,
        description="ended sessions the criteria match that are kept because they are pinned (dry run "
        "without `session_ids` only)",
    )


class ArchiveIn(RequestModel, BulkSelection):
    """Which ended sessions to archive (hide from listings; nothing is deleted). At least one filter is
    required. Already archived and pinned sessions are left alone."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.ARCHIVE_IN]})


class ArchiveOut(BaseModel):
    """What the archive hid (or would hide)."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.ARCHIVE_OUT]})

    dry_run: bool
    archived: int = Field(
        description="sessions archived, each with its compression lineage (dry run: would be)"
    )
    ids: list[str] = Field(description="the sessions archived (dry run: that would be), oldest first")
    candidates: list[SelectedSession] | None = Field(
        default=None, description="the candidates with their title, source, start and size (dry run only)"
    )


class RepairIn(RequestModel):
    """``hermes sessions repair``: check only, or repair after a backup."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.REPAIR_IN]})

    check_only: bool = Field(default=False, description="only report whether the store is healthy")
    backup: bool = Field(default=True, description="write a VACUUM INTO backup before repairing")


class RepairOut(BaseModel):
    """The health of the store and what the repair did."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.REPAIR_OUT]})

    path: str = Field(description="the database file checked")
    healthy: bool = Field(description="whether the check found nothing wrong (before any repair)")
    problems: list[str] = Field(description="what the check found (integrity, search index, a test write)")
    check_only: bool
    repaired: bool = Field(description="a repair ran and the store is healthy now")
    strategy: str | None = Field(
        description="already_healthy, or the steps taken (reindex, rebuild_fts:T, drop_orphans:T, "
        "index_missing:T)"
    )
    backup_path: str | None = Field(description="the backup written before repairing")
    error: str | None = Field(description="what is still wrong after the repair")
    sessions: int = Field(description="sessions in the store (after the repair)")


class CheckpointOut(BaseModel):
    busy: int
    log_frames: int
    checkpointed_frames: int


class OptimizeOut(BaseModel):
    """FTS segments merged and the WAL checkpointed."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.OPTIMIZE]})

    fts_optimized: list[str]
    checkpoint: CheckpointOut
    database_bytes_before: int
    wal_bytes_before: int
    database_bytes: int
    wal_bytes: int


class VacuumOut(BaseModel):
    """The file rewritten without its free pages."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.VACUUM]})

    fts_optimized: list[str]
    database_bytes_before: int
    wal_bytes_before: int
    database_bytes: int
    wal_bytes: int
    reclaimed_bytes: int
    duration_s: float


class BackupOut(BaseModel):
    """A consistent copy of state.db under ``$HERMES_HOME/backups/``."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.BACKUP]})

    name: str
    path: str
    bytes: int
    created_at: float


class AutoPruneStatus(BaseModel):
    """Auto-prune configuration and its last run (shared with the agent through state_meta)."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.AUTO_PRUNE_STATUS]})

    enabled: bool
    retention_days: float
    vacuum_after_prune: bool
    min_interval_hours: float
    vacuum_min_free_ratio: float
    check_interval_s: float
    last_run_at: float | None = Field(
        description="from state_meta 'last_auto_prune' (null: never, or unreadable)"
    )
    last_run_marker: str | None = Field(description="the raw marker as stored")
    next_run_at: float | None
    pruned: int | None
    vacuumed: bool | None
    error: str | None
    running: bool


class AutoPruneRunOut(BaseModel):
    """One run, as the agent's ``maybe_auto_prune_and_vacuum`` reports it."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.AUTO_PRUNE_RUN]})

    skipped: bool
    pruned: int
    vacuumed: bool
    reason: str | None = Field(default=None, description="why it was skipped: interval, lease_held, running")
    messages: int | None = None
    optimized: bool | None = None
    error: str | None = None
