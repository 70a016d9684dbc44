"""Gateway platform settings."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Response

from app.api.deps import DB
from app.api.error_docs import JSON_BODY, READ, WRITE
from app.api.operations import api_router, operation
from app.api.responses import json_response
from app.api.schemas.platforms import PlatformList, PlatformPublic, PlatformUpdate
from app.errors import UnknownPlatform
from app.services import platforms as svc

router = api_router("handoff")


@router.get(
    "/platforms",
    **operation("platforms-list", "List messaging platforms and their settings", PlatformList, READ),
)
async def list_platforms(db: DB) -> Response:
    """Every known messaging platform with its settings (unconfigured ones: disabled, no home channel)."""
    items = await db.read(svc.list_platforms)
    return json_response({"items": items})


@router.put(
    "/platforms/{platform}",
    **operation(
        "platforms-put",
        "Set a platform's handoff settings",
        PlatformPublic,
        WRITE,
        JSON_BODY,
        UnknownPlatform,
    ),
)
async def put_platform(
    db: DB,
    platform: Annotated[str, Path(description="A messaging platform name as `GET /platforms` lists it")],
    body: PlatformUpdate,
) -> Response:
    """Replace a platform's settings: ``enabled``, ``home_channel`` (what ``/sethome`` writes) and
    ``threads``. 422 ``unknown_platform`` (the body lists the valid ones)."""
    home = None if body.home_channel is None else body.home_channel.model_dump()
    enabled, threads = body.enabled, body.threads
    public = await db.write(
        lambda tx: svc.put_platform(tx, platform, enabled=enabled, home_channel=home, threads=threads)
    )
    return json_response(public)
