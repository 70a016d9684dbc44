"""Payloads of the Server-Sent Events (documentation: the stream sends them as ``data:`` JSON)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel


class MessageCreated(BaseModel):
    """``message.created``: one per appended message (fetch it by id for the content)."""

    session_id: str
    message_id: int
    role: Literal["system", "user", "assistant", "tool"]


class SessionUpdated(BaseModel):
    """``session.updated``: the named fields changed (patch, rename, reopen)."""

    session_id: str
    fields: list[str]


class SessionEnded(BaseModel):
    """``session.ended``: the session ended now."""

    session_id: str
    end_reason: str


class HandoffUpdated(BaseModel):
    """``handoff.updated``: the handoff moved to ``state``."""

    session_id: str
    state: str | None
    platform: str | None
    error: str | None
    thread: dict[str, Any] | None


class SessionExpiring(BaseModel):
    """``session.expiring``: the reset policy expired this gateway session; it will be finalised
    (ended ``session_reset``) shortly unless a message arrives first. Save memories and skills now."""

    session_id: str
    session_key: str
