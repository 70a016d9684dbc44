"""The FTS5 sanitiser: the reference's exact outputs (check 93) and rule-for-rule parity with the agent."""

from __future__ import annotations

import pytest
from hermes_state import SessionDB
from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.fts_query import MAX_QUERY_CHARS, Engine, expand_short_terms, literal_fallback, plan, sanitize

EXACT = [
    ("hello AND", "hello"),
    ("OR world", "world"),
    ("***", ""),
    ("deploy*", "deploy*"),
    ("*deploy", "deploy"),
    ("chat-send", '"chat-send"'),
    ("P2.2", '"P2.2"'),
    ("my-app.config.ts", '"my-app.config.ts"'),
    ('"exact phrase"', '"exact phrase"'),
    ('"chat-send"', '"chat-send"'),
    ("a:b", "a b"),
    ("C++", "C"),
    ('"unterminated', "unterminated"),
    ("(problem", "problem"),
    ("{test}", "test"),
]


@pytest.mark.parametrize(("query", "expected"), EXACT)
def test_exact_outputs(query: str, expected: str) -> None:
    assert sanitize(query) == expected


@pytest.mark.parametrize("query", [q for q, _ in EXACT] + ["a AND OR b", "x NOT", "NOT NOT y", "^x ~y"])
def test_same_output_as_agent(query: str) -> None:
    assert sanitize(query) == SessionDB._sanitize_fts5_query(query)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_same_output_as_agent_for_any_text(query: str) -> None:
    assert sanitize(query) == SessionDB._sanitize_fts5_query(query)


def test_long_query_truncated_before_sanitising() -> None:
    query = "word " * 1000
    assert len(sanitize(query)) <= MAX_QUERY_CHARS
    assert sanitize(query) == sanitize(query[:MAX_QUERY_CHARS])


def test_fallback_quotes_every_term_and_drops_operators() -> None:
    assert literal_fallback("a AND OR b") == '"a" "b"'
    assert literal_fallback("hello , deploy*") == '"hello" "deploy"*'
    assert literal_fallback('"chat-send" -x') == '"chat-send" "-x"'


@pytest.mark.parametrize(
    ("query", "engine"),
    [
        ("docker", Engine.fts),
        ("tiếng Việt", Engine.fts),
        ("记忆断裂", Engine.trigram),
        ("こんにちは", Engine.trigram),
        ("สวัสดีครับ", Engine.trigram),
        ("通信", Engine.scan),
        ("안녕", Engine.scan),
        ("🚀", Engine.scan),
        ("广西 OR 桂林", Engine.scan),
        ("***", Engine.empty),
    ],
)
def test_engine_choice(query: str, engine: Engine) -> None:
    assert plan(query).engine is engine


def test_short_term_expansion() -> None:
    scan = plan("广西 OR 桂林 NOT 山水")
    assert scan.engine is Engine.scan
    expanded = expand_short_terms(scan, {"广西": ["广西桂", "广西 "], "桂林": [], "山水": ["山水画"]})
    assert expanded.engine is Engine.trigram
    assert expanded.literal_snippets
    # 桂林 occurs nowhere, so its clause drops out.
    assert expanded.match == '(("广西桂" OR "广西 "))'
    assert expand_short_terms(plan("桂林"), {"桂林": []}).engine is Engine.empty
    both = expand_short_terms(plan("广西 NOT 山水"), {"广西": ["广西桂"], "山水": ["山水画"]})
    assert both.match == '((("广西桂")) NOT (("山水画")))'
