"""Where a completed handoff lands on the gateway side: the
destination message source the agent's handoff watcher builds, and the synthetic turn it dispatches."""

from __future__ import annotations

from app.domain.gateway_keys import ChatType, MessageSource

HANDOFF_USER = "system:handoff"


def is_telegram_private_chat(chat_id: str) -> bool:
    """Telegram private chats have positive ids; groups and channels negative ones."""
    try:
        return int(chat_id) > 0
    except ValueError:
        return False


def destination(
    platform: str, home_chat_id: str, home_name: str | None, new_thread_id: str | None
) -> MessageSource:
    """The source of the synthetic turn: a ``thread`` when the gateway created one (a Telegram topic in
    a private chat stays a ``dm`` keyed on the user, as the user's next message is), else a DM-style
    source on the home channel."""
    private = platform == "telegram" and is_telegram_private_chat(home_chat_id)
    if new_thread_id and not private:
        chat_type, user_id = ChatType.thread.value, HANDOFF_USER
    else:
        chat_type, user_id = ChatType.dm.value, home_chat_id if private else HANDOFF_USER
    return MessageSource(
        platform=platform,
        chat_type=chat_type,
        chat_id=home_chat_id,
        chat_name=home_name,
        user_id=user_id,
        user_name="Handoff",
        thread_id=new_thread_id or None,
    )


def synthetic_turn(title: str) -> str:
    """The internal message the gateway dispatches so the agent confirms it now works in this chat."""
    return (
        f'[Session was just handed off from CLI ("{title}") to this channel. The full prior conversation '
        "history is loaded above. Briefly confirm you're working here and summarize what we were working "
        "on, so the user can continue from this device.]"
    )
