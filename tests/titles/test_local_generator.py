"""The local generator: telling words per language, CJK runs, and always a title the rules accept."""

from __future__ import annotations

import pytest

from app.domain.auto_title import FALLBACK_TITLE, MAX_CJK_CHARS, local_title
from app.domain.titles import sanitize_title


def _words(title: str) -> list[str]:
    return title.casefold().split()


def test_english_keeps_the_request_in_its_word_order() -> None:
    title = local_title(
        "How do I configure nginx as a reverse proxy for my Django app?",
        "To configure nginx as a reverse proxy for Django, add a location block with proxy_pass.",
    )
    assert title == "Configure nginx as a reverse proxy"


def test_vietnamese_drops_the_question_frame() -> None:
    title = local_title(
        "Làm thế nào để cài đặt Python trên Windows?",
        "Để cài đặt Python trên Windows, bạn tải bộ cài từ python.org.",
    )
    assert title == "Cài đặt Python trên Windows"


def test_chinese_takes_a_short_run_without_particles() -> None:
    title = local_title("请帮我写一个快速排序算法", "好的，下面是快速排序算法的实现。")
    assert "快速排序算法" in title
    assert not any(p in title for p in ("请", "帮我", "一个"))
    assert " " not in title
    assert len(title) <= MAX_CJK_CHARS


def test_long_chinese_is_cut_without_a_dangling_particle() -> None:
    title = local_title("分布式数据库系统中的一致性协议与容错机制设计原理详解", "这是一个很大的话题。")
    assert 0 < len(title) <= MAX_CJK_CHARS
    assert title[-1] not in "的与和及或中"


def test_mixed_language_keeps_latin_terms_and_cjk_pieces() -> None:
    title = local_title("如何用 Python 读取 CSV 文件？", "可以使用 pandas 的 read_csv 函数。")
    assert "Python" in title and "CSV" in title and "读取" in title
    assert "如何" not in title


@pytest.mark.parametrize(
    ("user", "assistant"),
    [
        ("hi", "hello! how can I help?"),
        ("???", "ok"),
        ("", ""),
        ("```\nprint(1)\n```", "```\nprint(2)\n```"),
        ("x" * 5000, "y"),
        ("\u200b\u200b", "\x00\x01"),
        ("🙂🙂🙂", "🎉"),
        ("https://example.com/very/long/url", "see https://example.com"),
    ],
)
def test_always_a_clean_title(user: str, assistant: str) -> None:
    title = local_title(user, assistant)
    assert title
    assert sanitize_title(title) == title
    assert len(title) <= 60


def test_nothing_usable_gives_the_fallback() -> None:
    assert local_title("", "") == FALLBACK_TITLE
    assert local_title("```\nx = 1\n```", "") == FALLBACK_TITLE
