"""What services hand to storage to write: one description per record, whichever backend stores it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.domain.sources import Source


@dataclass(frozen=True)
class NewSession:
    """What a client may set when creating a session (and what a continuation or a branch inherits)."""

    source: str = Source.api_server.value
    id: str | None = None
    title: str | None = None
    system_prompt: str | None = None
    model: str | None = None
    model_config: dict[str, Any] | None = None
    user_id: str | None = None
    parent_session_id: str | None = None
    session_key: str | None = None
    chat_id: str | None = None
    chat_type: str | None = None
    thread_id: str | None = None
    cwd: str | None = None
    git_branch: str | None = None
    git_repo_root: str | None = None
    profile_name: str | None = None


WORKSPACE_FIELDS = ("cwd", "git_branch", "git_repo_root", "profile_name")
"""The agent's columns saying where a session was worked on: a client sets them on create and PATCH."""


@dataclass(frozen=True, slots=True)
class ChatPeer:
    """The chat a gateway session belongs to: its platform, session key and origin columns."""

    source: str
    session_key: str
    user_id: str | None = None
    chat_id: str | None = None
    chat_type: str | None = None
    thread_id: str | None = None


@dataclass(frozen=True, slots=True)
class NewAttachment:
    """An uploaded file's row: content-addressed (``sha256``), stored at ``path`` under the home."""

    attachment_id: str
    sha256: str
    size: int
    media_type: str
    filename: str | None
    path: str
    extracted_text: str | None
    created_at: float
