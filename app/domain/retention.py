"""Pure retention rules: when auto-prune is due, where the age cutoff lies, when VACUUM is worth it."""

from __future__ import annotations

DAY_S = 86400.0
HOUR_S = 3600.0


def parse_marker(raw: str | None) -> float | None:
    """The agent's ``last_auto_prune`` marker as epoch seconds; garbage counts as "never ran" (agent rule)."""
    if not raw:
        return None
    try:
        value = float(raw)
    except ValueError:
        return None
    return value if value == value and value not in (float("inf"), float("-inf")) else None


def is_due(last_run: float | None, now: float, min_interval_hours: float) -> bool:
    """A run is due when none is recorded or the last one is at least ``min_interval_hours`` old."""
    return last_run is None or now - last_run >= min_interval_hours * HOUR_S


def next_due(last_run: float | None, now: float, min_interval_hours: float) -> float:
    """When the next run becomes due (``now`` if it already is)."""
    if last_run is None:
        return now
    return max(now, last_run + min_interval_hours * HOUR_S)


def cutoff(now: float, older_than_days: float) -> float:
    """Sessions started before this instant are old enough to prune."""
    return now - older_than_days * DAY_S


def vacuum_worth_it(pruned: int, freelist_pages: int, page_count: int, min_free_ratio: float) -> bool:
    """VACUUM only after something was pruned and when enough of the file is free pages."""
    if pruned <= 0 or page_count <= 0:
        return False
    return freelist_pages / page_count >= min_free_ratio
