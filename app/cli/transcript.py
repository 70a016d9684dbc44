"""A session's transcript as terminal text or Markdown: every message in full, tool calls collapsed as in
the resume recap (``[3 tool calls: a, b]``) unless asked to show them. Pure formatting, no I/O."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime
from typing import Any

from app.domain.recap import content_text, strip_reasoning, tool_call_summary

_SPEAKER = {"user": "You", "assistant": "Hermes", "system": "System", "tool": "Tool"}


def _when(message: Mapping[str, Any]) -> str:
    ts = message.get("timestamp")
    if not isinstance(ts, int | float):
        return "?"
    return datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M:%S")


def _calls(message: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    calls = message.get("tool_calls")
    if not calls:
        return []
    return [c for c in (calls if isinstance(calls, list) else [calls]) if isinstance(c, Mapping)]


def _call_parts(call: Mapping[str, Any]) -> tuple[str, str]:
    """(name, arguments) of one OpenAI-style tool call; arguments pretty-printed when they are JSON."""
    function = call.get("function")
    function = function if isinstance(function, Mapping) else {}
    name = str(function.get("name") or "unknown")
    raw = function.get("arguments")
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError:
            return name, raw
    return name, json.dumps(raw, ensure_ascii=False, indent=2) if raw not in (None, "") else ""


def _text(message: Mapping[str, Any]) -> str:
    text = content_text(message.get("content"))
    return strip_reasoning(text) if message.get("role") == "assistant" else text.strip()


def _visible(message: Mapping[str, Any], tools: bool) -> bool:
    if message.get("role") == "tool":
        return tools
    return bool(_text(message) or _calls(message))


def _speaker(message: Mapping[str, Any]) -> str:
    role = str(message.get("role") or "?")
    speaker = _SPEAKER.get(role, role)
    if role == "tool" and message.get("tool_name"):
        speaker += f" ({message['tool_name']})"
    return speaker


def transcript_header(session: Mapping[str, Any]) -> list[str]:
    """The lines above a text transcript: title, id, source and size."""
    title = session.get("title") or "—"
    count = int(session.get("message_count") or 0)
    head = f"{title}  {session['id']}  [{session.get('source') or '?'}]  {count} messages"
    return [head, "─" * min(len(head), 110)]


def text_lines(messages: Iterable[Mapping[str, Any]], *, tools: bool = False) -> Iterator[str]:
    """Terminal transcript, one line at a time (so a pager can start before the last page arrives)."""
    for message in messages:
        if not _visible(message, tools):
            continue
        yield f"[{_when(message)}] {_speaker(message)}:"
        text = _text(message)
        for line in text.splitlines():
            yield f"  {line}"
        calls = _calls(message)
        if calls and tools:
            for call in calls:
                name, args = _call_parts(call)
                yield f"  → {name}"
                for line in args.splitlines():
                    yield f"      {line}"
        elif calls:
            yield f"  {tool_call_summary(calls)}"
        yield ""


def _fence(body: str) -> str:
    """A backtick fence longer than any run of backticks inside ``body``."""
    longest = max((len(m) for m in re.findall(r"`+", body)), default=0)
    return "`" * max(3, longest + 1)


def _fenced(body: str, lang: str = "") -> list[str]:
    fence = _fence(body)
    return [f"{fence}{lang}", *body.splitlines(), fence]


def markdown_lines(
    session: Mapping[str, Any], messages: Iterable[Mapping[str, Any]], *, tools: bool = False
) -> Iterator[str]:
    """The transcript as Markdown: a heading with the session's facts, then one section per message."""
    yield f"# {session.get('title') or session['id']}"
    yield ""
    yield f"- **Session:** `{session['id']}`"
    yield f"- **Source:** {session.get('source') or '?'}"
    if session.get("model"):
        yield f"- **Model:** {session['model']}"
    yield f"- **Messages:** {int(session.get('message_count') or 0)}"
    yield ""
    for message in messages:
        if not _visible(message, tools):
            continue
        yield f"## {_speaker(message)} · {_when(message)}"
        yield ""
        text = _text(message)
        if message.get("role") == "tool" and text:
            yield from _fenced(text)
            yield ""
        elif text:
            yield from text.splitlines()
            yield ""
        calls = _calls(message)
        if calls and tools:
            for call in calls:
                name, args = _call_parts(call)
                yield f"**Tool call:** `{name}`"
                yield ""
                if args:
                    yield from _fenced(args, "json")
                    yield ""
        elif calls:
            yield f"*{tool_call_summary(calls)}*"
            yield ""
