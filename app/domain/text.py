"""Text the store accepts: no NUL characters and no lone surrogates (they cannot be stored faithfully)."""

from __future__ import annotations

import re

_FORBIDDEN = re.compile("[\x00\ud800-\udfff]")


def find_invalid_char(text: str) -> str | None:
    """Describe the first character the store refuses, or ``None`` when the text is fine."""
    match = _FORBIDDEN.search(text)
    if match is None:
        return None
    ch = match.group()
    if ch == "\x00":
        return f"a NUL character at position {match.start()}"
    return f"a lone surrogate U+{ord(ch):04X} at position {match.start()}"
