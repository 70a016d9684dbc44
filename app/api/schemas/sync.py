"""Request and response bodies of ``POST /sync/batches`` (``hermes sessions sync``)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from app.api.schemas import examples as ex
from app.api.schemas.common import RequestModel
from app.domain.sync import MAX_HOME_LENGTH
from app.services.sync import MAX_BATCH_MESSAGES, MAX_BATCH_SESSIONS, MAX_FILE_TOKEN_LENGTH


class SyncMessagesIn(RequestModel):
    """Message rows as the agent's file holds them, one value per column."""

    columns: list[str] = Field(
        default_factory=list,
        max_length=256,
        description="the `messages` columns of the home's file, `id` (the id there) and `session_id` "
        "among them; columns this store lacks are dropped, missing ones take their default",
    )
    rows: list[list[Any]] = Field(
        default_factory=list,
        max_length=MAX_BATCH_MESSAGES,
        description=f"at most {MAX_BATCH_MESSAGES} rows in `columns` order, values as stored (text keeps "
        "the agent's `\\u0000json:` content prefix)",
    )


class SyncBatchIn(RequestModel):
    """One batch of a home's agent file."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.SYNC_BATCH]})

    home: str = Field(
        min_length=1,
        max_length=MAX_HOME_LENGTH,
        description="the home's label (default of the CLI: host and file path); listings and search filter "
        "by it",
    )
    sessions: list[dict[str, Any]] = Field(
        default_factory=list,
        max_length=MAX_BATCH_SESSIONS,
        description=f"at most {MAX_BATCH_SESSIONS} session rows (the agent's columns, unknown ones carried "
        "when this store has them); each is inserted, or overwrites the stored row it synced before",
    )
    messages: SyncMessagesIn = Field(default_factory=SyncMessagesIn)
    file: str | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_FILE_TOKEN_LENGTH,
        pattern=r"^[A-Za-z0-9_-]+$",
        description="the token of the file's generation, kept by the client beside its cursor: a file that "
        "replaced the home's earlier one (or a restored or copied one) starts its message ids over under a "
        "token of its own; absent: generation 0",
    )


class SyncRefusedOut(BaseModel):
    """A row set aside (not stored) and the field rule it broke; the rest of the batch was stored."""

    session_id: str | None = Field(description="its session (null when the id itself is not text)")
    message_id: int | None = Field(description="its message id in the home's file; null for a session row")
    field: str = Field(description="the field at fault (empty when the row as a whole is)")
    code: str = Field(
        description="a field rule every write path shares (timestamp_out_of_range, count_out_of_range, "
        "flag_not_binary, title_not_text, title_too_long, invalid_session_id), invalid_text, invalid_row, "
        "session_refused (a message whose session row was refused), or what the store itself refused: "
        "write_failed (a constraint of its schema), title_in_use, session_kind_locked (a newer agent's "
        "session with messages changing kind)"
    )
    detail: str


class SyncResultOut(BaseModel):
    """What one batch did."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.SYNC_RESULT]})

    home: str
    sessions_inserted: int = Field(description="sessions new here")
    sessions_updated: int = Field(description="sessions synced before whose row was overwritten")
    sessions_new: list[str] = Field(
        description="ids of the sessions new here (one the home synced before was deleted or pruned here)"
    )
    sessions_conflicting: list[str] = Field(
        description="ids held here by a session created locally or synced from another home: left alone, "
        "and their messages are counted as orphaned"
    )
    titles_changed: list[str] = Field(
        description="sessions whose title another session here holds: stored as `title [home]` (or "
        "untitled when that is taken too)"
    )
    parents_linked: int = Field(description="parent links made (a parent may arrive after its child)")
    messages_inserted: int = Field(
        description="messages stored, with new ids here in the batch's order (consecutive on SQLite)"
    )
    messages_skipped: int = Field(description="messages of this home already stored (a repeat or a resume)")
    messages_orphaned: int = Field(description="messages whose session is not a stored session of this home")
    first_message_id: int | None = Field(description="the id here of the first message stored (the lowest)")
    refused: list[SyncRefusedOut] = Field(description="rows set aside, each with the rule it broke")
