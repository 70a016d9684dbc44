"""The agent's shared session filter set (``hermes sessions list|prune|archive|export``) as pure rules.

One :class:`SessionFilter` describes which sessions a listing, a prune or an archive selects; storage turns
it into SQL once (``app.storage.repos.session_filter``). Time values follow the agent's
``hermes_cli.session_filters``: a duration (``30m``, ``5h``, ``2d``, ``1w``, long unit names too) means that
long ago, a bare number means days, anything else must be an ISO date or date-time. One deliberate
difference: the server cannot know the caller's time zone, so a naive ISO time it receives is UTC; the CLI
sends naive values with the user's local offset attached, which gives the agent's local-time reading.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, fields
from datetime import UTC, datetime

from app.domain.retention import DAY_S

DEFAULT_PRUNE_DAYS = 90.0

_DURATION = re.compile(
    r"^(\d+(?:\.\d+)?)\s*"
    r"(s|sec|secs|second|seconds|m|min|mins|minute|minutes|h|hr|hrs|hour|hours|d|day|days|w|wk|wks|week|weeks)$"
)
_BARE_DAYS = re.compile(r"\d+(?:\.\d+)?")
_UNIT_S = {"s": 1.0, "m": 60.0, "h": 3600.0, "d": DAY_S, "w": 7 * DAY_S}


class InvalidTimeValue(ValueError):
    """A time filter that is neither a duration nor an ISO timestamp (the agent's words)."""

    def __init__(self, label: str, value: str) -> None:
        super().__init__(
            f"Invalid value for {label}: '{value}'. Use a duration like '5h', '30m', '2d', '1w', a bare "
            "number of days, or an ISO timestamp like '2026-07-05' or '2026-07-05 14:30'."
        )


class EmptyTimeWindow(ValueError):
    """The lower bound (``after`` / ``newer_than``) is not earlier than the upper one."""

    def __init__(self, started_after: float, started_before: float) -> None:
        self.started_after = started_after
        self.started_before = started_before
        super().__init__(
            f"Empty time window: the after/newer_than bound ({_utc(started_after)}) is not earlier than "
            f"the before/older_than bound ({_utc(started_before)})."
        )


def _utc(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d %H:%M UTC")


def duration_seconds(text: str) -> float | None:
    """``5h`` / ``30m`` / ``2d`` / ``1w`` / ``90`` (bare: days) in seconds; ``None`` when not a duration."""
    value = text.strip().lower()
    if _BARE_DAYS.fullmatch(value):
        return float(value) * DAY_S
    match = _DURATION.match(value)
    return None if match is None else float(match.group(1)) * _UNIT_S[match.group(2)[0]]


def parse_point_in_time(text: str, now: float, label: str) -> float:
    """Epoch seconds of a time filter value: a duration ago, or an ISO timestamp (naive means UTC)."""
    seconds = duration_seconds(text)
    if seconds is not None:
        return now - seconds
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise InvalidTimeValue(label, text) from None
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp()


@dataclass(frozen=True)
class TimeBounds:
    """The four time filters as typed: ``older_than`` / ``before`` bound the start from above,
    ``newer_than`` / ``after`` from below."""

    older_than: str | None = None
    newer_than: str | None = None
    before: str | None = None
    after: str | None = None

    def given(self) -> bool:
        """Whether any time filter is set."""
        return any(getattr(self, f.name) is not None for f in fields(self))


def time_window(
    bounds: TimeBounds, now: float, label: Callable[[str], str] = str, *, upper: float | None = None
) -> tuple[float | None, float | None]:
    """``(started_before, started_after)``: the tighter of two values for the same side wins (``upper`` is
    one more upper bound), and an empty window is refused (the agent's ``build_prune_filters``). ``label``
    names a field in error messages."""

    def tighter(current: float | None, point: float | None, side_upper: bool) -> float | None:
        if point is None or current is None:
            return current if point is None else point
        return min(current, point) if side_upper else max(current, point)

    def point(name: str, value: str | None) -> float | None:
        return None if value is None else parse_point_in_time(value, now, label(name))

    before = tighter(point("older_than", bounds.older_than), point("before", bounds.before), True)
    before = tighter(before, upper, True)
    after = tighter(point("newer_than", bounds.newer_than), point("after", bounds.after), False)
    if before is not None and after is not None and after >= before:
        raise EmptyTimeWindow(after, before)
    return before, after


@dataclass(frozen=True)
class SessionFilter:
    """Which sessions to select; every criterion given must hold (AND), as the agent's
    ``_prune_filter_where`` (a string criterion that is empty is no criterion, as there).

    ``started_before`` / ``started_after``: epoch bounds on ``started_at`` (``<`` and ``>=``). ``title``,
    ``model`` and ``branch`` are case-insensitive substrings (ASCII case, as SQLite's LIKE); ``provider`` is
    the billing provider, case-insensitive exact; ``source``, ``end_reason``, ``user`` (``user_id``),
    ``chat_id`` and ``chat_type`` are exact; ``cwd`` is the working directory or anything under it. Tokens
    are ``input_tokens + output_tokens``, cost is the actual cost, else the estimate, else 0. ``archived`` is
    the agent's tri-state (``None``: both). Ours beyond the agent's set: ``workspace`` (a case-insensitive
    substring of the git repository root, else of the working directory: the agent's ``--workspace``) and
    ``profile`` (``profile_name``, exact), and ``home`` (the label of the home a synced session came from,
    exact).
    """

    started_before: float | None = None
    started_after: float | None = None
    source: str | None = None
    title: str | None = None
    end_reason: str | None = None
    cwd: str | None = None
    min_messages: int | None = None
    max_messages: int | None = None
    model: str | None = None
    provider: str | None = None
    user: str | None = None
    chat_id: str | None = None
    chat_type: str | None = None
    branch: str | None = None
    min_tokens: int | None = None
    max_tokens: int | None = None
    min_cost: float | None = None
    max_cost: float | None = None
    min_tool_calls: int | None = None
    max_tool_calls: int | None = None
    workspace: str | None = None
    profile: str | None = None
    home: str | None = None
    archived: bool | None = None

    def has_criteria(self) -> bool:
        """Whether a criterion other than time, ``source`` and ``archived`` is set: such a filter lifts a
        prune's implicit 90-day limit (the agent since PR #59415)."""
        return any(getattr(self, name) not in (None, "") for name in _CRITERIA)

    def is_empty(self) -> bool:
        """Whether nothing but ``archived`` is set: an archive refuses to take every ended session."""
        return not self.has_criteria() and all(
            getattr(self, name) in (None, "") for name in ("started_before", "started_after", "source")
        )


_CRITERIA = tuple(
    f.name
    for f in fields(SessionFilter)
    if f.name not in {"started_before", "started_after", "source", "archived"}
)


def prune_window(
    bounds: TimeBounds,
    now: float,
    *,
    older_than_days: float | None,
    has_criteria: bool,
    label: Callable[[str], str] = str,
) -> tuple[float | None, float | None]:
    """The ``started_at`` window of a prune: the time filters and ``older_than_days`` (the tighter upper
    bound wins); with neither, and no criterion beyond ``source``, the agent's 90 days."""
    upper = None if older_than_days is None else now - older_than_days * DAY_S
    if upper is None and not bounds.given() and not has_criteria:
        upper = now - DEFAULT_PRUNE_DAYS * DAY_S
    return time_window(bounds, now, label, upper=upper)
