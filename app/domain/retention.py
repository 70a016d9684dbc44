"""Pure retention rules: when auto-prune is due, where the age cutoff lies, when VACUUM is worth it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

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


@dataclass(frozen=True)
class PruneFilter:
    """Which ended sessions a prune takes, as the agent's ``_prune_filter_where`` (all criteria AND).

    ``started_before``: epoch cutoff on ``started_at`` (``None``: any age). ``title``, ``model`` and
    ``branch`` are case-insensitive substrings; ``provider`` is case-insensitive exact (``billing_provider``);
    ``source`` and ``end_reason`` are exact; ``min_messages`` / ``max_messages`` bound ``message_count``;
    ``archived`` is the agent's tri-state (``None``: both, ``False``: not archived, ``True``: only archived).
    """

    started_before: float | None = None
    source: str | None = None
    title: str | None = None
    model: str | None = None
    provider: str | None = None
    branch: str | None = None
    end_reason: str | None = None
    min_messages: int | None = None
    max_messages: int | None = None
    archived: bool | None = None

    def has_criteria(self) -> bool:
        """True when any of the newer filters is set (they lift the implicit age limit, agent PR #59415)."""
        return any(
            v is not None
            for v in (
                self.title,
                self.model,
                self.provider,
                self.branch,
                self.end_reason,
                self.min_messages,
                self.max_messages,
            )
        )


_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([mhdw]?)\s*$", re.IGNORECASE)
_UNIT_S = {"m": 60.0, "h": HOUR_S, "d": DAY_S, "w": 7 * DAY_S, "": DAY_S}


def parse_older_than(text: str, now: float) -> float:
    """The ``started_at`` cutoff for the agent's ``--older-than``: ``30m``, ``5h``, ``2d``, ``1w``, a bare
    number of days, or an ISO date / date-time (a date means its midnight UTC; a time without zone is UTC).

    Raises ``ValueError`` with a message fit for the user on anything else.
    """
    match = _DURATION.match(text)
    if match:
        return now - float(match.group(1)) * _UNIT_S[match.group(2).lower()]
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(
            f"older_than {text!r} is not a duration (30m, 5h, 2d, 1w, or days) nor an ISO date"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


DEFAULT_PRUNE_DAYS = 90.0


def prune_cutoff(
    now: float, *, older_than_days: float | None, older_than: str | None, has_criteria: bool
) -> float | None:
    """The ``started_at`` cutoff of a prune request (``None``: any age).

    An explicit age wins; without one the agent's 90 days apply, unless a filter such as ``title`` or
    ``model`` is given: then the filters alone decide, at any age (agent PR #59415).
    """
    if older_than is not None:
        return parse_older_than(older_than, now)
    if older_than_days is not None:
        return cutoff(now, older_than_days)
    return None if has_criteria else cutoff(now, DEFAULT_PRUNE_DAYS)
