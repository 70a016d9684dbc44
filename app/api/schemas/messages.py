"""Request and response bodies of the messages and attachments endpoints."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Discriminator, Field, Tag

from app.api.schemas import examples as ex
from app.api.schemas.common import (
    RequestModel,
    RuledCount,
    RuledTimestamp,
    SafeJSON,
    SafeText,
    check_text_tree,
)
from app.api.schemas.row_models import from_row
from app.domain.json_policy import INT64_MAX
from app.storage import rows

Role = Literal["system", "user", "assistant", "tool"]

MAX_BATCH = 1000
MAX_MESSAGE_ID = INT64_MAX


Content = Annotated[
    str | list[Any] | dict[str, Any] | None,
    # One walk over the whole value, so a bad character gives a single ``invalid_text`` error instead of
    # one per union member.
    AfterValidator(check_text_tree),
    Field(description="Text, or multimodal parts (a list/object stored with the agent's JSON encoding)"),
]


class MessageCreate(RequestModel):
    """One message to append."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.MESSAGE_CREATE]})

    role: Role
    content: Content = None
    tool_call_id: SafeText | None = None
    tool_calls: list[dict[str, SafeJSON]] | None = Field(
        default=None, description="OpenAI-style tool calls; counted into tool_call_count on assistant rows"
    )
    tool_name: SafeText | None = None
    timestamp: RuledTimestamp | None = Field(
        default=None,
        description="Epoch seconds within 0 .. 253402300799 (year 9999); default now (strictly increasing)",
    )
    token_count: RuledCount | None = None
    finish_reason: SafeText | None = None
    reasoning: SafeText | None = Field(default=None, description="Assistant only; empty is not stored")
    reasoning_content: SafeText | None = Field(
        default=None, description="Assistant only; empty is not stored"
    )
    reasoning_details: SafeJSON = Field(default=None, description="Assistant only; any JSON")
    attachments: list[SafeText] | None = Field(
        default=None, max_length=100, description="Ids of uploaded attachments to reference"
    )


class MessageBatch(RequestModel):
    """Several messages appended in one transaction (all or nothing)."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.MESSAGE_BATCH]})

    messages: list[MessageCreate] = Field(min_length=1, max_length=MAX_BATCH)


def _shape(value: Any) -> str:
    if isinstance(value, dict) and "messages" in value:
        return "batch"
    if isinstance(value, MessageBatch):
        return "batch"
    return "message"


AppendBody = Annotated[
    Annotated[MessageCreate, Tag("message")] | Annotated[MessageBatch, Tag("batch")],
    Discriminator(_shape),
]


def appended_messages(body: MessageCreate | MessageBatch) -> list[dict[str, Any]]:
    """The messages of an append body as plain mappings for the use case."""
    batch = body.messages if isinstance(body, MessageBatch) else [body]
    return [m.model_dump(exclude_none=True) for m in batch]


@from_row(rows.AttachmentRef)
class AttachmentRef(BaseModel):
    """An attachment referenced by a message."""


class UnrenderableDetail(BaseModel):
    """Why a stored value is not rendered, and the stored text itself."""

    reason: Literal["nesting_too_deep", "integer_out_of_range", "invalid_unicode"]
    raw: str = Field(description="The stored JSON text, unchanged")


class Unrenderable(BaseModel):
    """Stands in for a stored value (written by another writer) that JSON responses cannot carry: nested
    deeper than 200 levels, an integer beyond 64 bits, or text that decodes to a lone surrogate."""

    unrenderable: UnrenderableDetail


_UNRENDERABLE_NOTE = "; the unrenderable marker when the stored value cannot be rendered"


@from_row(rows.MessageRow)
class MessagePublic(BaseModel):
    """A stored message."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.MESSAGE]})

    content: Any = Field(description="Text, multimodal parts, or null" + _UNRENDERABLE_NOTE)
    tool_calls: list[Any] | Unrenderable | None = Field(description="Tool calls" + _UNRENDERABLE_NOTE)
    reasoning_details: Any = Field(default=None, description="Any JSON" + _UNRENDERABLE_NOTE)
    attachments: list[AttachmentRef]
    active: bool = Field(description="False once rewound or compacted away")
    compacted: bool = Field(description="True when archived by in-place compaction (still searchable)")


class MessageItems(BaseModel):
    """The messages an append stored, in order, with their ids."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.MESSAGE_ITEMS]})

    items: list[MessagePublic]


class MessagePage(BaseModel):
    """A page of messages in id order."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.MESSAGE_PAGE]})

    items: list[MessagePublic]
    next_cursor: str | None
    has_more: bool
    anchor_id: int | None = Field(default=None, description="With around: the anchor message id")
    messages_before: int | None = Field(default=None, description="With around: neighbours returned before")
    messages_after: int | None = Field(default=None, description="With around: neighbours returned after")


class RewindRequest(RequestModel):
    """Which user message to rewind to."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.REWIND_REQUEST]})

    message_id: int = Field(ge=1, le=MAX_MESSAGE_ID)


class RewindResult(BaseModel):
    """The outcome of a rewind."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.REWIND_RESULT]})

    session_id: str
    rewound_count: int = Field(description="Messages newly made inactive (0 when already rewound)")
    new_head_id: int | None = Field(description="Last message still active, or null")
    rewind_count: int = Field(description="The session's rewind counter after this rewind")
    message_count: int = Field(description="Unchanged by a rewind, as in the agent")
    target_message: MessagePublic = Field(description="The rewound user message (to pre-fill a prompt)")


class AttachmentPublic(BaseModel):
    """A stored attachment."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.ATTACHMENT]})

    id: str
    path: str = Field(description="Relative to HERMES_HOME: attachments/<sha[:2]>/<sha>")
    sha256: str
    size: int
    media_type: str
    filename: str | None
    extracted_text: str | None = Field(default=None, description="Only for text/* and application/json")
