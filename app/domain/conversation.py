"""A stored transcript as the agent replays it (``SessionDB.get_messages_as_conversation``).

What differs from the stored rows: user and assistant text loses the recalled-memory blocks the agent
injects (``<memory-context>`` and its system note) and surrounding whitespace, and a background-review
prompt that leaked into a session, with the assistant turn that answered it, is left out.
"""

from __future__ import annotations

import re
from typing import Any

_MEMORY_BLOCK = re.compile(r"<\s*memory-context\s*>[\s\S]*?</\s*memory-context\s*>", re.IGNORECASE)
_MEMORY_NOTE = re.compile(
    r"\[System note:\s*The following is recalled memory context,\s*NOT new user input\.\s*Treat as "
    r"(?:informational background data|authoritative reference data[^\]]*)\.\]\s*",
    re.IGNORECASE,
)
_MEMORY_TAG = re.compile(r"</?\s*memory-context\s*>", re.IGNORECASE)
_REVIEW_PROMPTS = (
    "Review the conversation above and update the skill library",
    "Review the conversation above and consider saving to memory",
)


def without_memory_context(text: str) -> str:
    """``text`` without injected recalled-memory blocks, notes and stray fence tags."""
    return _MEMORY_TAG.sub("", _MEMORY_NOTE.sub("", _MEMORY_BLOCK.sub("", text)))


def _is_review_prompt(message: dict[str, Any]) -> bool:
    content = message.get("content")
    return (
        message.get("role") in ("user", "system")
        and isinstance(content, str)
        and content.lstrip().startswith(_REVIEW_PROMPTS)
    )


class Replay:
    """Turns pages of stored messages (content and ``tool_calls`` decoded) into replayed ones, in order."""

    def __init__(self) -> None:
        self._after_review = False

    def page(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The replayed messages of a page of rows (fields the trace uses: role, content, tool calls)."""
        out: list[dict[str, Any]] = []
        for row in rows:
            content = row.get("content")
            if row.get("role") in ("user", "assistant") and isinstance(content, str):
                content = without_memory_context(content).strip()
            message: dict[str, Any] = {"role": row.get("role"), "content": content}
            for key in ("tool_call_id", "tool_name"):
                if row.get(key):
                    message[key] = row[key]
            if row.get("tool_calls"):
                message["tool_calls"] = row["tool_calls"]
            if _is_review_prompt(message):
                self._after_review = True
                continue
            if self._after_review:
                self._after_review = False
                if message["role"] == "assistant":
                    continue
            out.append(message)
        return out
