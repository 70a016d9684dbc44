"""Request and response models of the sessions resource."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.api.schemas import examples as ex
from app.api.schemas.common import RequestModel, RuledCount, SafeJSON, SafeText, Title, model_examples
from app.api.schemas.filters import SessionFilterFields
from app.api.schemas.row_models import from_row
from app.domain.sources import Source
from app.storage.rows import SessionRow, Usage


class Handoff(BaseModel):
    """Where a live CLI session is being handed off to."""

    state: str = Field(description="pending, running, completed or failed")
    platform: str | None
    error: str | None


@from_row(SessionRow)
class SessionPublic(BaseModel):
    """A session as the API shows it (``system_prompt`` only with ``include=system_prompt``)."""

    model_config = ConfigDict(
        populate_by_name=True, protected_namespaces=(), json_schema_extra=model_examples(ex.SESSION)
    )

    title_source: Literal["user", "auto"] | None = Field(
        default=None, description="Who set the title: a person, the automatic titler, or unknown/none"
    )
    model_config_: dict[str, Any] | None = Field(
        alias="model_config",
        description="Provider settings snapshot; the unrenderable marker (see Message.tool_calls) when the "
        "stored value cannot be rendered",
    )
    lineage_root_id: str = Field(description="First session of the compression lineage")
    last_active: float = Field(description="Newest message time, else started_at")
    preview: str = Field(description="First user message, newlines folded, 60 chars + '...'")
    pinned: bool = Field(
        default=False, description="Kept from prune, auto-prune and archive (PUT/DELETE /sessions/{id}/pin)"
    )
    home: str | None = Field(
        default=None,
        description="The home `hermes sessions sync` brought the session from (its label); null for a "
        "session created here",
    )
    cwd: str | None = Field(default=None, description="Working directory the agent ran in (workspace)")
    git_branch: str | None = Field(default=None, description="Git branch of the workspace")
    git_repo_root: str | None = Field(
        default=None, description="Git repository root (the workspace key when set, else cwd)"
    )
    profile_name: str | None = Field(default=None, description="The agent profile the session ran under")
    handoff: Handoff | None
    system_prompt: str | None = Field(default=None, description="Only with include=system_prompt")


class SessionPage(BaseModel):
    """One page of sessions."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.SESSION_PAGE]})

    items: list[SessionPublic]
    next_cursor: str | None
    has_more: bool


MAX_LIST_LIMIT = 200
MAX_SEARCH_LENGTH = 200


class SessionListQuery(SessionFilterFields):
    """``GET /sessions``: the filter set, then the listing's own parameters (unknown parameters are
    ignored, as on every GET)."""

    limit: int = Field(default=20, ge=1, le=MAX_LIST_LIMIT, description="Page size 1-200")
    cursor: str | None = Field(default=None, description="next_cursor of the previous page")
    source: list[str] | None = Field(default=None, description="Only these sources (repeatable)")
    exclude_source: list[str] | None = Field(
        default=None, description="Hide these sources (repeatable; default tool, subagent)"
    )
    status: Literal["active", "ended", "all"] = Field(
        default="all", description="active: not ended; ended: ended (any end_reason); all: both"
    )
    include_children: bool = Field(
        default=False, description="Show compression and delegate children instead of folding lineages"
    )
    include_archived: bool = Field(default=False, description="Also list archived sessions")
    order: Literal["started", "last_active"] = Field(
        default="started",
        description="Newest first by start time, or by last activity (newest message, else start)",
    )
    q: SafeText | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_SEARCH_LENGTH,
        description=(
            "Only sessions whose id, title or preview contains this text (1-200 characters; ASCII "
            "letters match either case; % and _ are literal). A compression lineage matches by its tip."
        ),
    )


class SessionCreate(RequestModel):
    """Body of ``POST /sessions``."""

    model_config = ConfigDict(protected_namespaces=(), json_schema_extra={"examples": [ex.SESSION_CREATE]})

    id: SafeText | None = Field(default=None, description="Client-chosen id (≤ 256 chars, no '/', '..')")
    source: SafeText = Field(
        default="api_server",
        description="Platform; unknown values are 422 unknown_source",
        json_schema_extra={"enum": [s.value for s in Source]},
    )
    title: Title | None = None
    system_prompt: SafeText | None = None
    model: SafeText | None = None
    model_config_: dict[str, SafeJSON] | None = Field(default=None, alias="model_config")
    user_id: SafeText | None = None
    parent_session_id: SafeText | None = None
    session_key: SafeText | None = None
    chat_id: SafeText | None = None
    chat_type: SafeText | None = None
    thread_id: SafeText | None = None
    cwd: SafeText | None = Field(default=None, description="The working directory the session runs in")
    git_branch: SafeText | None = Field(default=None, description="The git branch checked out there")
    git_repo_root: SafeText | None = Field(default=None, description="The git repository's root directory")
    profile_name: SafeText | None = Field(default=None, description="The agent profile the session uses")


class SessionUpdate(RequestModel):
    """Body of ``PATCH /sessions/{id}``; only the members present are changed."""

    model_config = ConfigDict(protected_namespaces=(), json_schema_extra={"examples": [ex.SESSION_UPDATE]})

    title: Title | None = Field(default=None, description="null clears the title")
    archived: bool | None = None
    model: SafeText | None = None
    model_config_: dict[str, SafeJSON] | None = Field(default=None, alias="model_config")
    end_reason: SafeText | None = Field(default=None, description="Ends the session; the first end wins")
    cwd: SafeText | None = Field(default=None, description="The working directory; null clears it")
    git_branch: SafeText | None = Field(default=None, description="The git branch; null clears it")
    git_repo_root: SafeText | None = Field(default=None, description="The repository root; null clears it")
    profile_name: SafeText | None = Field(default=None, description="The agent profile; null clears it")


class SessionEnd(RequestModel):
    """Body of ``POST /sessions/{id}/end``."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.SESSION_END]})

    end_reason: SafeText = Field(min_length=1, max_length=200)


# Sums of many such costs stay finite, where 1e308 + 1e308 would be infinity.
MAX_COST_USD = 1e12


class UsageMode(StrEnum):
    """How usage counters apply."""

    increment = "increment"
    absolute = "absolute"


@from_row(Usage, omit={"absolute"}, ruled={int: RuledCount, str: SafeText})
class UsageUpdate(RequestModel):
    """Body of ``POST /sessions/{id}/usage`` (the agent's ``update_token_counts``)."""

    model_config = ConfigDict(protected_namespaces=(), json_schema_extra={"examples": [ex.USAGE_UPDATE]})

    # Not strict: a JSON string names the enum member (strict wants the member itself).
    mode: UsageMode = Field(default=UsageMode.increment, strict=False)
    estimated_cost_usd: float | None = Field(
        default=None, ge=0, le=MAX_COST_USD, allow_inf_nan=False, description="USD, at most 10^12"
    )
    actual_cost_usd: float | None = Field(
        default=None, ge=0, le=MAX_COST_USD, allow_inf_nan=False, description="USD, at most 10^12"
    )
    model: SafeText | None = Field(default=None, description="Recorded only when the session has none")
