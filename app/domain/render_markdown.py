"""One Markdown document for a set of sessions, and the user prompts view (Markdown or JSONL records).

The same text as the agent's ``hermes_cli.session_export.render_sessions_export`` (``fmt="markdown"``, and
``only="user-prompts"`` in both formats), written a session and a page of messages at a time. Every renderer
here has the same shape: :meth:`begin`, then per session :meth:`session`, :meth:`messages` (any number of
pages) and :meth:`session_end`, then :meth:`end`; each returns the text to write next.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

from app.domain.render_text import LineJoin, iso_seconds, message_text, one_line

_ROLE_LABELS = {"user": "User", "assistant": "Assistant"}


def session_label(session: dict[str, Any]) -> str:
    """The id a session is shown by (``unknown`` when it has none)."""
    return str(session.get("id") or session.get("session_id") or "unknown")


def _heading(value: str) -> str:
    return one_line(str(value)) or "unknown"


def metadata_lines(session: dict[str, Any]) -> list[str]:
    """The bullet list under a session's heading."""
    lines = [f"- Session ID: `{session_label(session)}`"]
    if session.get("source"):
        lines.append(f"- Source: `{session['source']}`")
    if session.get("model"):
        lines.append(f"- Model: `{session['model']}`")
    if session.get("title"):
        lines.append(f"- Title: {one_line(str(session['title']))}")
    started = iso_seconds(session.get("started_at"))
    if started:
        lines.append(f"- Started: {started}")
    if session.get("message_count") is not None:
        lines.append(f"- Messages: {session['message_count']}")
    return lines


def _fenced(text: str) -> str:
    fence = "```"
    while fence in text:
        fence += "`"
    return f"{fence}text\n{text}\n{fence}"


class MarkdownDocument:
    """Every session with its messages (system messages left out) under one title."""

    def __init__(self, *, single: bool) -> None:
        self._single = single
        self._out = LineJoin()
        self._marker = "##" if single else "###"
        self._shown = 0
        # A message's heading before its time, per role.
        self._heads: dict[str, str] = {}

    def begin(self) -> str:
        """The document title (none for a single session: its heading is the title)."""
        return "" if self._single else self._out.add(["# Hermes sessions export", ""])

    def session(self, head: dict[str, Any]) -> str:
        """A session's heading and metadata."""
        title = str(head.get("title") or "").strip() or session_label(head)
        level = "#" if self._single else "##"
        self._shown = 0
        return self._out.add([f"{level} Session: {_heading(title)}", *metadata_lines(head), ""])

    def messages(self, messages: list[dict[str, Any]]) -> str:
        """A page of the session's messages."""
        lines: list[str] = []
        heads = self._heads
        shown = 0
        for message in messages:
            role = message.get("role")
            if type(role) is not str or not role:
                role = str(role or "unknown")
            if role == "system":
                continue
            shown += 1
            stamp = iso_seconds(message.get("timestamp"))
            content = message.get("content")
            text = content if type(content) is str else message_text(content)
            if role == "tool":
                name = str(message.get("tool_name") or message.get("name") or "tool")
                lines += (
                    f"{self._marker} Tool: {_heading(name)} - {stamp}"
                    if stamp
                    else f"{self._marker} Tool: {_heading(name)}",
                    "",
                    f"<details><summary>{escape(name)}</summary>",
                    "",
                    _fenced(text),
                    "",
                    "</details>",
                    "",
                )
            else:
                head = heads.get(role)
                if head is None:
                    head = heads[role] = f"{self._marker} {_ROLE_LABELS.get(role, role.title())}"
                lines += (f"{head} - {stamp}" if stamp else head, "", text, "")
        self._shown += shown
        return self._out.add(lines)

    def session_end(self) -> str:
        """A note when the session had nothing to show."""
        return "" if self._shown else self._out.add(["_No messages found._", ""])

    def end(self) -> str:
        """The final newline."""
        return self._out.end()


class PromptCounter:
    """Numbers a session's user prompts and makes the agent's prompt record of each."""

    def __init__(self) -> None:
        self.index = 0

    def records(self, session_id: str, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The prompt records of a page of messages (user messages only)."""
        out = []
        for message in messages:
            if message.get("role") != "user":
                continue
            self.index += 1
            record: dict[str, Any] = {
                "session_id": session_id,
                "index": self.index,
                "created_at": iso_seconds(message.get("timestamp")),
                "role": "user",
                "text": message_text(message.get("content")),
            }
            if message.get("id") is not None:
                record["message_id"] = message["id"]
            event_id = message.get("platform_message_id") or message.get("event_id")
            if event_id:
                record["event_id"] = event_id
            out.append(record)
        return out


def _session_key(session: dict[str, Any]) -> str:
    return str(session.get("id") or session.get("session_id") or "")


class PromptRecords:
    """One JSON record per user prompt and line (``json.dumps`` spacing, non-ASCII unescaped)."""

    def __init__(self) -> None:
        self._counter = PromptCounter()
        self._session_id = ""

    def begin(self) -> str:
        """Nothing before the first record."""
        return ""

    def session(self, head: dict[str, Any]) -> str:
        """Nothing: records carry their session id."""
        self._counter = PromptCounter()
        self._session_id = _session_key(head)
        return ""

    def messages(self, messages: list[dict[str, Any]]) -> str:
        """The records of a page of messages."""
        return "".join(
            json.dumps(r, ensure_ascii=False) + "\n"
            for r in self._counter.records(self._session_id, messages)
        )

    def session_end(self) -> str:
        """Nothing after a session."""
        return ""

    def end(self) -> str:
        """Nothing after the last record."""
        return ""


class PromptDocument:
    """Each session's user prompts as numbered sections of one Markdown document."""

    def __init__(self, *, single: bool) -> None:
        self._single = single
        self._out = LineJoin()
        self._marker = "##" if single else "###"
        self._counter = PromptCounter()
        self._session_id = ""
        self._sessions = 0

    def begin(self) -> str:
        """The document title (none for a single session)."""
        return "" if self._single else self._out.add(["# User prompts export", ""])

    def session(self, head: dict[str, Any]) -> str:
        """A session's heading and metadata."""
        self._sessions += 1
        self._counter = PromptCounter()
        self._session_id = _session_key(head)
        heading = (
            f"# User prompts for session {_heading(session_label(head))}"
            if self._single
            else f"## Session {_heading(session_label(head))}"
        )
        return self._out.add([heading, *metadata_lines(head), ""])

    def messages(self, messages: list[dict[str, Any]]) -> str:
        """The prompts of a page of messages."""
        lines: list[str] = []
        for prompt in self._counter.records(self._session_id, messages):
            lines.append(
                f"{self._marker} {prompt['index']}. {prompt['created_at'] or 'timestamp unavailable'}"
            )
            if prompt.get("message_id") is not None:
                lines += [f"Message ID: `{prompt['message_id']}`", ""]
            lines += [str(prompt["text"] or ""), ""]
        return self._out.add(lines)

    def session_end(self) -> str:
        """A note when the session had no prompt."""
        return "" if self._counter.index else self._out.add(["_No user prompts found._", ""])

    def end(self) -> str:
        """A note when there was no session at all, and the final newline."""
        note = "" if self._sessions else self._out.add(["_No user prompts found._", ""])
        return note + self._out.end()
