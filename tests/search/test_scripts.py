"""Every script: Chinese, Japanese, Korean, Thai, Vietnamese with diacritics and emoji, terms of every length.

Where the agent supports the query, its ``search_messages`` must find at least our sessions. Deliberate
differences, checked explicitly below: emoji (the agent's word index drops them as separators, so it finds
nothing), and short terms, where the agent's LIKE fallback ORs the words and ignores ``active`` while we AND
them and never return rewound rows.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from hermes_state import SessionDB

from app.services import search as svc
from tests.search.conftest import add_session, found, search

TEXTS = {
    "zh": "我们讨论了记忆断裂的问题，然后测试了通信协议。",
    "ja": "こんにちは、今日は東京で会議があります。",
    "ko": "안녕하세요, 오늘 회의가 있습니다.",
    "th": "สวัสดีครับ วันนี้เรามีประชุม",
    "vi": "Tôi đang học tiếng Việt ở Hà Nội.",
    "emoji": "launch day 🚀🎉 went well",
    "pct": "任务100%完成了",
    "en": "plain english control text",
}


@pytest.fixture
def corpus(agent: SessionDB) -> SessionDB:
    for key, text in TEXTS.items():
        add_session(agent, f"s_{key}", [("user", text), ("assistant", "ok")])
    return agent


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("记忆断裂", "s_zh"),  # 4 characters: trigram index
        ("记忆断", "s_zh"),  # 3 characters: trigram index
        ("通信协议", "s_zh"),
        ("通信", "s_zh"),  # 2 characters: bounded scan
        ("记", "s_zh"),  # 1 character
        ("こんにちは", "s_ja"),
        ("東京", "s_ja"),
        ("안녕", "s_ko"),
        ("안녕하세요", "s_ko"),
        ("tiếng", "s_vi"),
        ("Hà Nội", "s_vi"),
        ("100%完成", "s_pct"),
    ],
)
def test_found_and_agent_agrees(client: TestClient, corpus: SessionDB, query: str, expected: str) -> None:
    body = search(client, q=query, limit=10)
    assert found(body) == [expected]
    assert ">>>" in body["results"][0]["snippet"]
    agent_sessions = {h["session_id"] for h in corpus.search_messages(query, limit=1000)}
    assert set(found(body)) <= agent_sessions


@pytest.mark.parametrize(
    ("query", "expected"), [("สวัสดี", "s_th"), ("ประชุม", "s_th"), ("🚀🎉 went", "s_emoji")]
)
def test_thai_and_mixed_emoji(client: TestClient, corpus: SessionDB, query: str, expected: str) -> None:
    """Thai goes through the trigram index here; the agent's word index happens to split it at vowel marks."""
    assert found(search(client, q=query, limit=10)) == [expected]
    assert {expected} <= {h["session_id"] for h in corpus.search_messages(query, limit=1000)}


@pytest.mark.parametrize("query", ["🚀", "🚀🎉"])
def test_emoji_found_where_the_agent_finds_nothing(client: TestClient, corpus: SessionDB, query: str) -> None:
    """Emoji are separators to the word index: the agent cannot find them at all (deliberate difference)."""
    assert found(search(client, q=query, limit=10)) == ["s_emoji"]
    assert corpus.search_messages(query, limit=1000) == []


def test_percent_is_literal(client: TestClient, agent: SessionDB) -> None:
    add_session(agent, "s1", [("user", "任务100%完成了")])
    add_session(agent, "s2", [("user", "任务100个完成了")])
    assert found(search(client, q="100%完成", limit=10)) == ["s1"]
    assert found(search(client, q="0%完", limit=10)) == ["s1"]


def test_cjk_or_and_not(client: TestClient, agent: SessionDB) -> None:
    add_session(agent, "gx", [("user", "我去过广西")])
    add_session(agent, "gl", [("user", "桂林山水")])
    add_session(agent, "both", [("user", "广西桂林")])
    assert sorted(found(search(client, q="广西 OR 桂林", limit=10))) == ["both", "gl", "gx"]
    assert found(search(client, q="广西 桂林", limit=10)) == ["both"]
    assert found(search(client, q="广西 NOT 桂林", limit=10)) == ["gx"]
    assert sorted(found(search(client, q="记忆断裂 OR 桂林山水", limit=10))) == ["gl"]
    agent_sessions = {h["session_id"] for h in agent.search_messages("广西 OR 桂林", limit=100)}
    assert {"both", "gl", "gx"} <= agent_sessions


def test_short_terms_never_find_rewound_rows(client: TestClient, agent: SessionDB) -> None:
    ids = add_session(agent, "s1", [("user", "开始"), ("user", "通信失败"), ("user", "后来")])
    agent.rewind_to_message("s1", ids[1])
    assert search(client, q="通信")["count"] == 0
    # The agent's LIKE fallback ignores ``active``: a deliberate difference.
    assert {h["session_id"] for h in agent.search_messages("通信")} == {"s1"}


def test_short_terms_served_from_trigram_index(client: TestClient, agent: SessionDB) -> None:
    add_session(agent, "end", [("user", "结尾是通信")])  # the term ends the content
    add_session(agent, "tool", [("user", "x"), {"role": "tool", "content": "y", "tool_name": "通信"}])
    add_session(agent, "upper", [("user", "Ab 案 in caps")])
    assert found(search(client, q="通信", role="user,tool", limit=10)) == ["tool", "end"]
    assert found(search(client, q="案", limit=10)) == ["upper"]
    assert found(search(client, q="信", limit=10)) == ["end"]
    assert search(client, q="无")["count"] == 0


def test_short_term_in_tool_name_has_snippet(client: TestClient, agent: SessionDB) -> None:
    add_session(agent, "s1", [("user", "run it"), {"role": "tool", "content": "done", "tool_name": "查"}])
    (result,) = search(client, q="查", role="tool")["results"]
    assert result["snippet"] == ">>>查<<<"


def test_short_term_scan_walks_chunks_and_stops(
    client: TestClient, agent: SessionDB, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Short terms too common to expand are scanned: small chunks still reach old matches and fill the
    limit, and the cap is reported."""
    monkeypatch.setattr(svc, "MAX_EXPANSION", 0)
    monkeypatch.setattr(svc, "SCAN_FIRST_CHUNK", 2)
    monkeypatch.setattr(svc, "SCAN_MAX_CHUNK", 4)
    add_session(agent, "old", [("user", "通信")])
    add_session(agent, "mid", [("user", "filler") for _ in range(20)] + [("user", "也是通信")])
    add_session(agent, "new", [("user", "filler") for _ in range(20)])
    assert found(search(client, q="通信", limit=10)) == ["mid", "old"]
    assert found(search(client, q="通信", limit=10, sort="oldest")) == ["old", "mid"]
    monkeypatch.setattr(svc, "SCAN_CAP", 10)
    capped = search(client, q="通信", limit=10)
    assert capped["scan_capped"] is True
    assert capped["count"] == 0


def test_two_character_terms_sorted_and_ranked(client: TestClient, agent: SessionDB) -> None:
    add_session(agent, "a", [("user", "第一次讨论通信")])
    add_session(agent, "b", [("user", "通信通信通信，全是通信")])
    add_session(agent, "c", [("user", "最后一次通信")])
    assert found(search(client, q="通信", sort="newest", limit=10)) == ["c", "b", "a"]
    assert found(search(client, q="通信", sort="oldest", limit=10)) == ["a", "b", "c"]
    assert sorted(found(search(client, q="通信", limit=10))) == ["a", "b", "c"]
    assert {"a", "b", "c"} <= {h["session_id"] for h in agent.search_messages("通信", limit=100)}
