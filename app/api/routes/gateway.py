"""Gateway routing endpoints (docs/gateway-routing.md): which session a platform message belongs to,
``/new``, ``/resume``, ``/stop``, the routing index and the reset policy."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import Path, Query, Request, Response

from app.api.deps import GatewayService
from app.api.error_docs import AUTH, EDGE, JSON_BODY, READ, WRITE, ErrorGroup, Errors
from app.api.operations import Responses, api_router, operation
from app.api.pagination import NEXT_LINK_OK, decode_cursor, encode_cursor, set_next_link
from app.api.responses import json_response
from app.api.schemas import examples as ex
from app.api.schemas.common import SafeText
from app.api.schemas.gateway import (
    GatewayConfigPublic,
    GatewayConfigUpdate,
    RouteCommandResult,
    RouteKey,
    RouteMessage,
    RoutePage,
    RouteReset,
    RouteResponse,
    RouteSwitch,
    RouteTurn,
)
from app.domain.gateway_keys import MessageSource
from app.errors import (
    AmbiguousSessionRef,
    ConfigUnreadable,
    InvalidChatType,
    InvalidCursor,
    InvalidText,
    InvalidValue,
    RouteNotFound,
    SessionNotFound,
    UnknownPlatform,
)
from app.services import gateway as svc
from app.services.gateway_config import config_public

router = api_router("gateway")

MAX_ROUTES_LIMIT = 500
_CURSOR_KIND = "gateway-routes"

_NO_ROUTE: Errors = (RouteNotFound,)
# The configuration lives in config.yaml and gateway.json, not in state.db: no database codes (503, 507).
_CONFIG: Errors = (*AUTH, *EDGE, InvalidValue)

SessionKey = Annotated[
    str,
    Path(
        description="A routing key exactly as `POST /gateway/route` answers it "
        "(e.g. `agent:main:telegram:dm:123456789`)"
    ),
]


def _entry_operation(
    name: str, summary: str, example: dict[str, object], *errors: ErrorGroup
) -> dict[str, Any]:
    """The decorator keywords of a route answering a routing entry (free-form, as sessions.json stores it):
    200 with its example, and the errors."""
    ok: Responses = {200: {"content": {"application/json": {"example": example}}}}
    return operation(name, summary, dict[str, object], *errors, ok=ok)


@router.post(
    "/gateway/route",
    **operation(
        "gateway-route",
        "Route an incoming message to its session",
        RouteResponse,
        WRITE,
        JSON_BODY,
        UnknownPlatform,
        InvalidChatType,
    ),
)
async def route_message(gateway: GatewayService, body: RouteMessage) -> Response:
    """Which session this message belongs to, exactly as the agent's gateway decides: the session key,
    a reset by policy (idle, daily, both; never while a reported background process is younger than
    ``bg_process_max_age_hours``), ``suspended`` and ``resume_pending`` handling, a lost entry recovered,
    or a new session (``YYYYMMDD_HHMMSS_<8 hex>``, source = platform, the chat columns). ``notice`` is the
    agent's reset notice when it would send one. Every call counts as activity. 422 ``unknown_platform``,
    ``invalid_chat_type``."""
    source = MessageSource(
        platform=body.platform,
        chat_type=body.chat_type,
        chat_id=body.chat_id,
        chat_name=body.chat_name,
        user_id=body.user_id,
        user_name=body.user_name,
        user_id_alt=body.user_id_alt,
        thread_id=body.thread_id,
        chat_topic=body.chat_topic,
        profile=body.profile,
    )
    processes = (
        None
        if body.background_processes is None
        else [float(p.started_at) for p in body.background_processes]
    )
    result = await gateway.route(
        source,
        group_per_user=body.group_sessions_per_user,
        thread_per_user=body.thread_sessions_per_user,
        profile=body.profile,
        background_processes=processes,
    )
    return json_response(result)


@router.post(
    "/gateway/route/reset",
    **operation(
        "gateway-route-reset",
        "Start a new session on a chat (/new)",
        RouteCommandResult,
        WRITE,
        JSON_BODY,
        _NO_ROUTE,
    ),
)
async def reset_route(gateway: GatewayService, body: RouteReset) -> Response:
    """``/new [title]``: the chat gets a fresh session (the old one is ended ``session_reset``); ``reply``
    is the agent's text. 404 ``route_not_found``."""
    return json_response(await gateway.reset(body.session_key, body.title))


@router.post(
    "/gateway/route/switch",
    **operation(
        "gateway-route-switch",
        "Point a chat at an existing session (/resume)",
        RouteCommandResult,
        WRITE,
        JSON_BODY,
        RouteNotFound,
        SessionNotFound,
        AmbiguousSessionRef,
    ),
)
async def switch_route(gateway: GatewayService, body: RouteSwitch) -> Response:
    """``/resume <ref>``: the chat now points at that session (id, prefix or title, followed to its
    compression tip; reopened and re-peered); the one it leaves is ended ``session_switch``. 404
    ``route_not_found`` or ``session_not_found``, 409 ``ambiguous_session_ref`` with ``candidates``."""
    return json_response(await gateway.switch(body.session_key, body.ref))


@router.post(
    "/gateway/route/turn",
    **_entry_operation(
        "gateway-route-turn",
        "Record a finished turn on a chat",
        ex.ROUTE_TURN_ENTRY,
        WRITE,
        JSON_BODY,
        _NO_ROUTE,
    ),
)
async def record_turn(gateway: GatewayService, body: RouteTurn) -> Response:
    """After a turn (the agent's ``update_session``): counts as activity, stores ``last_prompt_tokens``
    (a later automatic reset shows its notice only if the chat had such activity) and re-peers the
    session row. Answers the entry. 404 ``route_not_found``."""
    return json_response(await gateway.turn(body.session_key, body.last_prompt_tokens))


@router.post(
    "/gateway/route/suspend",
    **_entry_operation(
        "gateway-route-suspend",
        "Suspend a chat's session (/stop)",
        ex.ROUTE_SUSPENDED_ENTRY,
        WRITE,
        JSON_BODY,
        _NO_ROUTE,
    ),
)
async def suspend_route(gateway: GatewayService, body: RouteKey) -> Response:
    """``/stop``: the next message on the chat starts a new session (``reset_reason: suspended``).
    Answers the entry. 404 ``route_not_found``."""
    return json_response(await gateway.suspend(body.session_key))


@router.get(
    "/gateway/routes",
    **operation(
        "gateway-routes-list",
        "List the routing index",
        RoutePage,
        READ,
        InvalidCursor,
        InvalidText,
        ok=NEXT_LINK_OK,
    ),
)
async def list_routes(
    request: Request,
    gateway: GatewayService,
    limit: Annotated[int, Query(ge=1, le=MAX_ROUTES_LIMIT, description="Page size 1-500")] = 100,
    cursor: Annotated[
        str | None, Query(max_length=8192, description="next_cursor of the previous page")
    ] = None,
    platform: Annotated[
        SafeText | None,
        Query(max_length=64, description="Only this platform's entries (e.g. `telegram`)"),
    ] = None,
    session_id: Annotated[
        SafeText | None, Query(max_length=256, description="Only the entries that route to this session id")
    ] = None,
) -> Response:
    """The routing index in key order (keyset-paginated), optionally one platform's or one session's."""
    after = None
    if cursor is not None:
        after = decode_cursor(_CURSOR_KIND, cursor).get("after")
        if not isinstance(after, str):
            raise InvalidCursor()
    items, last = await gateway.db.read(
        lambda tx: svc.list_routes(
            tx, gateway.scope, after=after, limit=limit, platform=platform, session_id=session_id
        )
    )
    next_cursor = None if last is None else encode_cursor(_CURSOR_KIND, {"after": last})
    result = json_response({"items": items, "next_cursor": next_cursor, "has_more": next_cursor is not None})
    set_next_link(request, result, next_cursor)
    return result


@router.get(
    "/gateway/routes/{session_key}",
    **_entry_operation("gateway-routes-get", "Get one routing entry", ex.ROUTE_ENTRY, READ, _NO_ROUTE),
)
async def get_route(gateway: GatewayService, session_key: SessionKey) -> Response:
    """One routing entry exactly as ``sessions.json`` stores it. 404 ``route_not_found``."""
    return json_response(await gateway.db.read(lambda tx: svc.get_route(tx, gateway.scope, session_key)))


@router.get(
    "/gateway/config",
    **operation(
        "gateway-config-get", "Get the gateway's reset policy and routing flags", GatewayConfigPublic, _CONFIG
    ),
)
async def get_config(gateway: GatewayService) -> Response:
    """The effective reset policy (default, per chat type, per platform) and routing flags, read as the
    agent reads them (config.yaml, legacy gateway.json, environment overrides, corrected values)."""
    return json_response(config_public(gateway.config()))


@router.put(
    "/gateway/config",
    **operation(
        "gateway-config-put",
        "Change the gateway's reset policy and routing flags",
        GatewayConfigPublic,
        _CONFIG,
        JSON_BODY,
        ConfigUnreadable,
        InvalidChatType,
        UnknownPlatform,
    ),
)
async def put_config(gateway: GatewayService, body: GatewayConfigUpdate) -> Response:
    """Change the reset policy and flags where the agent reads them: ``session_reset`` and the flags in
    config.yaml, the per-type and per-platform overrides in gateway.json. Members left out are kept.
    422 ``invalid_chat_type``, ``unknown_platform`` for an override key; 409 ``config_unreadable`` when the
    file to update exists but is not valid YAML/JSON (nothing is written)."""
    for chat_type in body.reset_by_type or {}:
        svc.check_chat_type(chat_type)
    for platform in body.reset_by_platform or {}:
        svc.check_platform(platform)
    update = body.model_dump(exclude_none=True)
    config = config_public(await asyncio.to_thread(gateway.put_config, update))
    return json_response(config)
