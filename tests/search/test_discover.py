"""Discover (``q``): checks 11.9 (90-102) and 11.10 (104-106, 112-115) as black-box API tests.

Every query that both programs support is also run through the real agent's ``search_messages`` on the same
file; the agent must find at least the sessions we return (:func:`assert_agent_finds_ours`).
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from hermes_state import SessionDB

from app.services import search as svc
from tests.search.conftest import add_session, found, search


def assert_agent_finds_ours(agent: SessionDB, body: dict[str, Any], query: str, **kwargs: Any) -> None:
    """The agent's ``search_messages`` (all hits) covers every session we returned."""
    hits = agent.search_messages(query, exclude_sources=["tool", "subagent"], limit=10_000, **kwargs)
    assert set(found(body)) <= {h["session_id"] for h in hits}


def test_docker_in_two_sessions_snippets_marked(client: TestClient, agent: SessionDB) -> None:
    add_session(agent, "s1", [("user", "how do I install docker?"), ("assistant", "apt install docker.io")])
    add_session(agent, "s2", [("user", "docker compose keeps restarting"), ("assistant", "check the logs")])
    add_session(agent, "s3", [("user", "nothing relevant here")])
    body = search(client, q="docker", limit=10)
    assert body["mode"] == "discover"
    assert sorted(found(body)) == ["s1", "s2"]
    assert body["count"] == 2
    assert all(">>>docker<<<" in r["snippet"].lower() for r in body["results"])
    assert_agent_finds_ours(agent, body, "docker", role_filter=["user", "assistant"])


@pytest.mark.parametrize(
    "query", ["C++", '"unterminated', "(problem", "hello AND", "***", "{test}", "OR hello", "a AND OR b"]
)
def test_dangerous_queries_never_fail(client: TestClient, agent: SessionDB, query: str) -> None:
    add_session(agent, "s1", [("user", "hello problem test a b C unterminated")])
    body = search(client, q=query)
    assert body["mode"] == "discover"
    assert isinstance(body["results"], list)


def test_operator_soup_is_retried_literally(client: TestClient, agent: SessionDB) -> None:
    """``a AND OR b`` is an FTS5 syntax error; the agent answers nothing, we retry as plain terms."""
    add_session(agent, "s1", [("user", "alpha and beta")])
    assert found(search(client, q="alpha AND OR beta")) == ["s1"]
    assert agent.search_messages("alpha AND OR beta") == []


def test_long_query_is_truncated_not_rejected(client: TestClient, agent: SessionDB) -> None:
    add_session(agent, "s1", [("user", "needle in a haystack")])
    assert found(search(client, q="needle " + "x" * 5000)) == []
    # 256 copies of an 8-character term fill the 2048-character budget exactly; the rest is cut off.
    assert search(client, q=("needle  " * 800))["count"] == 1


def test_tool_names_and_arguments_are_searchable(client: TestClient, agent: SessionDB) -> None:
    call = [
        {
            "id": "c1",
            "type": "function",
            "function": {"name": "terminal", "arguments": '{"cmd": "kubernetes"}'},
        }
    ]
    add_session(
        agent,
        "s1",
        [
            ("user", "look something up"),
            {"role": "assistant", "content": "", "tool_calls": call},
            {"role": "tool", "content": "results", "tool_name": "web_search", "tool_call_id": "c1"},
        ],
    )
    by_name = search(client, q="web_search", role="tool")
    assert found(by_name) == ["s1"]
    assert by_name["results"][0]["matched_role"] == "tool"
    assert found(search(client, q="kubernetes")) == ["s1"]
    assert_agent_finds_ours(agent, by_name, "web_search", role_filter=["tool"])


def test_role_filter(client: TestClient, agent: SessionDB) -> None:
    add_session(agent, "s1", [("user", "zebra crossing")])
    add_session(agent, "s2", [("user", "hi"), ("assistant", "zebra stripes")])
    body = search(client, q="zebra", role="user", limit=10)
    assert found(body) == ["s1"]
    assert {r["matched_role"] for r in body["results"]} == {"user"}
    assert sorted(found(search(client, q="zebra", limit=10))) == ["s1", "s2"]
    assert client.get("/search", params={"q": "zebra", "role": "wizard"}).json()["code"] == "invalid_role"


def test_source_filters(client: TestClient, agent: SessionDB) -> None:
    add_session(agent, "s1", [("user", "quokka")], source="telegram")
    add_session(agent, "s2", [("user", "quokka")], source="cli")
    add_session(agent, "s3", [("user", "quokka")], source="discord")
    assert found(search(client, q="quokka", source="telegram", limit=10)) == ["s1"]
    assert sorted(found(search(client, q="quokka", limit=10))) == ["s1", "s2", "s3"]
    assert sorted(found(search(client, q="quokka", exclude_source="telegram,discord", limit=10))) == ["s2"]
    post = client.post("/search", json={"q": "quokka", "source": ["cli", "discord"], "limit": 10}).json()
    assert sorted(found(post)) == ["s2", "s3"]


def test_sort_orders(client: TestClient, agent: SessionDB) -> None:
    add_session(agent, "s_oldest", [("user", "falcon")])
    add_session(agent, "s_middle", [("user", "falcon falcon falcon falcon")])
    add_session(agent, "s_newest", [("user", "falcon")])
    assert found(search(client, q="falcon", sort="newest", limit=10)) == ["s_newest", "s_middle", "s_oldest"]
    assert found(search(client, q="falcon", sort="oldest", limit=10)) == ["s_oldest", "s_middle", "s_newest"]
    # Relevance: bm25 prefers the message that repeats the term.
    assert found(search(client, q="falcon", limit=10))[0] == "s_middle"


def test_rewound_rows_never_found_compacted_found(client: TestClient, agent: SessionDB) -> None:
    ids = add_session(agent, "s1", [("user", "keep this"), ("user", "platypus rewound"), ("user", "later")])
    agent.rewind_to_message("s1", ids[1])
    assert search(client, q="platypus")["count"] == 0
    add_session(agent, "s2", [("user", "wombat archived"), ("assistant", "ok")])
    agent.archive_and_compact("s2", [{"role": "user", "content": "summary"}])
    assert found(search(client, q="wombat")) == ["s2"]
    assert_agent_finds_ours(agent, search(client, q="wombat"), "wombat")


def test_index_stays_in_sync(client: TestClient, agent: SessionDB) -> None:
    add_session(agent, "s1", [("user", "oldterm")])
    assert search(client, q="oldterm")["count"] == 1
    agent._conn.execute("UPDATE messages SET content = 'newterm' WHERE session_id = 's1'")
    agent._conn.commit()
    assert search(client, q="oldterm")["count"] == 0
    assert search(client, q="newterm")["count"] == 1
    agent.delete_session("s1")
    assert search(client, q="newterm")["count"] == 0


def test_result_shape_window_bookends(client: TestClient, agent: SessionDB) -> None:
    turns = [("user" if i % 2 == 0 else "assistant", f"turn {i}") for i in range(30)]
    turns[15] = ("assistant", "the capybara answer")
    ids = add_session(agent, "s1", turns)
    body = search(client, q="capybara")
    (result,) = body["results"]
    assert {
        "session_id",
        "title",
        "source",
        "model",
        "started_at",
        "snippet",
        "match_message_id",
        "matched_role",
        "bookend_start",
        "messages",
        "bookend_end",
        "messages_before",
        "messages_after",
    } <= set(result)
    assert result["match_message_id"] == ids[15]
    assert result["matched_role"] == "assistant"
    window = [m["id"] for m in result["messages"]]
    assert window == ids[10:21]
    assert [m["id"] for m in result["messages"] if m.get("anchor")] == [ids[15]]
    assert [m["id"] for m in result["bookend_start"]] == ids[:3]
    assert [m["id"] for m in result["bookend_end"]] == ids[-3:]
    assert (result["messages_before"], result["messages_after"]) == (5, 5)
    assert "parent_session_id" not in result


def test_bookends_never_overlap_window_or_use_summaries(client: TestClient, agent: SessionDB) -> None:
    turns = [
        ("user", "[CONTEXT COMPACTION] earlier turns were summarised"),
        ("assistant", "[CONTEXT SUMMARY]: a summary"),
        ("user", "real opening question"),
    ]
    turns += [("assistant" if i % 2 else "user", f"filler {i}") for i in range(12)]
    turns.append(("user", "the narwhal detail"))
    ids = add_session(agent, "s1", turns)
    (result,) = search(client, q="narwhal")["results"]
    assert [m["content"] for m in result["bookend_start"]] == [
        "real opening question",
        "filler 0",
        "filler 1",
    ]
    assert result["bookend_end"] == []
    assert result["messages"][-1]["id"] == ids[-1]


def test_adaptive_caps(client: TestClient, agent: SessionDB) -> None:
    long_window = "ibex " + "w" * 6000
    long_bookend = "b" * 3000
    turns = [("user", long_bookend)] + [("assistant", f"pad {i}") for i in range(8)] + [("user", long_window)]
    add_session(agent, "s1", turns)
    (result,) = search(client, q="ibex")["results"]
    anchor = next(m for m in result["messages"] if m.get("anchor"))
    assert len(anchor["content"]) == 4000
    assert anchor["content_truncated"] is True
    assert anchor["original_content_chars"] == len(long_window)
    opening = result["bookend_start"][0]
    assert len(opening["content"]) == 1200
    assert opening["original_content_chars"] == 3000
    (full,) = search(client, q="ibex", detail="full")["results"]
    anchor = next(m for m in full["messages"] if m.get("anchor"))
    assert anchor["content"] == long_window
    assert "content_truncated" not in anchor


def test_compression_chain_collapses_to_one_result(client: TestClient, agent: SessionDB) -> None:
    add_session(agent, "root", [("user", "gecko first segment")])
    agent.end_session("root", "compression")
    add_session(agent, "seg2", [("user", "gecko gecko gecko second segment")], parent="root")
    agent.end_session("seg2", "compression")
    add_session(agent, "seg3", [("user", "gecko third segment")], parent="seg2")
    add_session(agent, "other", [("user", "a gecko elsewhere")])
    body = search(client, q="gecko", limit=10)
    assert body["count"] == 2
    lineage_hit = next(r for r in body["results"] if r["session_id"] != "other")
    assert lineage_hit["session_id"] == "seg2"  # the best-ranked segment
    assert lineage_hit["parent_session_id"] == "root"


def test_limit_counts_sessions_and_is_filled(client: TestClient, agent: SessionDB) -> None:
    # One chatty session holds far more hits than the rest together; the limit still fills with sessions.
    add_session(agent, "chatty", [("user", "heron " * 5) for _ in range(120)])
    for n in range(6):
        add_session(agent, f"quiet{n}", [("user", "a heron once")])
    for limit in (1, 3, 5, 7):
        assert search(client, q="heron", limit=limit)["count"] == limit
    assert search(client, q="heron", limit=50)["count"] == 7


def test_limit_filled_across_rank_tiers(
    client: TestClient, agent: SessionDB, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Matches beyond the first ranked tier are reached when the first tier holds too few sessions."""
    monkeypatch.setattr(svc, "RANK_TIER", 5)
    for n in range(3):
        add_session(agent, f"old{n}", [("user", "lemur")])
    add_session(agent, "recent", [("user", "lemur") for _ in range(30)])
    assert sorted(found(search(client, q="lemur", limit=4))) == ["old0", "old1", "old2", "recent"]


def test_current_lineage_excluded(client: TestClient, agent: SessionDB) -> None:
    add_session(agent, "past", [("user", "the okapi plan")])
    add_session(agent, "live", [("user", "okapi again, live")])
    body = search(client, q="okapi", current_session_id="live", limit=10)
    assert found(body) == ["past"]
    only_live = search(client, q="again", current_session_id="live")
    assert only_live["count"] == 0
    assert only_live["message"] == "No matching sessions found."


def test_compacted_current_content_and_compression_parent_are_findable(
    client: TestClient, agent: SessionDB
) -> None:
    add_session(agent, "cur", [("user", "tapir archived turn"), ("assistant", "ok")])
    agent.archive_and_compact("cur", [{"role": "user", "content": "summary of tapir talk"}])
    body = search(client, q="tapir", current_session_id="cur")
    assert found(body) == ["cur"]
    assert body["results"][0]["messages"][0]["content"] == "tapir archived turn"
    add_session(agent, "parent", [("user", "the axolotl design")])
    agent.end_session("parent", "compression")
    add_session(agent, "child", [("user", "continuing")], parent="parent")
    assert found(search(client, q="axolotl", current_session_id="child")) == ["parent"]


def test_delegation_parent_not_found_from_child(client: TestClient, agent: SessionDB) -> None:
    add_session(agent, "boss", [("user", "delegate the marmot survey")])
    agent.create_session("worker", "cli", parent_session_id="boss", model_config={"_delegate_from": "boss"})
    assert search(client, q="marmot", current_session_id="worker")["count"] == 0


def test_cron_demoted_but_still_found(client: TestClient, agent: SessionDB) -> None:
    add_session(agent, "cron1", [("user", "pelican pelican pelican report")], source="cron")
    add_session(agent, "tg1", [("user", "a pelican")], source="telegram")
    assert found(search(client, q="pelican", limit=1)) == ["tg1"]
    assert found(search(client, q="pelican", limit=2)) == ["tg1", "cron1"]
    add_session(agent, "cron2", [("user", "only cron knows the toucan")], source="cron")
    assert found(search(client, q="toucan")) == ["cron2"]


def test_hidden_sources_never_appear(client: TestClient, agent: SessionDB) -> None:
    for source in ("tool", "subagent"):
        add_session(agent, f"h_{source}", [("user", "secret mongoose")], source=source)
    assert search(client, q="mongoose")["count"] == 0
    assert search(client, q="mongoose", source="tool")["count"] == 0
    assert found(search(client)) == []


def test_syntax_error_quoting_scary_words_is_still_a_query_error(
    client: TestClient, agent: SessionDB
) -> None:
    add_session(agent, "s1", [("user", "disk locked busy")])
    assert found(search(client, q="disk AND OR locked")) == ["s1"]
