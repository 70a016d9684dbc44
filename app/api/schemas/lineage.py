"""Request and response models of the lineage operations: resolve, lineage, continuations, fork, recap."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.api.schemas import examples as ex
from app.api.schemas.common import RequestModel, SafeText
from app.api.schemas.messages import MAX_BATCH, MAX_MESSAGE_ID, MessageCreate
from app.api.schemas.sessions import SessionPublic
from app.services.lineage import MatchedBy


class ResolvedSession(SessionPublic):
    """The session a reference resolved to (after following the compression chain to its tip)."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.RESOLVED_SESSION]})

    matched_by: MatchedBy = Field(
        description="id: exact id; prefix: unique id prefix; title: title (newest 'title #N'); "
        "latest: most recently active session of the requested sources"
    )
    requested: str = Field(
        description="The session the reference matched, before following compression continuations to "
        "the tip (equal to id when nothing continues it)"
    )


class SessionLineage(BaseModel):
    """The compression chain containing a session, root first, tip last."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.SESSION_LINEAGE]})

    items: list[SessionPublic]


class ContinuationCreate(RequestModel):
    """Body of ``POST /sessions/{id}/continuations`` (all optional)."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.CONTINUATION_CREATE]})

    system_prompt: SafeText | None = Field(default=None, description="System prompt of the continuation")
    messages: list[MessageCreate] = Field(
        default_factory=list,
        max_length=MAX_BATCH,
        description="The compressed conversation to start from (summary + tail), at most 1000, each "
        "as in POST /sessions/{id}/messages",
    )

    def message_dicts(self) -> list[dict[str, Any]]:
        """The messages as plain mappings for the storage layer."""
        return [m.model_dump() for m in self.messages]


class ForkCreate(RequestModel):
    """Body of ``POST /sessions/{id}/fork`` (all optional)."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.FORK_CREATE]})

    id: SafeText | None = Field(
        default=None, description="Client-chosen id of the branch (≤ 256 chars, no '/', '..'); default: new"
    )
    message_id: int | None = Field(
        default=None,
        ge=1,
        le=MAX_MESSAGE_ID,
        description="Copy the active messages up to and including this one",
    )
    title: SafeText | None = Field(
        default=None, description="Title of the branch; default: the next 'base #N' of the parent's title"
    )


class RecapEntryPublic(BaseModel):
    """One recap line."""

    role: Literal["user", "assistant"]
    text: str


class RecapPublic(BaseModel):
    """The resume recap: the last entries and how many earlier ones were left out."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.RECAP]})

    entries: list[RecapEntryPublic]
    omitted: int = Field(description="Entries before the shown ones ('... n earlier messages ...')")
