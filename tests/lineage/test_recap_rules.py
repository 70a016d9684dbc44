"""Recap rules of the agent's resume panel (reference §3.7, checks 157–162), exact strings."""

from __future__ import annotations

from typing import Any

from app.domain.recap import RecapEntry, build_recap, strip_reasoning


def _call(name: str) -> dict[str, Any]:
    return {"id": f"call_{name}", "type": "function", "function": {"name": name, "arguments": "{}"}}


def test_25_pairs_keep_last_20_entries_and_count_30_omitted() -> None:
    messages = []
    for i in range(25):
        messages.append({"role": "user", "content": f"question {i}"})
        messages.append({"role": "assistant", "content": f"answer {i}"})
    recap = build_recap(messages)
    assert recap.omitted == 30
    assert len(recap.entries) == 20
    assert recap.entries[0] == RecapEntry("user", "question 15")
    assert recap.entries[-1] == RecapEntry("assistant", "answer 24")


def test_exchanges_parameter_sets_the_window() -> None:
    messages = [{"role": "user", "content": str(i)} for i in range(7)]
    recap = build_recap(messages, exchanges=2)
    assert recap.omitted == 3
    assert [e.text for e in recap.entries] == ["3", "4", "5", "6"]
    assert build_recap(messages, exchanges=10).omitted == 0


def test_user_text_cut_at_300() -> None:
    recap = build_recap([{"role": "user", "content": "x" * 400}])
    assert recap.entries[0].text == "x" * 300 + "..."
    exact = build_recap([{"role": "user", "content": "y" * 300}])
    assert exact.entries[0].text == "y" * 300


def test_assistant_lines_and_length() -> None:
    five = "l1\nl2\nl3\nl4\nl5"
    assert build_recap([{"role": "assistant", "content": five}]).entries[0].text == "l1\nl2\nl3 ..."
    long = "a" * 250
    assert build_recap([{"role": "assistant", "content": long}]).entries[0].text == "a" * 200 + "..."
    three_long = "\n".join(["b" * 100] * 4)
    text = build_recap([{"role": "assistant", "content": three_long}]).entries[0].text
    assert text == ("b" * 100 + "\n" + "b" * 99) + "..."


def test_tool_call_summary() -> None:
    calls = [_call(n) for n in ["a", "b", "a", "c", "d", "e"]]
    recap = build_recap([{"role": "assistant", "content": None, "tool_calls": calls}])
    assert recap.entries[0].text == "[6 tool calls: a, b, c, d, ...]"
    one = build_recap([{"role": "assistant", "content": "", "tool_calls": [_call("a")]}])
    assert one.entries[0].text == "[1 tool call: a]"
    both = build_recap([{"role": "assistant", "content": "Looking.", "tool_calls": [_call("a"), _call("b")]}])
    assert both.entries[0].text == "Looking. [2 tool calls: a, b]"
    four = build_recap([{"role": "assistant", "content": None, "tool_calls": [_call(n) for n in "wxyz"]}])
    assert four.entries[0].text == "[4 tool calls: w, x, y, z]"


def test_skips_system_tool_and_empty_assistant_and_shows_images() -> None:
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "You are Hermes."},
        {
            "role": "user",
            "content": [{"type": "text", "text": "what is"}, {"type": "image_url", "image_url": {}}],
        },
        {
            "role": "assistant",
            "content": "<REASONING_SCRATCHPAD>hmm</REASONING_SCRATCHPAD>",
            "tool_calls": None,
        },
        {"role": "assistant", "content": None, "tool_calls": []},
        {"role": "tool", "content": "result", "tool_call_id": "c1"},
        {"role": "assistant", "content": "A cat."},
    ]
    recap = build_recap(messages)
    assert recap.entries == [RecapEntry("user", "what is [image]"), RecapEntry("assistant", "A cat.")]
    assert recap.omitted == 0


def test_reasoning_scratchpad_is_stripped() -> None:
    content = "<REASONING_SCRATCHPAD>plan\nmore</REASONING_SCRATCHPAD>\nThe answer is 4."
    assert build_recap([{"role": "assistant", "content": content}]).entries[0].text == "The answer is 4."
    assert strip_reasoning("Hi <think>unfinished") == "Hi"
    assert strip_reasoning("<reasoning_scratchpad>x</REASONING_SCRATCHPAD>ok") == "ok"


def test_non_ascii_kept_and_counted_by_characters() -> None:
    text = "日本語" * 150
    assert build_recap([{"role": "user", "content": text}]).entries[0].text == text[:300] + "..."
