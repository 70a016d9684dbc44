"""How the page writes times: relative for the eye, UTC in full for ``datetime`` attributes and titles."""

from __future__ import annotations

import math
import time

_UNITS = ((86400 * 365, "y"), (86400 * 30, "mo"), (86400 * 7, "w"), (86400, "d"), (3600, "h"), (60, "m"))


def relative_time(ts: float | None, now: float | None = None) -> str:
    """``5m ago``, ``3d ago``; ``just now`` under a minute."""
    if ts is None:
        return ""
    seconds = (time.time() if now is None else now) - ts
    if seconds < 60:
        return "just now"
    for size, unit in _UNITS:
        if seconds >= size:
            return f"{math.floor(seconds / size)}{unit} ago"
    return "just now"


def utc_time(ts: float | None) -> str:
    """An ISO date and time in UTC, for ``datetime`` attributes and titles."""
    if ts is None:
        return ""
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(ts))
