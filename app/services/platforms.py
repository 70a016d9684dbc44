"""Gateway platform settings: which platforms accept handoffs and where their home channel is."""

from __future__ import annotations

import time
from typing import Any

from app.domain.handoff import KNOWN_PLATFORMS, is_known_platform
from app.errors import UnknownPlatform
from app.storage.protocols import Tx


def check_platform(platform: str) -> str:
    """``platform`` if known, else 422 ``unknown_platform`` listing the valid ones."""
    if not is_known_platform(platform):
        raise UnknownPlatform(platform, KNOWN_PLATFORMS)
    return platform


def unconfigured(platform: str) -> dict[str, Any]:
    """A platform nobody configured: disabled, no home channel, no threads."""
    return {
        "platform": platform,
        "enabled": False,
        "home_channel": None,
        "threads": False,
        "updated_at": None,
    }


def list_platforms(tx: Tx) -> list[dict[str, Any]]:
    """Every known platform, configured or not (unconfigured ones are disabled with no home channel)."""
    stored = tx.platforms.fetch_all()
    return [stored.get(name) or unconfigured(name) for name in KNOWN_PLATFORMS]


def get_platform(tx: Tx, platform: str) -> dict[str, Any]:
    """One known platform's settings (422 ``unknown_platform`` otherwise)."""
    check_platform(platform)
    return tx.platforms.fetch(platform) or unconfigured(platform)


def put_platform(
    tx: Tx,
    platform: str,
    *,
    enabled: bool,
    home_channel: dict[str, str] | None,
    threads: bool,
) -> dict[str, Any]:
    """Replace a platform's settings and return them."""
    check_platform(platform)
    tx.platforms.upsert(
        platform, enabled=enabled, home_channel=home_channel, threads=threads, now=time.time()
    )
    return get_platform(tx, platform)
