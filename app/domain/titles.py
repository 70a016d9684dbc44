"""Session titles: sanitising exactly like the agent, and lineage numbering (``my project #2``)."""

from __future__ import annotations

import re
from collections.abc import Iterable

MAX_TITLE_LENGTH = 100

# Control characters (tab, newline and CR aside: whitespace), invisible format characters, surrogates.
_DROPPED = re.compile(
    r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufffc\ufff9-\ufffb\ud800-\udfff]"
)
_WHITESPACE = re.compile(r"\s+")
_NUMBERED = re.compile(r"^(.*?) #(\d+)$")
_ANY_NUMBER = re.compile(r"^.* #(\d+)$")


class TitleTooLong(ValueError):
    """The sanitised title is longer than :data:`MAX_TITLE_LENGTH` characters."""

    def __init__(self, length: int) -> None:
        super().__init__(f"Title too long ({length} chars, max {MAX_TITLE_LENGTH})")
        self.length = length


def sanitize_title(title: str | None) -> str | None:
    """Clean a title the way the agent does; ``None`` means "no title" (empty after cleaning).

    Control characters are dropped (tab/newline/CR become spaces), zero-width, bidi-override and other
    invisible format characters are dropped, whitespace runs collapse to one space, and the ends are
    stripped. Emoji, CJK and accents are kept. Raises :class:`TitleTooLong` past 100 characters.
    """
    if not title:
        return None
    cleaned = _WHITESPACE.sub(" ", _DROPPED.sub("", title)).strip()
    if not cleaned:
        return None
    if len(cleaned) > MAX_TITLE_LENGTH:
        raise TitleTooLong(len(cleaned))
    return cleaned


def lineage_base(title: str) -> str:
    """``"my project #3"`` -> ``"my project"``; titles without a number are their own base."""
    match = _NUMBERED.match(title)
    return match.group(1) if match else title


def next_in_lineage(base_title: str, existing: Iterable[str]) -> str:
    """The next free title of a lineage given the titles already taken (``base`` or ``base #N``)."""
    base = lineage_base(base_title)
    taken = [t for t in existing if t == base or t.startswith(base + " #")]
    if not taken:
        return base
    highest = 1
    for t in taken:
        match = _ANY_NUMBER.match(t)
        if match:
            highest = max(highest, int(match.group(1)))
    return f"{base} #{highest + 1}"


def like_escape(text: str) -> str:
    """Escape ``\\``, ``%`` and ``_`` for ``LIKE ... ESCAPE '\\'``."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
