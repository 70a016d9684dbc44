"""Local titles judged on a fixed set of 50 realistic first exchanges (``first_exchanges.json``).

Every row: a title of 3-7 words (a Vietnamese title counts syllables, up to 10; a Chinese or Japanese one is
at most 16 characters wide), in the script of the request, made of the request's own words in their order
(or, for a message that is only code, the reply's), with no trailing punctuation, the same on every call
and accepted by the title rules. Rows with a ``title`` must produce exactly it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from app.domain.auto_title import (
    FALLBACK_TITLE,
    MAX_CJK_CHARS,
    MAX_TITLE_CHARS,
    MAX_VIETNAMESE_SYLLABLES,
    MAX_WORDS,
    MIN_WORDS,
    Script,
    local_title,
    script_of,
)
from app.domain.titles import sanitize_title

ROWS: list[dict[str, Any]] = json.loads((Path(__file__).parent / "first_exchanges.json").read_text())
# Words a title may add to the request's own: the frames of greetings-only and one- or two-word requests.
FRAMES = {
    "small",
    "talk",
    "and",
    "greetings",
    "chat",
    "about",
    "link",
    "to",
    "trò",
    "chuyện",
    "về",
    "và",
    "chào",
    "hỏi",
}
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")


def _id(row: dict[str, Any]) -> str:
    return f"{row['kind']}-{row['lang']}-{row['user'][:24]}"


def test_the_fixture_is_fifty_varied_exchanges() -> None:
    assert len(ROWS) == 50
    assert {r["kind"] for r in ROWS} >= {"coding", "chat", "cron", "question", "greeting", "url", "code"}
    assert {r["lang"] for r in ROWS} >= {"en", "zh", "ja", "vi"}
    assert sum(r["title"] is not None for r in ROWS) >= 15


@pytest.mark.parametrize("row", ROWS, ids=_id)
def test_title_properties(row: dict[str, Any]) -> None:
    title = local_title(row["user"], row["assistant"])
    assert title == local_title(row["user"], row["assistant"])  # deterministic
    assert sanitize_title(title) == title and len(title) <= MAX_TITLE_CHARS
    assert title != FALLBACK_TITLE
    assert title[-1] not in ".,;:!?。！？，、"
    script = script_of(title)
    expected = script_of(row["user"]) if row["kind"] not in ("code", "url") else script
    assert script is expected or (expected is Script.chinese and script is Script.japanese)
    if script in (Script.chinese, Script.japanese):
        assert _CJK.search(title) and len(title) <= 2 * MAX_CJK_CHARS
        return
    words = title.split()
    limit = MAX_VIETNAMESE_SYLLABLES if script is Script.vietnamese else MAX_WORDS
    assert MIN_WORDS <= len(words) <= limit
    source = (row["user"] + " " + row["assistant"]).casefold()
    assert all(w.casefold().strip("'\"") in source or w.casefold() in FRAMES for w in words), title


@pytest.mark.parametrize("row", [r for r in ROWS if r["title"] is not None], ids=_id)
def test_exact_titles(row: dict[str, Any]) -> None:
    assert local_title(row["user"], row["assistant"]) == row["title"]


def test_words_keep_the_order_of_the_request() -> None:
    for row in ROWS:
        title = local_title(row["user"], row["assistant"])
        if script_of(title) not in (Script.latin, Script.vietnamese) or title.split()[0].casefold() in FRAMES:
            continue
        text = row["user"].casefold()
        position = 0
        for word in title.casefold().split():
            found = text.find(word, position)
            if found < 0:
                break  # the word came from the reply (a code-only request) or was cleaned (a URL)
            position = found + len(word)
        else:
            continue
        assert row["kind"] in ("code", "url") or ":" in row["user"] or "'" in row["user"], title
