"""The shapes storage hands up: plain dicts at run time (the hot paths build them positionally and the API
serialises them with orjson as they are), typed here so services and routes know their members.

The API's pydantic models (``app.api.schemas``) document the same shapes for OpenAPI; schemathesis
(``tests/api/test_schemathesis.py``) checks every response against them.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict


class HandoffState(TypedDict):
    """The agent's ``sessions.handoff_*`` columns of a session being handed off."""

    state: str
    platform: str | None
    error: str | None


class SessionRow(TypedDict):
    """A session as the API shows it (``app.storage.repos.sessions.row_to_public``)."""

    id: str
    title: str | None
    source: str
    user_id: str | None
    model: str | None
    model_config: dict[str, Any] | None
    parent_session_id: str | None
    started_at: float
    ended_at: float | None
    end_reason: str | None
    message_count: int
    tool_call_count: int
    input_tokens: int
    output_tokens: int
    cache_read_tokens: int
    cache_write_tokens: int
    reasoning_tokens: int
    estimated_cost_usd: float | None
    actual_cost_usd: float | None
    api_call_count: int
    archived: bool
    session_key: str | None
    chat_id: str | None
    chat_type: str | None
    thread_id: str | None
    cwd: str | None
    git_branch: str | None
    git_repo_root: str | None
    profile_name: str | None
    handoff: HandoffState | None
    has_system_prompt: bool
    preview: str
    last_active: float
    lineage_root_id: str
    title_source: str | None
    pinned: bool
    home: str | None
    """The label of the home ``hermes sessions sync`` brought the session from (``None``: created here)."""
    system_prompt: NotRequired[str | None]
    """Only when asked for (``include=system_prompt``): list queries never read the body."""


class AttachmentRef(TypedDict):
    """What a message shows of an attachment it references."""

    id: str
    media_type: str
    size: int
    sha256: str
    filename: str | None


class MessageRow(TypedDict):
    """A message as the API shows it (``app.storage.repos.messages.row_to_message``)."""

    id: int
    session_id: str
    role: str
    content: Any
    tool_call_id: str | None
    tool_calls: Any
    tool_name: str | None
    timestamp: float
    token_count: int | None
    finish_reason: str | None
    reasoning: str | None
    reasoning_content: str | None
    reasoning_details: Any
    attachments: list[AttachmentRef]
    active: bool
    compacted: bool


class SessionMetaRow(TypedDict):
    """The session columns search shows beside its hits (``app.storage.repos.search.session_meta``)."""

    id: str
    title: str | None
    source: str
    model: str | None
    started_at: float
    parent_session_id: str | None
