"""Routing entries: the agent's ``SessionEntry.to_dict`` layout, kept as plain dicts.

An entry the agent wrote may carry fields this server does not model (a ``model_override``, origin
extras); entries are therefore read and updated as dicts, changing only the members a transition touches,
so whatever the agent stored survives our writes. Times are naive server-local ISO strings.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from typing import Any

from app.domain.gateway_keys import MessageSource
from app.domain.reset_policy import EntryState, ResetReason

README = (
    "LEGACY MIRROR of the gateway routing index (the primary copy "
    "lives in the gateway_routing table in ~/.hermes/state.db). "
    "Maps messaging session keys (agent:main:<platform>:...) to "
    "active session IDs. This is NOT the session list. ALL "
    "sessions (CLI, TUI, and gateway) live in ~/.hermes/state.db "
    "and are shown by `hermes sessions list` and `/sessions`. "
    "Disable this file with `gateway.write_sessions_json: false` "
    "in config.yaml."
)
"""The ``_README`` member the agent writes first in ``sessions.json``."""


def gateway_session_id(now: datetime) -> str:
    """A gateway session id: ``YYYYMMDD_HHMMSS_<8 hex>`` in server local time."""
    return f"{now.strftime('%Y%m%d_%H%M%S')}_{uuid.uuid4().hex[:8]}"


def origin_dict(source: MessageSource) -> dict[str, Any]:
    """``SessionSource.to_dict``: the fixed members, then the extras only when set."""
    origin: dict[str, Any] = {
        "platform": source.platform,
        "chat_id": source.chat_id,
        "chat_name": source.chat_name,
        "chat_type": source.chat_type,
        "user_id": source.user_id,
        "user_name": source.user_name,
        "thread_id": source.thread_id,
        "chat_topic": source.chat_topic,
    }
    if source.user_id_alt:
        origin["user_id_alt"] = source.user_id_alt
    if source.profile:
        origin["profile"] = source.profile
    return origin


def new_entry(
    session_key: str,
    session_id: str,
    now: datetime,
    *,
    origin: dict[str, Any] | None,
    display_name: str | None,
    platform: str | None,
    chat_type: str,
    created_at: datetime | None = None,
    was_auto_reset: bool = False,
    auto_reset_reason: ResetReason | None = None,
    reset_had_activity: bool = False,
    is_fresh_reset: bool = False,
) -> dict[str, Any]:
    """A fresh entry with the agent's members in the agent's order (``created_at == updated_at`` unless
    the entry was rebuilt from an older session row)."""
    entry: dict[str, Any] = {
        "session_key": session_key,
        "session_id": session_id,
        "created_at": (created_at or now).isoformat(),
        "updated_at": now.isoformat(),
        "display_name": display_name,
        "platform": platform,
        "chat_type": chat_type,
        "input_tokens": 0,
        "output_tokens": 0,
        "cache_read_tokens": 0,
        "cache_write_tokens": 0,
        "total_tokens": 0,
        "last_prompt_tokens": 0,
        "estimated_cost_usd": 0.0,
        "cost_status": "unknown",
        "expiry_finalized": False,
        "suspended": False,
        "resume_pending": False,
        "resume_reason": None,
        "last_resume_marked_at": None,
        "is_fresh_reset": is_fresh_reset,
        "was_auto_reset": was_auto_reset,
        "auto_reset_reason": None if auto_reset_reason is None else auto_reset_reason.value,
        "reset_had_activity": reset_had_activity,
    }
    if origin is not None:
        entry["origin"] = origin
    return entry


def _unsafe_id(value: str) -> bool:
    if ".." in value or "/" in value or "\\" in value:
        return True
    return len(value) >= 2 and value[0].isalpha() and value[1] == ":"


def _time(value: Any) -> datetime | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    # Entries are naive local time; an aware one (written by hand) is read as local wall-clock time.
    return parsed.astimezone().replace(tzinfo=None) if parsed.tzinfo else parsed


def parse_entry(raw: str) -> dict[str, Any] | None:
    """An entry as the agent would load it, or ``None`` where the agent skips it (not an object, no
    usable id, key or times, or a session id that could escape the sessions directory)."""
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    sid, key = data.get("session_id"), data.get("session_key")
    if not isinstance(sid, str) or not sid or not isinstance(key, str) or not key:
        return None
    if _unsafe_id(sid) or ".." in key or key.startswith(("/", "\\")):
        return None
    if _time(data.get("created_at")) is None or _time(data.get("updated_at")) is None:
        return None
    return data


def entry_state(entry: dict[str, Any]) -> EntryState:
    """The members the reset decision reads."""
    updated = _time(entry.get("updated_at"))
    assert updated is not None  # parse_entry admitted only entries with a valid updated_at
    return EntryState(
        updated_at=updated,
        suspended=bool(entry.get("suspended")),
        resume_pending=bool(entry.get("resume_pending")),
        last_resume_marked_at=_time(entry.get("last_resume_marked_at")),
    )


def updated_at(entry: dict[str, Any]) -> datetime:
    """When the entry last saw activity."""
    return entry_state(entry).updated_at


def had_activity(entry: dict[str, Any]) -> bool:
    """``reset_had_activity`` of the entry that replaces this one: whether a turn reported prompt tokens."""
    tokens = entry.get("last_prompt_tokens")
    return isinstance(tokens, int | float) and not isinstance(tokens, bool) and tokens > 0


def dump(entry: dict[str, Any]) -> str:
    """``entry_json`` exactly as the agent stores it (``json.dumps`` with its default separators)."""
    return json.dumps(entry)
