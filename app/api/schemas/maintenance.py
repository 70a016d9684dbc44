"""Request and response bodies of the stats, insights and maintenance endpoints."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from app.api.schemas import examples as ex
from app.api.schemas.common import Count, FilterText, RequestModel, SafeText
from app.api.schemas.transfer import IndexingStatus


class StatsOut(BaseModel):
    """Counts for every source and the file's size accounting."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.STATS]})

    sessions: int
    messages: int
    by_source: dict[str, int]
    database_bytes: int = Field(description="size of state.db (without -wal)")
    wal_bytes: int = Field(description="size of state.db-wal (0 when absent)")
    freelist_bytes: int = Field(description="free pages inside state.db that VACUUM would return")
    fts_bytes: int | None = Field(
        description="bytes of the FTS indexes when include_fts=true (else null; null without dbstat)"
    )
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


class PruneIn(RequestModel):
    """Which ended sessions to delete: every criterion given must match (the agent's prune filters)."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.PRUNE_IN]})

    older_than_days: float | None = Field(
        default=None,
        ge=0,
        le=1_000_000,
        description="sessions started more than this many days ago. Default: 90, unless one of the "
        "filters title, model, provider, branch, end_reason, min_messages, max_messages is given: then "
        "any age (as the agent since PR #59415). `source` alone keeps the 90-day default.",
    )
    older_than: SafeText | None = Field(
        default=None,
        max_length=64,
        description="the agent's `--older-than`: `30m`, `5h`, `2d`, `1w`, a bare number of days, or an ISO "
        "date / date-time (a date is its midnight UTC; no zone means UTC). Not with older_than_days.",
    )
    source: FilterText | None = Field(default=None, description="only this source (exact)")
    title: FilterText | None = Field(default=None, description="title contains this (case-insensitive)")
    model: FilterText | None = Field(default=None, description="model contains this (case-insensitive)")
    provider: FilterText | None = Field(
        default=None, description="billing provider is this (case-insensitive, exact)"
    )
    branch: FilterText | None = Field(default=None, description="git branch contains this (case-insensitive)")
    end_reason: FilterText | None = Field(default=None, description="ended with this reason (exact)")
    min_messages: Count | None = Field(default=None, description="at least this many messages")
    max_messages: Count | None = Field(default=None, description="at most this many messages")
    include_archived: bool = Field(
        default=True,
        description="also prune archived sessions (the CLI sends false unless `--include-archived`)",
    )
    dry_run: bool = False


class PruneOut(BaseModel):
    """What the prune deleted (or would delete)."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.PRUNE_OUT]})

    dry_run: bool
    pruned: int = Field(description="sessions deleted (dry run: that would be deleted)")
    messages: int
    cutoff: float | None = Field(
        description="sessions started before this epoch time qualified (null: any age, filters only)"
    )
    reclaimable_bytes: int = Field(
        description="stored payload of the pruned sessions (estimate, before VACUUM)"
    )
    ids: list[str] | None = Field(description="the candidates, oldest first (dry run only)")


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
