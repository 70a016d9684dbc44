"""Small text pieces the readable export formats share: timestamps, message text, streamed line joins."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any


def iso_seconds(value: Any) -> str | None:
    """An epoch time as ``2024-05-01T10:00:00Z`` (UTC, whole seconds); other values as their text."""
    if value is None:
        return None
    if isinstance(value, int | float):
        return (
            datetime.fromtimestamp(float(value), tz=UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
        )
    return str(value)


def iso_full(value: Any) -> str:
    """An epoch time as ISO 8601 in UTC with its microseconds when it has any; ``""`` for none."""
    if value is None or value == "":
        return ""
    try:
        ts = float(value)
    except (TypeError, ValueError):
        return str(value)
    return datetime.fromtimestamp(ts, tz=UTC).isoformat().replace("+00:00", "Z")


def _part_text(part: Any) -> str:
    if isinstance(part, str):
        return part
    if isinstance(part, dict):
        for key in ("text", "content"):
            value = part.get(key)
            if isinstance(value, str):
                return value
        return json.dumps(part, ensure_ascii=False, sort_keys=True)
    return str(part)


def message_text(content: Any) -> str:
    """The readable text of a message's content: text parts joined by lines, other parts as JSON."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(text for text in map(_part_text, content) if text)
    if isinstance(content, dict):
        return _part_text(content)
    return str(content)


def one_line(value: str) -> str:
    """``value`` with its line breaks turned into spaces, trimmed."""
    return " ".join(value.splitlines()).strip()


class LineJoin:
    """Lines joined by newlines and ended by one, with trailing blank lines dropped, written as they come.

    Blank lines are held back until a line with text follows, so nothing already written needs taking back.
    """

    def __init__(self) -> None:
        self._started = False
        self._blank = 0

    def add(self, lines: list[str]) -> str:
        """The text for ``lines`` that can be written now."""
        out: list[str] = []
        for line in lines:
            if line == "":
                self._blank += 1
                continue
            out.append("\n" * (self._blank + self._started) + line)
            self._started = True
            self._blank = 0
        return "".join(out)

    def end(self) -> str:
        """The closing newline."""
        return "\n"


class RStrip:
    """Text written as it comes with its trailing whitespace dropped at the end (``str.rstrip`` on a stream)."""

    def __init__(self) -> None:
        self._held = ""

    def add(self, text: str) -> str:
        """The part of ``text`` (after whitespace held back before) that can be written now."""
        body = text.rstrip()
        if not body:
            self._held += text
            return ""
        out = self._held + text[: len(body)]
        self._held = text[len(body) :]
        return out

    def end(self) -> str:
        """Nothing: the held whitespace is the trailing whitespace."""
        self._held = ""
        return ""
