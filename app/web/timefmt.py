"""How the page writes times: UTC in full (the page's script shows them relative to the reader's clock)."""

from __future__ import annotations

import time


def utc_time(ts: float | None) -> str:
    """An ISO date and time in UTC, for ``datetime`` attributes and titles."""
    if ts is None:
        return ""
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(ts))
