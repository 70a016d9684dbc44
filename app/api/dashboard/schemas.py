"""The dashboard's request bodies, field for field as 0.19.0 declares them (``pinned`` from 0.20); unknown
fields are ignored there, and so here."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class BulkDelete(BaseModel):
    """``POST /api/sessions/bulk-delete``."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"ids": ["20261206_200316_d2141f", "20261205_091502_8c1e0a"]}]}
    )

    ids: list[str] = Field(description="Exact session ids; unknown ones are skipped (at most 500)")
    profile: str | None = None


class SessionImport(BaseModel):
    """``POST /api/sessions/import``: sessions as ``GET /api/sessions/{id}/export`` gives them."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "sessions": [
                        {
                            "id": "20261206_200316_d2141f",
                            "source": "cli",
                            "title": "Rotate nginx logs",
                            "started_at": 1796587396.59,
                            "messages": [
                                {
                                    "role": "user",
                                    "content": "How do I rotate the nginx logs?",
                                    "timestamp": 1796587396.59,
                                }
                            ],
                        }
                    ]
                }
            ]
        }
    )

    sessions: list[dict[str, Any]]
    profile: str | None = None


class SessionChange(BaseModel):
    """``PATCH /api/sessions/{id}``: rename (an empty title clears it), archive, pin."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"title": "Nginx log rotation", "pinned": True}]}
    )

    title: str | None = None
    archived: bool | None = None
    pinned: bool | None = Field(default=None, description="0.20: keep the session from prune and archive")
    profile: str | None = None


class SessionPrune(BaseModel):
    """``POST /api/sessions/prune``: every criterion given must hold; ``older_than_days`` (90 by default)
    applies to a bare prune or when sent."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"older_than_days": 30, "source": "telegram", "dry_run": True}]}
    )

    older_than_days: float | None = 90
    source: str | None = None
    profile: str | None = None
    started_before: float | None = None
    started_after: float | None = None
    title_like: str | None = None
    end_reason: str | None = None
    cwd_prefix: str | None = None
    min_messages: int | None = None
    max_messages: int | None = None
    model_like: str | None = None
    provider: str | None = None
    user_id: str | None = None
    chat_id: str | None = None
    chat_type: str | None = None
    branch_like: str | None = None
    min_tokens: int | None = None
    max_tokens: int | None = None
    min_cost: float | None = None
    max_cost: float | None = None
    min_tool_calls: int | None = None
    max_tool_calls: int | None = None
    include_archived: bool = False
    dry_run: bool = False


# Prune body fields and the filter-set fields they fill.
PRUNE_CRITERIA = {
    "source": "source",
    "title_like": "title",
    "end_reason": "end_reason",
    "cwd_prefix": "cwd",
    "min_messages": "min_messages",
    "max_messages": "max_messages",
    "model_like": "model",
    "provider": "provider",
    "user_id": "user",
    "chat_id": "chat_id",
    "chat_type": "chat_type",
    "branch_like": "branch",
    "min_tokens": "min_tokens",
    "max_tokens": "max_tokens",
    "min_cost": "min_cost",
    "max_cost": "max_cost",
    "min_tool_calls": "min_tool_calls",
    "max_tool_calls": "max_tool_calls",
}
