"""The agent's shared session filter set, once, for ``GET /sessions`` (query), prune and archive (bodies).

``session_filter`` turns the fields into the domain's :class:`~app.domain.session_filter.SessionFilter`;
every route that selects sessions by the filter set goes through it.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Annotated

from pydantic import BaseModel, Field

from app.api.schemas.common import Count, FilterText, SafeText
from app.domain.session_filter import (
    EmptyTimeWindow,
    InvalidTimeValue,
    SessionFilter,
    TimeBounds,
    prune_window,
    time_window,
)
from app.errors import EmptyTimeWindow as EmptyWindowError
from app.errors import InvalidDuration, Unprocessable

TimeText = Annotated[SafeText, Field(max_length=64)]
Cost = Annotated[float, Field(ge=0, le=1e15, allow_inf_nan=False)]

_TIME = (
    "a duration ago (`30m`, `5h`, `2d`, `1w`, long unit names too; a bare number is days) or an ISO date / "
    "date-time (no zone: UTC)"
)


class SessionFilterFields(BaseModel):
    """The agent's filter set (``hermes sessions prune|archive``): every criterion given must hold."""

    older_than: TimeText | None = Field(default=None, description=f"started before {_TIME}")
    newer_than: TimeText | None = Field(default=None, description=f"started at or after {_TIME}")
    before: TimeText | None = Field(
        default=None, description=f"started before {_TIME}; with older_than the tighter bound wins"
    )
    after: TimeText | None = Field(
        default=None, description=f"started at or after {_TIME}; with newer_than the tighter bound wins"
    )
    title: FilterText | None = Field(default=None, description="title contains this (case-insensitive)")
    end_reason: FilterText | None = Field(default=None, description="ended with this reason (exact)")
    cwd: FilterText | None = Field(default=None, description="working directory is this path or under it")
    min_messages: Count | None = Field(default=None, description="at least this many messages")
    max_messages: Count | None = Field(default=None, description="at most this many messages")
    model: FilterText | None = Field(default=None, description="model contains this (case-insensitive)")
    provider: FilterText | None = Field(
        default=None, description="billing provider is this (case-insensitive, exact)"
    )
    user: FilterText | None = Field(default=None, description="user_id is this (exact)")
    chat_id: FilterText | None = Field(default=None, description="chat/channel id is this (exact)")
    chat_type: FilterText | None = Field(
        default=None, description="chat type is this (exact, e.g. dm, group)"
    )
    branch: FilterText | None = Field(default=None, description="git branch contains this (case-insensitive)")
    min_tokens: Count | None = Field(default=None, description="at least this many input+output tokens")
    max_tokens: Count | None = Field(default=None, description="at most this many input+output tokens")
    min_cost: Cost | None = Field(
        default=None, description="costs at least this many USD (actual, else estimated)"
    )
    max_cost: Cost | None = Field(
        default=None, description="costs at most this many USD (actual, else estimated)"
    )
    min_tool_calls: Count | None = Field(default=None, description="at least this many tool calls")
    max_tool_calls: Count | None = Field(default=None, description="at most this many tool calls")
    workspace: FilterText | None = Field(
        default=None,
        description="git repository root (else working directory) contains this (case-insensitive); "
        "the agent's `sessions list --workspace`",
    )
    profile: FilterText | None = Field(default=None, description="agent profile_name is this (exact)")
    home: FilterText | None = Field(
        default=None, description="synced from the home with this label (exact; `hermes sessions sync`)"
    )

    def bounds(self) -> TimeBounds:
        """The four time filters as given."""
        return TimeBounds(
            older_than=self.older_than, newer_than=self.newer_than, before=self.before, after=self.after
        )

    def criteria(self, source: str | None = None) -> SessionFilter:
        """The criteria as a domain filter, without time bounds yet."""
        values = self.model_dump(include=_CRITERIA)
        return SessionFilter(source=source, **values)


_CRITERIA = set(SessionFilterFields.model_fields) - {"older_than", "newer_than", "before", "after"}


def _window_error(exc: ValueError) -> Unprocessable:
    return EmptyWindowError(str(exc)) if isinstance(exc, EmptyTimeWindow) else InvalidDuration(str(exc))


def session_filter(fields: SessionFilterFields, source: str | None = None) -> SessionFilter:
    """The domain filter for a listing or an archive. 422 ``invalid_duration``, ``empty_time_window``."""
    try:
        before, after = time_window(fields.bounds(), time.time())
    except (InvalidTimeValue, EmptyTimeWindow) as exc:
        raise _window_error(exc) from exc
    return replace(fields.criteria(source), started_before=before, started_after=after)


def prune_filter(
    fields: SessionFilterFields, source: str | None, older_than_days: float | None, archived: bool | None
) -> SessionFilter:
    """The domain filter of a prune: as :func:`session_filter`, plus ``older_than_days`` and the agent's
    implicit 90 days when nothing bounds it."""
    flt = replace(fields.criteria(source), archived=archived)
    try:
        before, after = prune_window(
            fields.bounds(), time.time(), older_than_days=older_than_days, has_criteria=flt.has_criteria()
        )
    except (InvalidTimeValue, EmptyTimeWindow) as exc:
        raise _window_error(exc) from exc
    return replace(flt, started_before=before, started_after=after)
