"""The resume recap ("Previous Conversation"): which messages a user sees again, and how they are shortened.

Rules of the agent's CLI recap: system and tool messages are hidden; a user
message longer than 300 characters is cut to 300 + ``...``; an assistant message loses its reasoning blocks,
keeps at most 3 lines (then `` ...``) and 200 characters (then ``...``), and its tool calls are summarised
as ``[N tool call(s): a, b, c, d, ...]``; an assistant message with neither text nor tool calls is skipped;
only the last ``2 × exchanges`` entries are kept and the rest are counted in ``omitted``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

DEFAULT_EXCHANGES = 10
MAX_USER_CHARS = 300
MAX_ASSISTANT_CHARS = 200
MAX_ASSISTANT_LINES = 3
MAX_TOOL_NAMES = 4

# Reasoning blocks models leak into visible content (the agent's ``_REASONING_TAGS``).
_REASONING_TAGS = ("REASONING_SCRATCHPAD", "think", "thinking", "reasoning", "thought")
_REASONING_PATTERNS = tuple(
    pattern
    for tag in _REASONING_TAGS
    for pattern in (
        # A closed pair, then an unterminated opening tag running to the end, then a stray closing tag.
        re.compile(rf"<{tag}>.*?</{tag}>\s*", re.DOTALL | re.IGNORECASE),
        re.compile(rf"<{tag}>.*$", re.DOTALL | re.IGNORECASE),
        re.compile(rf"</{tag}>\s*", re.IGNORECASE),
    )
)


@dataclass(frozen=True)
class RecapEntry:
    """One line of the recap: who spoke and the shortened text."""

    role: str
    text: str


@dataclass(frozen=True)
class Recap:
    """The entries shown and how many earlier entries were left out."""

    entries: list[RecapEntry]
    omitted: int


def strip_reasoning(text: str) -> str:
    """Remove ``<REASONING_SCRATCHPAD>…</REASONING_SCRATCHPAD>`` (and ``<think>``-style) blocks, then trim."""
    for pattern in _REASONING_PATTERNS:
        text = pattern.sub("", text)
    return text.strip()


def content_text(content: Any) -> str:
    """Visible text of message content: a string as is; multimodal parts joined, images as ``[image]``."""
    if content is None:
        return ""
    if isinstance(content, list):
        parts: list[str] = []
        for part in content:
            if not isinstance(part, Mapping):
                continue
            if part.get("type") == "text":
                parts.append(str(part.get("text", "")))
            elif part.get("type") == "image_url":
                parts.append("[image]")
        return " ".join(parts)
    return str(content)


def user_text(content: Any) -> str:
    """A user message as the recap shows it (300 characters + ``...`` at most)."""
    text = content_text(content)
    return text[:MAX_USER_CHARS] + "..." if len(text) > MAX_USER_CHARS else text


def tool_call_summary(tool_calls: list[Any]) -> str:
    """``[1 tool call: a]`` / ``[6 tool calls: a, b, c, d, ...]``: unique names in order, at most 4."""
    names: list[str] = []
    for call in tool_calls:
        function = call.get("function") if isinstance(call, Mapping) else None
        name = str(function.get("name", "unknown")) if isinstance(function, Mapping) else "unknown"
        if name not in names:
            names.append(name)
    shown = ", ".join(names[:MAX_TOOL_NAMES]) + (", ..." if len(names) > MAX_TOOL_NAMES else "")
    noun = "call" if len(tool_calls) == 1 else "calls"
    return f"[{len(tool_calls)} tool {noun}: {shown}]"


def assistant_text(content: Any, tool_calls: Any) -> str | None:
    """An assistant message as the recap shows it, or ``None`` when it has nothing visible."""
    text = strip_reasoning(content_text(content))
    parts: list[str] = []
    if text:
        lines = text.splitlines()
        if len(lines) > MAX_ASSISTANT_LINES:
            text = "\n".join(lines[:MAX_ASSISTANT_LINES]) + " ..."
        if len(text) > MAX_ASSISTANT_CHARS:
            text = text[:MAX_ASSISTANT_CHARS] + "..."
        parts.append(text)
    if tool_calls:
        calls = tool_calls if isinstance(tool_calls, list) else [tool_calls]
        parts.append(tool_call_summary(calls))
    return " ".join(parts) if parts else None


def build_recap(messages: Iterable[Mapping[str, Any]], exchanges: int = DEFAULT_EXCHANGES) -> Recap:
    """The recap of a conversation (messages in order, each with ``role``, ``content``, ``tool_calls``).

    Keeps the last ``2 × exchanges`` entries; ``omitted`` counts the entries dropped before them.
    """
    entries: list[RecapEntry] = []
    for message in messages:
        role = message.get("role")
        if role == "user":
            entries.append(RecapEntry("user", user_text(message.get("content"))))
        elif role == "assistant":
            text = assistant_text(message.get("content"), message.get("tool_calls"))
            if text is not None:
                entries.append(RecapEntry("assistant", text))
    keep = 2 * exchanges
    omitted = max(0, len(entries) - keep)
    return Recap(entries=entries[omitted:], omitted=omitted)
