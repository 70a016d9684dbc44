"""Documented answers of the dashboard's routes: each success body with an example, for the OpenAPI document.

The bodies are the dashboard's own (a session row carries every column of the agent's ``sessions`` table, so
the examples show a few of them), described rather than modelled: they follow the agent's file, whatever
version wrote it.
"""

from __future__ import annotations

from typing import Any

_SID = "20261206_200316_d2141f"
_ROW: dict[str, Any] = {
    "id": _SID,
    "source": "cli",
    "model": "anthropic/claude-sonnet-4",
    "title": "Rotate nginx logs",
    "parent_session_id": None,
    "started_at": 1796587396.59,
    "ended_at": None,
    "message_count": 2,
    "tool_call_count": 0,
    "archived": 0,
}
_MESSAGE: dict[str, Any] = {
    "id": 1,
    "session_id": _SID,
    "role": "user",
    "content": "How do I rotate the nginx logs?",
    "tool_calls": None,
    "timestamp": 1796587396.59,
}

STATUS = {"version": "0.1.0", "server": "hermes-sessions", "auth_required": True}
LISTING = {
    "sessions": [
        {
            **_ROW,
            "archived": False,
            "last_active": 1796587396.6,
            "preview": "How do I rotate the nginx logs?",
            "is_active": True,
        }
    ],
    "total": 1,
    "limit": 20,
    "offset": 0,
}
SEARCH = {
    "results": [
        {
            "snippet": "How do I rotate the >>>nginx<<< logs?",
            "role": "user",
            "source": "cli",
            "model": "anthropic/claude-sonnet-4",
            "session_started": 1796587396.59,
            "session_id": _SID,
            "lineage_root": _SID,
        }
    ]
}
STATS = {"total": 2, "active_store": 2, "archived": 0, "messages": 4, "by_source": {"cli": 2}}
EMPTY_COUNT = {"count": 3}
DELETED = {"ok": True, "deleted": 3}
IMPORTED = {"ok": True, "imported": 12, "skipped": 1, "detached": 0, "errors": []}
PRUNED = {
    "ok": True,
    "removed": 0,
    "matched": 1,
    "oldest_started_at": 1788811396.59,
    "newest_started_at": 1788811396.59,
    "sessions": [
        {
            "id": _SID,
            "source": "cli",
            "title": "Rotate nginx logs",
            "model": "anthropic/claude-sonnet-4",
            "started_at": 1788811396.59,
            "message_count": 2,
        }
    ],
}
SESSION = _ROW
LATEST = {"requested_session_id": _SID, "session_id": _SID, "path": [_SID], "changed": False}
MESSAGES = {
    "session_id": _SID,
    "messages": [_MESSAGE],
    "pagination": {"limit": None, "offset": 0, "returned": 1},
}
REMOVED = {"ok": True}
CHANGED = {"ok": True, "title": "Nginx log rotation", "pinned": True}
EXPORT = {**_ROW, "messages": [_MESSAGE]}


def answers(description: str, example: dict[str, Any]) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` entry of a route's 200: what it is, with an example."""
    return {200: {"description": description, "content": {"application/json": {"example": example}}}}


def operation(name: str, summary: str, answer: str, example: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """The keyword arguments of a route decorator: ``name`` (the operation id), ``summary``, the 200
    (``answer``, with ``example``) and any other keyword as given."""
    return {"name": name, "summary": summary, "responses": answers(answer, example), **extra}
