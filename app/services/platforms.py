"""Gateway platform settings: which platforms accept handoffs and where their home channel is."""

from __future__ import annotations

import sqlite3
import time
from typing import Any

from app.domain.handoff import KNOWN_PLATFORMS, is_known_platform
from app.errors import UnknownPlatform
from app.storage.repos import platforms as repo


def check_platform(platform: str) -> str:
    """``platform`` if known, else 422 ``unknown_platform`` listing the valid ones."""
    if not is_known_platform(platform):
        raise UnknownPlatform(platform, KNOWN_PLATFORMS)
    return platform


def list_platforms(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Every known platform, configured or not (unconfigured ones are disabled with no home channel)."""
    stored = repo.fetch_all(conn)
    return [stored.get(name) or repo.default(name) for name in KNOWN_PLATFORMS]


def get_platform(conn: sqlite3.Connection, platform: str) -> dict[str, Any]:
    """One known platform's settings (422 ``unknown_platform`` otherwise)."""
    check_platform(platform)
    return repo.fetch(conn, platform) or repo.default(platform)


def put_platform(
    conn: sqlite3.Connection,
    platform: str,
    *,
    enabled: bool,
    home_channel: dict[str, str] | None,
    threads: bool,
) -> dict[str, Any]:
    """Replace a platform's settings and return them."""
    check_platform(platform)
    repo.upsert(conn, platform, enabled=enabled, home_channel=home_channel, threads=threads, now=time.time())
    return get_platform(conn, platform)
