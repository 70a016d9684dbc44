"""Gateway session keys: which session an incoming platform message belongs to.

The rules are those of hermes-agent 0.19.0's ``gateway.session.build_session_key`` (docs/gateway-routing.md),
so the agent's gateway and this server compute the same key for the same message. WhatsApp
identifiers are canonicalised through the bridge's ``lid-mapping-*.json`` files; reading them is I/O, so
the caller passes ``read_mappings`` (identifier → the raw aliases its mapping files hold).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from app.domain.sources import MESSAGING_PLATFORMS, Source


class ChatType(StrEnum):
    """The chat types a gateway reports."""

    dm = "dm"
    group = "group"
    channel = "channel"
    thread = "thread"


GATEWAY_PLATFORMS: tuple[str, ...] = tuple(
    sorted({p.value for p in MESSAGING_PLATFORMS} | {Source.api_server.value, Source.webhook.value})
)
"""Platforms a message can be routed from: the messaging platforms plus the API server and webhooks."""

DEFAULT_NAMESPACE = "agent:main"

# The characters a WhatsApp JID is made of; anything else is never looked up as a mapping file name.
_SAFE_WHATSAPP_ID = re.compile(r"^[A-Za-z0-9@.+\-]+$")


@dataclass(frozen=True)
class MessageSource:
    """Where a message came from (the agent's ``SessionSource`` fields that routing uses)."""

    platform: str
    chat_type: str = ChatType.dm.value
    chat_id: str = ""
    chat_name: str | None = None
    user_id: str | None = None
    user_name: str | None = None
    user_id_alt: str | None = None
    thread_id: str | None = None
    chat_topic: str | None = None
    profile: str | None = None


def namespace(profile: str | None) -> str:
    """``agent:main`` for the default profile (or none), ``agent:<profile>`` for a named one."""
    if not profile or profile == "default":
        return DEFAULT_NAMESPACE
    return f"agent:{profile}"


def normalize_whatsapp(value: str | None) -> str:
    """A JID, LID, device-suffixed or ``+``-prefixed number reduced to its bare identifier."""
    return (value or "").strip().replace("+", "", 1).split(":", 1)[0].split("@", 1)[0]


def whatsapp_aliases(identifier: str, read_mappings: Callable[[str], list[str]]) -> set[str]:
    """Every identifier reachable from ``identifier`` through the mapping files (itself included)."""
    start = normalize_whatsapp(identifier)
    if not start:
        return set()
    resolved: set[str] = set()
    queue = [start]
    while queue:
        current = queue.pop(0)
        if not current or current in resolved or not _SAFE_WHATSAPP_ID.match(current):
            continue
        resolved.add(current)
        for raw in read_mappings(current):
            mapped = normalize_whatsapp(raw)
            if mapped and mapped not in resolved:
                queue.append(mapped)
    return resolved


def canonical_whatsapp(identifier: str, read_mappings: Callable[[str], list[str]]) -> str:
    """The stable identity of a WhatsApp user: the shortest alias, ties broken lexicographically."""
    aliases = whatsapp_aliases(identifier, read_mappings)
    if not aliases:
        # Characters a JID never has: the agent's lookup raises here (its gateway fails the message);
        # the identifier then stands for itself, as it does when no mapping exists.
        return normalize_whatsapp(identifier)
    return min(aliases, key=lambda alias: (len(alias), alias))


def build_session_key(
    source: MessageSource,
    *,
    group_sessions_per_user: bool = True,
    thread_sessions_per_user: bool = False,
    profile: str | None = None,
    read_mappings: Callable[[str], list[str]] = lambda _identifier: [],
) -> str:
    """The routing key of a message, exactly as the agent's gateway builds it.

    DMs key on the chat id, else the participant (``user_id_alt`` before ``user_id``), else the thread;
    other chats on chat id, thread and (when isolated) the participant. Threads are shared unless
    ``thread_sessions_per_user``; groups are per user unless ``group_sessions_per_user`` is off.
    """
    ns = namespace(profile)
    platform = source.platform
    whatsapp = platform == Source.whatsapp.value
    thread = source.thread_id
    if source.chat_type == ChatType.dm.value:
        chat = canonical_whatsapp(source.chat_id, read_mappings) if whatsapp else source.chat_id
        if chat:
            return f"{ns}:{platform}:dm:{chat}:{thread}" if thread else f"{ns}:{platform}:dm:{chat}"
        participant = source.user_id_alt or source.user_id
        if participant and whatsapp:
            participant = canonical_whatsapp(participant, read_mappings) or participant
        if participant:
            return (
                f"{ns}:{platform}:dm:{participant}:{thread}"
                if thread
                else f"{ns}:{platform}:dm:{participant}"
            )
        return f"{ns}:{platform}:dm:{thread}" if thread else f"{ns}:{platform}:dm"

    participant = source.user_id_alt or source.user_id
    if participant and whatsapp:
        participant = canonical_whatsapp(participant, read_mappings) or participant
    parts = [ns, platform, source.chat_type]
    if source.chat_id:
        parts.append(source.chat_id)
    if thread:
        parts.append(thread)
    isolate = group_sessions_per_user and not (thread and not thread_sessions_per_user)
    if isolate and participant:
        parts.append(participant)
    return ":".join(parts)


def profile_of_key(session_key: str) -> str | None:
    """The profile a key's namespace names (``default`` for ``agent:main``), ``None`` if not a gateway key."""
    parts = session_key.split(":")
    if len(parts) < 2 or parts[0] != "agent":
        return None
    ns = parts[1] or "main"
    return "default" if ns == "main" else ns
