"""Small text pieces the readable export formats share: timestamps, message text, streamed line joins."""

from __future__ import annotations

import functools
import json
from datetime import UTC, datetime
from typing import Any

# Times in a range every platform's ``datetime`` handles; others take the slow, general path.
_FAST_MAX = 253_402_300_800  # 10000-01-01


def _split(value: float) -> tuple[int, int]:
    # Whole seconds and microseconds as datetime.fromtimestamp rounds them (half to even at 1 µs).
    whole = int(value)
    micro = round((value - whole) * 1_000_000)
    if micro >= 1_000_000:
        return whole + 1, micro - 1_000_000
    return whole, micro


# "MM:SS" for every second of an hour: a clock is then one cached hour and one table entry.
MINUTES_SECONDS = tuple(f"{m:02d}:{s:02d}" for m in range(60) for s in range(60))


@functools.lru_cache(maxsize=1 << 14)
def _utc_hour(hour: int) -> str:
    return datetime.fromtimestamp(hour * 3600, tz=UTC).strftime("%Y-%m-%dT%H:")


def _clock(seconds: int) -> str:
    return _utc_hour(seconds // 3600) + MINUTES_SECONDS[seconds % 3600]


def iso_seconds(value: Any) -> str | None:
    """An epoch time as ``2024-05-01T10:00:00Z`` (UTC, whole seconds); other values as their text."""
    kind = type(value)
    if kind is float and 0 <= value < _FAST_MAX:
        whole = int(value)
        # datetime rounds to the microsecond (half to even) first: x.9999995 and up is the next second.
        if (value - whole) * 1_000_000 >= 999_999.5:
            whole += 1
        return _utc_hour(whole // 3600) + MINUTES_SECONDS[whole % 3600] + "Z"
    if kind is int and 0 <= value < _FAST_MAX:
        return _utc_hour(value // 3600) + MINUTES_SECONDS[value % 3600] + "Z"
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
    if type(value) in (int, float) and 0 <= value < _FAST_MAX:
        seconds, micro = _split(value)
        return _clock(seconds) + (f".{micro:06d}Z" if micro else "Z")
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
        end = len(lines)
        while end and lines[end - 1] == "":
            end -= 1
        if not end:
            self._blank += len(lines)
            return ""
        # Blank lines inside the batch are plain joins; only the trailing ones wait.
        out = "\n" * (self._blank + self._started) + "\n".join(lines[:end] if end < len(lines) else lines)
        self._started = True
        self._blank = len(lines) - end
        return out

    def end(self) -> str:
        """The closing newline."""
        return "\n"


class RStrip:
    """Text written as it comes, its trailing whitespace dropped at the end (``str.rstrip`` on a stream)."""

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
