"""Who may ``/resume`` which session: hermes-agent 0.19.0's guard against one user attaching a chat to
another user's (or another chat's) persisted transcript, where a session id or title is only a handle.

The caller is the chat's routing origin. A target another entry still routes to is judged by that
entry's origin; otherwise by the session row's ``source``, ``user_id``, ``chat_id`` and ``thread_id``,
and any gap in what the row can prove refuses (the agent fails closed the same way). Matrix keeps its
own room rule. The agent's admin ``--all`` / ``--cross-room`` overrides need its slash-access policy,
which this server does not have, so no override exists here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

NOT_OWNER = (
    "⚠️ /resume blocked: '**{name}**' belongs to a different user or chat. "
    "You can only resume sessions from this chat."
)
MATRIX_NO_ORIGIN = (
    "⚠️ Matrix /resume blocked: this named session has no recorded room origin, so Hermes will not "
    "resume it inside the current room by default. Use `/resume --cross-room {name}` if you "
    "intentionally want to cross room boundaries."
)
MATRIX_OTHER_ROOM = (
    "⚠️ Matrix /resume blocked: that session belongs to a different Matrix room ({room}). "
    "Use `/resume --cross-room {name}` if you intentionally want to resume it here."
)
_DM_TYPES = frozenset({"dm", "direct", "private", ""})


def _text(origin: Mapping[str, Any], name: str) -> str:
    return str(origin.get(name) or "")


def _chat_id(origin: Mapping[str, Any]) -> str:
    # The agent rebuilds an origin with ``str(chat_id)``, so a missing id compares as "None".
    return str(origin.get("chat_id"))


def _participant(origin: Mapping[str, Any]) -> str:
    return _text(origin, "user_id_alt") or _text(origin, "user_id")


def _chat_type(origin: Mapping[str, Any]) -> str:
    return str(origin.get("chat_type") or "").lower()


def _shared(origin: Mapping[str, Any], group_per_user: bool, thread_per_user: bool) -> bool:
    """``is_shared_multi_user_session``: one session for every participant of a non-DM chat."""
    if origin.get("chat_type", "dm") == "dm":
        return False
    if origin.get("thread_id"):
        return not thread_per_user
    return not group_per_user


def _same_matrix_room(current: Mapping[str, Any], origin: Mapping[str, Any] | None) -> bool:
    return (
        origin is not None
        and origin.get("platform") == "matrix"
        and current.get("platform") == "matrix"
        and _chat_id(origin) == _chat_id(current)
        and _text(current, "thread_id") == _text(origin, "thread_id")
    )


def _same_origin_chat(
    current: Mapping[str, Any], origin: Mapping[str, Any], group_per_user: bool, thread_per_user: bool
) -> bool:
    """A live target: the same platform, chat and thread, and the same participant when keyed per user."""
    if origin.get("platform") != current.get("platform") or _chat_id(origin) != _chat_id(current):
        return False
    if _text(current, "thread_id") != _text(origin, "thread_id"):
        return False
    if _chat_type(current) in _DM_TYPES:
        if _text(current, "chat_id"):
            return True
        return bool(_participant(current)) and _participant(current) == _participant(origin)
    if _shared(current, group_per_user, thread_per_user):
        return True
    mine, theirs = _participant(current), _participant(origin)
    return bool(mine and theirs) and mine == theirs


def _row_allows(
    current: Mapping[str, Any], row: Mapping[str, Any], group_per_user: bool, thread_per_user: bool
) -> bool:
    """A target no entry routes to: the row must prove the caller's platform, chat, thread and owner."""
    caller_src, row_src = _text(current, "platform"), _text(row, "source")
    if row_src and caller_src and row_src != caller_src:
        return False
    caller_uid, row_uid = _text(current, "user_id"), _text(row, "user_id")
    if not caller_uid:
        # Without an identity the row cannot prove the caller owns it.
        return False
    if not (row_src and caller_src and _text(row, "thread_id") == _text(current, "thread_id")):
        return False
    caller_chat, row_chat = _text(current, "chat_id"), _text(row, "chat_id")
    # The row stores ``user_id`` only; a caller keyed on ``user_id_alt`` cannot be matched by it.
    keys_on_alt = bool(_text(current, "user_id_alt"))
    if _chat_type(current) in _DM_TYPES:
        if keys_on_alt and not (row_chat and caller_chat):
            return False
        return bool(row_uid) and row_uid == caller_uid and row_chat == caller_chat
    if not (row_chat and caller_chat and row_chat == caller_chat):
        return False
    if _shared(current, group_per_user, thread_per_user):
        return True
    if keys_on_alt:
        return False
    return bool(row_uid) and row_uid == caller_uid


def resume_refusal(
    current: Mapping[str, Any],
    live_origin: Mapping[str, Any] | None,
    row: Mapping[str, Any],
    name: str,
    *,
    group_per_user: bool,
    thread_per_user: bool,
) -> str | None:
    """The agent's reply refusing ``/resume <name>`` from the chat whose origin is ``current``, or
    ``None`` when allowed. ``live_origin`` is the origin of an entry routing to the target (``None``
    when none does or it has no origin), ``row`` the target's session row columns."""
    if current.get("platform") == "matrix":
        if _same_matrix_room(current, live_origin):
            return None
        if live_origin is None:
            return MATRIX_NO_ORIGIN.format(name=name)
        room = live_origin.get("chat_name") or _chat_id(live_origin)
        return MATRIX_OTHER_ROOM.format(room=room, name=name)
    if live_origin is not None:
        allowed = _same_origin_chat(current, live_origin, group_per_user, thread_per_user)
    else:
        allowed = _row_allows(current, row, group_per_user, thread_per_user)
    return None if allowed else NOT_OWNER.format(name=name)
