"""Request and response models of handoff (moving a live session to a messaging platform)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.api.schemas import examples as ex
from app.api.schemas.common import RequestModel, SafeJSON, SafeText
from app.api.schemas.platforms import HomeChannel

HandoffStateName = Literal["pending", "running", "completed", "failed"]


class HandoffRequest(RequestModel):
    """``POST /handoff``."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.HANDOFF_REQUEST]})

    session_id: SafeText = Field(min_length=1, max_length=256)
    platform: SafeText = Field(min_length=1, max_length=64)
    busy: bool = Field(
        default=False,
        description="The requesting agent is mid-turn: refuse with 409 agent_busy (the server cannot know)",
    )


class HandoffClaim(RequestModel):
    """``POST /handoff/claim``: a gateway asks for the next pending handoff."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.HANDOFF_CLAIM]})

    platform: SafeText | None = Field(
        default=None, max_length=64, description="Only handoffs to this platform; null: any platform"
    )
    worker: SafeText | None = Field(default=None, max_length=256, description="Who claims (recorded)")


class HandoffComplete(RequestModel):
    """``POST /handoff/{id}/complete``: where the session now lives."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.HANDOFF_COMPLETE]})

    thread: dict[str, SafeJSON] | None = Field(
        default=None,
        description="The destination, e.g. {chat_id, thread_id, name, url}; null: the home channel itself",
    )


class HandoffFail(RequestModel):
    """``POST /handoff/{id}/fail``."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.HANDOFF_FAIL]})

    error: SafeText = Field(min_length=1, max_length=100_000, description="Kept to its first 500 characters")
    only_states: list[Literal["pending", "running"]] | None = Field(
        default=None,
        description="Fail only from these states (default both); else 409 handoff_state_changed",
    )


class HandoffPublic(BaseModel):
    """A session's handoff."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.HANDOFF]})

    session_id: str
    title: str | None
    state: HandoffStateName | None = Field(description="null: no handoff was ever requested")
    platform: str | None
    error: str | None = Field(description="Why it failed (≤ 500 characters)")
    thread: dict[str, Any] | None = Field(description="Where a completed session now lives")
    worker: str | None = Field(description="The gateway worker that claimed it")
    requested_at: float | None
    updated_at: float | None


class HandoffQueued(HandoffPublic):
    """The answer to ``POST /handoff`` (202): the pending handoff and the destination's home channel."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.HANDOFF_QUEUED]})

    home_channel: HomeChannel


class HandoffClaimed(HandoffPublic):
    """A claimed handoff (now running) with what the gateway needs to deliver it."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.HANDOFF_CLAIMED]})

    home_channel: HomeChannel | None
    threads: bool
