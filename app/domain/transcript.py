"""A page of messages as a person reads it: each tool call beside its result, summaries recognised.

Pure shaping of stored messages; nothing here renders HTML (templates escape every value they print).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

# The agent's context-compression summaries (agent/context_compressor.py SUMMARY_PREFIX and its legacy
# form), as the store's search also recognises them.
COMPRESSION_PREFIXES = ("[CONTEXT COMPACTION", "[CONTEXT SUMMARY]:")
# The note a gateway handoff leaves in the session it moved to (gateway/run.py in the agent).
HANDOFF_PREFIXES = ("[Session was just handed off",)
# Tool output longer than this shows its head and tail; the whole text stays one click away.
OUTPUT_HEAD = 2000
OUTPUT_TAIL = 1000
ARGS_SUMMARY = 120


@dataclass
class ToolCard:
    """One tool call and, when it is on the same page, its result."""

    call_id: str
    name: str
    summary: str
    arguments: str
    result: Result | None = None


@dataclass
class Result:
    """A tool's output as shown: the whole text, or its head and tail with how much was left out."""

    message_id: int
    text: str
    head: str
    tail: str
    omitted: int


@dataclass
class Entry:
    """One message of the page; a tool message whose call is on the page sits in that call's card."""

    id: int
    role: str
    timestamp: float
    text: str
    reasoning: str
    summary: str | None
    tool_name: str | None
    cards: list[ToolCard] = field(default_factory=list)
    orphan: Result | None = None


def text_of(content: Any) -> str:
    """Message content as text: structured parts joined, images named, other values as JSON."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts: list[str] = []
        for part in content:
            if isinstance(part, dict) and part.get("type") == "text":
                parts.append(str(part.get("text", "")))
            elif isinstance(part, dict) and part.get("type") == "image_url":
                parts.append("[Image Attachment]")
            else:
                parts.append(part if isinstance(part, str) else json.dumps(part, ensure_ascii=False))
        return "\n".join(parts)
    return json.dumps(content, ensure_ascii=False)


def summary_kind(text: str) -> str | None:
    """``compression`` or ``handoff`` when the message is such a summary, else ``None``."""
    start = text.lstrip()
    if start.startswith(COMPRESSION_PREFIXES):
        return "compression"
    if start.startswith(HANDOFF_PREFIXES):
        return "handoff"
    return None


def _result(message_id: int, text: str) -> Result:
    if len(text) <= OUTPUT_HEAD + OUTPUT_TAIL:
        return Result(message_id, text, text, "", 0)
    omitted = len(text) - OUTPUT_HEAD - OUTPUT_TAIL
    return Result(message_id, text, text[:OUTPUT_HEAD], text[-OUTPUT_TAIL:], omitted)


def _card(call: Any, index: int) -> ToolCard:
    function = call.get("function") if isinstance(call, dict) else None
    if not isinstance(function, dict):
        function = {}
    raw = function.get("arguments", "")
    try:
        parsed = json.loads(raw) if isinstance(raw, str) else raw
        pretty = json.dumps(parsed, indent=2, ensure_ascii=False)
        flat = json.dumps(parsed, ensure_ascii=False)
    except (TypeError, ValueError):
        pretty = flat = str(raw)
    summary = flat if len(flat) <= ARGS_SUMMARY else flat[: ARGS_SUMMARY - 1] + "…"
    call_id = call.get("id") if isinstance(call, dict) else None
    return ToolCard(
        call_id=str(call_id) if call_id else f"call-{index}",
        name=str(function.get("name") or "tool"),
        summary=summary,
        arguments=pretty,
    )


def entries(messages: list[dict[str, Any]]) -> list[Entry]:
    """The page's entries in order, each tool result moved into its call's card (matched by id)."""
    shown: list[Entry] = []
    open_cards: dict[str, ToolCard] = {}
    for message in messages:
        text = text_of(message.get("content"))
        reasoning = message.get("reasoning") or message.get("reasoning_content") or ""
        call_id = message.get("tool_call_id")
        if message.get("role") == "tool" and call_id and call_id in open_cards:
            open_cards.pop(call_id).result = _result(message["id"], text)
            continue
        entry = Entry(
            id=message["id"],
            role=str(message.get("role") or ""),
            timestamp=float(message.get("timestamp") or 0),
            text=text,
            reasoning=str(reasoning),
            summary=summary_kind(text),
            tool_name=message.get("tool_name"),
        )
        calls = message.get("tool_calls")
        if isinstance(calls, list):
            for index, call in enumerate(calls):
                card = _card(call, index)
                entry.cards.append(card)
                open_cards[card.call_id] = card
        if entry.role == "tool":
            entry.orphan = _result(entry.id, text)
        shown.append(entry)
    return shown
