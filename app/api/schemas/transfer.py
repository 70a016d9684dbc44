"""Response bodies of the import endpoints (export is a JSONL stream, described in its route)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.api.schemas import examples as ex


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
        "integer_out_of_range, session_exists, title_in_use, write_failed; for transcript files also "
        "outside_home, not_a_regular_file"
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
