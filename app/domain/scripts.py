"""Which text the word index cannot find, so search must look for it as a substring.

The agent's ``messages_fts`` uses SQLite's ``unicode61`` tokenizer: it splits on spaces and punctuation, so
scripts written without spaces (Chinese, Japanese, Korean, Thai, Lao, Khmer, Myanmar, Tibetan) end up as one
token per run of characters, and symbols such as emoji are dropped as separators. Terms in those scripts are
searched as substrings instead (trigram index, or a bounded scan for terms shorter than a trigram).
"""

from __future__ import annotations

import unicodedata

# (first, last) code points of scripts written without spaces between words.
_UNSEGMENTED_RANGES = (
    (0x0E00, 0x0EFF),  # Thai, Lao
    (0x0F00, 0x0FFF),  # Tibetan
    (0x1000, 0x109F),  # Myanmar
    (0x1100, 0x11FF),  # Hangul Jamo
    (0x1780, 0x17FF),  # Khmer
    (0x2E80, 0x2FDF),  # CJK radicals, Kangxi radicals
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0x3040, 0x30FF),  # Hiragana, Katakana
    (0x3100, 0x31FF),  # Bopomofo, Hangul compatibility Jamo, Katakana extensions
    (0x3400, 0x4DBF),  # CJK Extension A
    (0x4E00, 0x9FFF),  # CJK Unified Ideographs
    (0xA960, 0xA97F),  # Hangul Jamo extended A
    (0xAC00, 0xD7FF),  # Hangul syllables, Jamo extended B
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0xFF00, 0xFFEF),  # half- and full-width forms
    (0x20000, 0x3FFFF),  # CJK Extensions B and later
)


def is_unsegmented(ch: str) -> bool:
    """True for a character of a script that does not separate words with spaces."""
    cp = ord(ch)
    return any(first <= cp <= last for first, last in _UNSEGMENTED_RANGES)


def needs_substring_search(text: str) -> bool:
    """True when ``text`` holds characters the word index cannot match: unsegmented scripts or symbols."""
    for ch in text:
        if ch.isascii():
            continue
        if is_unsegmented(ch) or unicodedata.category(ch) in ("So", "Sk"):
            return True
    return False
