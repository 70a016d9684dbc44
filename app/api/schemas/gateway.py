"""Request and response models of gateway routing (docs/gateway-routing.md)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt

from app.api.schemas import examples as ex
from app.api.schemas.common import RequestModel, SafeText
from app.api.schemas.handoff import HandoffPublic

MAX_ID = 512
MAX_NAME = 1024


class BackgroundProcess(RequestModel):
    """One live background process of the chat."""

    started_at: StrictFloat | StrictInt = Field(ge=0, le=1e11, description="Epoch seconds it started")


class RouteMessage(RequestModel):
    """``POST /gateway/route``: the message source (the agent's ``SessionSource``) and routing flags."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.ROUTE_MESSAGE]})

    platform: SafeText = Field(
        min_length=1, max_length=64, description="422 unknown_platform if not a gateway platform"
    )
    chat_type: SafeText = Field(
        default="dm", min_length=1, max_length=32, description="dm, group, channel or thread"
    )
    chat_id: SafeText = Field(default="", max_length=MAX_ID)
    chat_name: SafeText | None = Field(default=None, max_length=MAX_NAME)
    user_id: SafeText | None = Field(default=None, max_length=MAX_ID)
    user_name: SafeText | None = Field(default=None, max_length=MAX_NAME)
    user_id_alt: SafeText | None = Field(default=None, max_length=MAX_ID)
    thread_id: SafeText | None = Field(default=None, max_length=MAX_ID)
    chat_topic: SafeText | None = Field(default=None, max_length=4096)
    group_sessions_per_user: StrictBool | None = Field(default=None, description="Default: config.yaml")
    thread_sessions_per_user: StrictBool | None = Field(default=None, description="Default: config.yaml")
    profile: SafeText | None = Field(
        default=None,
        min_length=1,
        max_length=64,
        pattern=r"^[A-Za-z0-9_.-]+$",
        description="Key namespace agent:<profile> (default / none: agent:main)",
    )
    background_processes: list[BackgroundProcess] | None = Field(
        default=None,
        max_length=1000,
        description="The chat's live background processes (remembered until the next list)",
    )


class RouteResponse(BaseModel):
    """Where the message goes."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.ROUTE_RESPONSE]})

    session_key: str
    session_id: str
    created: bool
    reset_reason: str | None
    notice: str | None
    entry: dict[str, Any]


class RouteKey(RequestModel):
    """``POST /gateway/route/suspend``: a routed chat."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.ROUTE_KEY]})

    session_key: SafeText = Field(min_length=1, max_length=4096)


class RouteTurn(RouteKey):
    """``POST /gateway/route/turn``: a turn finished on the chat."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.ROUTE_TURN]})

    last_prompt_tokens: StrictInt | None = Field(
        default=None, ge=0, le=2**53, description="Prompt tokens the turn's last API call reported"
    )


class RouteReset(RouteKey):
    """``POST /gateway/route/reset``: ``/new [title]``."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.ROUTE_RESET]})

    title: SafeText | None = Field(default=None, max_length=1000)


class RouteSwitch(RouteKey):
    """``POST /gateway/route/switch``: ``/resume <ref>``."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.ROUTE_SWITCH]})

    ref: SafeText = Field(min_length=1, max_length=1000, description="Id, id prefix or title")


class RouteCommandResult(BaseModel):
    """The chat's new entry and the agent's reply text."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.ROUTE_RESET_RESULT, ex.ROUTE_SWITCH_RESULT]})

    session_key: str
    session_id: str
    previous_session_id: str
    reply: str
    entry: dict[str, Any]
    switched: bool | None = Field(
        default=None,
        description="/resume only: false when the chat already was on that session, or when the agent's "
        "ownership rule refused it (the reply says which)",
    )


class RoutePage(BaseModel):
    """A page of the routing index."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.ROUTE_PAGE]})

    items: list[dict[str, Any]]
    next_cursor: str | None
    has_more: bool


class Policy(RequestModel):
    """A reset policy (the agent's ``SessionResetPolicy``)."""

    mode: SafeText = Field(
        default="none", max_length=32, description="idle, daily, both or none (others never reset)"
    )
    at_hour: StrictInt = Field(default=4, ge=0, le=23)
    idle_minutes: StrictInt = Field(default=1440, ge=1, le=10_000_000)
    notify: StrictBool = True
    notify_exclude_platforms: list[Annotated[SafeText, Field(max_length=64)]] = Field(
        default=["api_server", "webhook"], max_length=100
    )
    bg_process_max_age_hours: StrictInt = Field(default=24, ge=0, le=1_000_000)


class GatewayConfigUpdate(RequestModel):
    """``PUT /gateway/config``: members left out are kept."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.GATEWAY_CONFIG_UPDATE]})

    session_reset: Policy | None = None
    reset_by_type: dict[Annotated[SafeText, Field(max_length=32)], Policy] | None = Field(
        default=None, max_length=4
    )
    reset_by_platform: dict[Annotated[SafeText, Field(max_length=64)], Policy] | None = Field(
        default=None, max_length=64
    )
    group_sessions_per_user: StrictBool | None = None
    thread_sessions_per_user: StrictBool | None = None
    write_sessions_json: StrictBool | None = None


class GatewayConfigPublic(BaseModel):
    """The effective routing configuration."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.GATEWAY_CONFIG]})

    session_reset: dict[str, Any]
    reset_by_type: dict[str, dict[str, Any]]
    reset_by_platform: dict[str, dict[str, Any]]
    group_sessions_per_user: bool
    thread_sessions_per_user: bool
    write_sessions_json: bool
    multiplex_profiles: bool


class HandoffCompleted(HandoffPublic):
    """``POST /handoff/{id}/complete``: the settled handoff and where the gateway now routes it."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.HANDOFF_COMPLETED]})

    session_key: str = Field(description="The destination chat's routing key, now pointing at the session")
    previous_session_id: str = Field(description="The session that chat held (ended session_switch)")
    synthetic_turn: str = Field(description="The internal message the gateway dispatches to the agent")
