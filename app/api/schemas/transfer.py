"""The export's query and the import endpoints' response bodies (export is a stream, described in its
route)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.api.schemas import examples as ex
from app.api.schemas.filters import SessionFilterFields, session_filter
from app.domain import json_policy
from app.services import export_readable as readable
from app.services.export import ExportFilter


class ExportQuery(SessionFilterFields):
    """``GET /export``: the filter set of ``GET /sessions`` (same names, same semantics), then the export's
    own parameters (unknown parameters are ignored, as on every GET)."""

    format: readable.Format = Field(default="jsonl", description="the export format")
    only: readable.Only | None = Field(default=None, description="keep only the user prompts")
    redact: bool | None = Field(
        default=None,
        description="mask secrets in messages and sessions' own text (default: on for trace, off otherwise)",
    )
    layout: readable.Layout | None = Field(
        default=None,
        description="md: one `document` (default) or verified `files`, one per session; qmd: files",
    )
    lineage: readable.LineageMode = Field(
        default="single",
        description="`logical`: the compression lineage through `session_id` as one session "
        "(jsonl, html, or md/qmd files)",
    )
    source: str | None = Field(default=None, description="only sessions of this source")
    session_id: str | None = Field(default=None, description="only this session (404 if missing)")
    since: float | None = Field(
        default=None,
        ge=json_policy.MIN_TIMESTAMP,
        le=json_policy.MAX_TIMESTAMP,
        description="only sessions active (last message, else start) at or after this epoch time",
    )
    status: Literal["active", "ended", "all"] = Field(
        default="all",
        description="as in `GET /sessions`: active (not ended), ended (any end_reason) or all; "
        "`hermes sessions export` asks for ended sessions when a filter is given, as the agent",
    )

    def export_filter(self) -> ExportFilter:
        """Which sessions to export. 422 ``invalid_duration``, ``empty_time_window``."""
        return ExportFilter(
            source=self.source,
            session_id=self.session_id,
            since=self.since,
            filter=session_filter(self),
            status=self.status,
        )


class IndexingStatus(BaseModel):
    """Deferred full-text indexing of bulk imports (in `GET /stats`, and in search while non-zero)."""

    pending_messages: int = Field(
        description="imported messages still waiting for the background indexer (an upper bound: messages "
        "deleted or edited meanwhile still count); search and the agent's own search miss them until then"
    )


class ImportIssueOut(BaseModel):
    """Why one line (or legacy transcript file) was not imported; nothing of that session was written."""

    line: int | None = Field(default=None, description="1-based line number in the uploaded file")
    file: str | None = Field(default=None, description="transcript file name (legacy transcript import)")
    session_id: str | None = None
    code: str = Field(
        description="invalid_json, invalid_line, invalid_session, invalid_text, json_too_deep, "
        "integer_out_of_range, session_exists, title_in_use, write_failed; a field rule every write path "
        "shares: timestamp_out_of_range, count_out_of_range, flag_not_binary, title_not_text, "
        "title_too_long, invalid_session_id; for transcript files also outside_home, not_a_regular_file"
    )
    detail: str


class ImportResult(BaseModel):
    """Counts of one import."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.IMPORT_RESULT]})

    dry_run: bool
    on_conflict: Literal["skip", "replace", "fail"]
    lines: int = Field(description="non-blank lines (or transcript files) read")
    imported: int = Field(description="new sessions written")
    replaced: int = Field(description="existing sessions overwritten (on_conflict=replace)")
    skipped: int = Field(description="existing sessions left alone (on_conflict=skip)")
    failed: int = Field(description="lines not imported; the first 100 are in errors")
    messages: int = Field(description="messages written")
    linked: int = Field(description="parent links restored")
    detached: int = Field(description="sessions whose parent is neither stored nor in the file")
    message_ids_kept: int = Field(description="messages that kept their original id (ids are kept when free)")
    index_pending: int = Field(
        description="imported messages not yet in the full-text indexes when this answer was sent: an "
        "import of over 1,000 messages or 200 sessions is indexed by a background task after it is stored "
        "(0 with wait_for_index=true); until then search misses them, and `GET /stats` and search report "
        "`indexing.pending_messages`"
    )
    errors: list[ImportIssueOut]
    errors_truncated: bool
