"""The page's pure parts: sign-in codes and sessions, hit marking, the transcript's tool cards."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import app.web
from app.domain.highlight import marked_snippet, marked_terms, query_terms
from app.domain.transcript import OUTPUT_HEAD, OUTPUT_TAIL, entries, summary_kind
from app.web.entry_html import entries_html
from app.web.signin import CLOCK_SKEW_S, CODE_TTL_S, MAX_CODES, MAX_REVOKED, SESSION_TTL_S, SignIns


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_code_signs_in_once_and_only_while_fresh() -> None:
    clock = Clock()
    signins = SignIns("token", code_clock=clock)
    code = signins.mint_code()
    key = signins.redeem(code)
    assert key is not None and signins.valid(key)
    assert signins.redeem(code) is None
    stale = signins.mint_code()
    clock.now += CODE_TTL_S + 1
    assert signins.redeem(stale) is None
    assert signins.redeem("") is None and signins.redeem("guess") is None


def test_sessions_expire_and_close() -> None:
    clock = Clock()
    signins = SignIns("token", clock=clock)
    key = signins.open_session()
    assert signins.valid(key) and not signins.valid(None) and not signins.valid("other")
    signins.close_session(key)
    assert not signins.valid(key)
    again = signins.open_session()
    clock.now += SESSION_TTL_S + 1
    assert not signins.valid(again)


def test_a_cookie_holds_no_token_and_outlives_its_process() -> None:
    """Another process with the same token (a restart, a replica) accepts the cookie; another token does
    not; a cookie altered anywhere, or issued beyond the clock's skew, is no cookie."""
    clock = Clock()
    key = SignIns("the-token", clock=clock).open_session()
    assert "the-token" not in key
    assert SignIns("the-token", clock=clock).valid(key)
    assert not SignIns("another-token", clock=clock).valid(key)
    issued, nonce, mac = key.split(".")
    for forged in (
        f"{int(issued) + 1}.{nonce}.{mac}",
        f"{issued}.{nonce}x.{mac}",
        f"{issued}.{nonce}.{mac[:-1]}",
        f"{issued}.{nonce}",
        f"{issued}.{nonce}.{mac}é",
    ):
        assert not SignIns("the-token", clock=clock).valid(forged), forged
    early = Clock()
    early.now = clock.now - CLOCK_SKEW_S - 1
    assert not SignIns("the-token", clock=early).valid(key)
    late = Clock()
    late.now = clock.now + SESSION_TTL_S + 1
    assert not SignIns("the-token", clock=late).valid(key)


def test_without_a_token_cookies_are_this_process_s_own() -> None:
    key = SignIns(None).open_session()
    assert SignIns(None).valid(key) is False


def test_outstanding_codes_and_signed_out_cookies_are_capped() -> None:
    signins = SignIns("token", code_clock=Clock())
    codes = [signins.mint_code() for _ in range(MAX_CODES + 5)]
    assert signins.redeem(codes[0]) is None
    assert signins.redeem(codes[-1]) is not None
    keys = [signins.open_session() for _ in range(MAX_REVOKED + 1)]
    for key in keys:
        signins.close_session(key)
    assert signins.valid(keys[0]) and not signins.valid(keys[1]) and not signins.valid(keys[-1])


def test_snippets_are_escaped_before_they_are_marked() -> None:
    snippet = "<script>x</script> says >>>hello<<< to <b> >>>you<<< </b>"
    assert str(marked_snippet(snippet)) == (
        "&lt;script&gt;x&lt;/script&gt; says <mark>hello</mark> to &lt;b&gt; <mark>you</mark> &lt;/b&gt;"
    )
    assert str(marked_snippet(">>><img src=x onerror=alert(1)><<<")) == (
        "<mark>&lt;img src=x onerror=alert(1)&gt;</mark>"
    )


def test_query_terms_mark_words_and_phrases_case_insensitively() -> None:
    assert query_terms('deploy* "rate limit" OR <b> NOT x') == ["deploy", "rate limit", "<b>", "x"]
    marked = str(marked_terms("Rate LIMIT hit <b>deploy</b>", ["rate limit", "deploy", "<b>"]))
    assert marked == (
        '<mark class="hit">Rate LIMIT</mark> hit <mark class="hit">&lt;b&gt;</mark>'
        '<mark class="hit">deploy</mark>&lt;/b&gt;'
    )
    assert str(marked_terms("<i>", [])) == "&lt;i&gt;"


def test_tool_results_join_their_calls_and_long_output_is_cut() -> None:
    long = "x" * (OUTPUT_HEAD + OUTPUT_TAIL + 10)
    messages = [
        {"id": 1, "role": "user", "content": "go", "timestamp": 1.0},
        {
            "id": 2,
            "role": "assistant",
            "content": None,
            "timestamp": 2.0,
            "tool_calls": [
                {"id": "a", "function": {"name": "read", "arguments": '{"path": "f"}'}},
                {"id": "b", "function": {"name": "run", "arguments": "not json"}},
            ],
        },
        {"id": 3, "role": "tool", "content": long, "tool_call_id": "b", "timestamp": 3.0},
        {"id": 4, "role": "tool", "content": "file", "tool_call_id": "a", "timestamp": 4.0},
        {
            "id": 5,
            "role": "tool",
            "content": "lost",
            "tool_call_id": "zzz",
            "tool_name": "t",
            "timestamp": 5.0,
        },
    ]
    shown = entries(messages)
    assert [e.id for e in shown] == [1, 2, 5]
    read, run = shown[1].cards
    assert (read.name, read.summary, read.result and read.result.text) == ("read", '{"path": "f"}', "file")
    assert run.arguments == "not json"
    assert run.result is not None and run.result.omitted == 10 and len(run.result.head) == OUTPUT_HEAD
    assert shown[2].orphan is not None and shown[2].orphan.text == "lost"


def test_summaries_are_recognised() -> None:
    assert summary_kind("  [CONTEXT COMPACTION — REFERENCE ONLY] ...") == "compression"
    assert summary_kind("[CONTEXT SUMMARY]: earlier") == "compression"
    assert summary_kind('[Session was just handed off from CLI ("x") to this chat]') == "handoff"
    assert summary_kind("hello") is None


def test_the_vendored_files_are_the_ones_recorded() -> None:
    vendor = Path(app.web.__file__).parent / "static" / "vendor"
    manifest = json.loads((vendor / "VENDORED.json").read_text())
    assert {entry["package"]: entry["version"] for entry in manifest["files"].values()} == {
        "htmx.org": "2.0.11",
        "htmx-ext-sse": "2.2.4",
    }
    for name, entry in manifest["files"].items():
        assert hashlib.sha256((vendor / name).read_bytes()).hexdigest() == entry["sha256"], name


def test_a_transcript_s_html_escapes_every_value_and_marks_only_after() -> None:
    hostile = "<script>alert(1)</script>"
    messages = [
        {"id": 1, "role": "user", "content": f"find {hostile}", "timestamp": 1.5, "reasoning": hostile},
        {
            "id": 2,
            "role": "assistant",
            "content": None,
            "timestamp": 2.0,
            "tool_calls": [
                {"id": f'c"{hostile}', "function": {"name": hostile, "arguments": json.dumps({"x": hostile})}}
            ],
        },
        {
            "id": 3,
            "role": "tool",
            "content": hostile + "x" * (OUTPUT_HEAD + OUTPUT_TAIL),
            "tool_call_id": 'c"' + hostile,
        },
        {"id": 4, "role": "tool", "content": hostile, "tool_name": hostile, "tool_call_id": "elsewhere"},
    ]
    html = str(entries_html(entries(messages), 'a"/b<', query_terms("script")))
    assert "<script" not in html and 'c"' not in html and 'a"' not in html
    assert html.count('<mark class="hit">script</mark>') >= 8
    assert 'href="/s/a%22%2Fb%3C?at=1#m-1"' in html
    assert '<div class="result" id="m-3">' in html and "more characters" in html
    assert "tool: &lt;script&gt;" in html
    plain = str(entries_html(entries(messages[:1]), "s", []))
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in plain and "<mark" not in plain
