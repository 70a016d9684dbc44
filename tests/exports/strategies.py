"""Hypothesis strategies for export dicts in the shapes the agent's ``export_session`` returns."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

# Text that exercises the renderers: fences, HTML specials, line breaks, trailing whitespace, non-ASCII.
_pieces = st.sampled_from(
    ["`", "```", "<b>", "&", '"', "'", "\n", "\n\n", " ", "\t", "東京", "naïve", "#", "-", "***", "x", ""]
)
text = st.one_of(st.text(max_size=30), st.lists(_pieces, max_size=8).map("".join))
timestamps = st.one_of(
    st.none(), st.floats(min_value=0, max_value=4_000_000_000, allow_nan=False), st.integers(0, 4_000_000_000)
)
_parts = st.one_of(
    text,
    st.fixed_dictionaries({"type": st.just("text"), "text": text}),
    st.fixed_dictionaries({"type": st.just("image_url"), "image_url": st.fixed_dictionaries({"url": text})}),
    st.fixed_dictionaries({"type": st.just("input_audio"), "data": text}),
)
contents = st.one_of(st.none(), text, st.lists(_parts, max_size=4))
tool_calls: st.SearchStrategy[list[dict[str, Any]] | None] = st.one_of(
    st.none(),
    st.just([]),
    st.lists(
        st.fixed_dictionaries(
            {
                "id": st.one_of(st.just(""), text),
                "type": st.just("function"),
                "function": st.fixed_dictionaries(
                    {"name": text, "arguments": st.one_of(text, st.just('{"a": 1, "b": "東京"}'))}
                ),
            }
        ),
        max_size=3,
    ),
)
roles = st.sampled_from(["user", "assistant", "tool", "system", "session_meta", "developer"])


@st.composite
def messages(draw: st.DrawFn, *, msg_id: int = 1) -> dict[str, Any]:
    """One message as ``get_messages`` returns it."""
    return {
        "id": msg_id,
        "session_id": "s",
        "role": draw(roles),
        "content": draw(contents),
        "tool_call_id": draw(st.one_of(st.none(), text)),
        "tool_calls": draw(tool_calls),
        "tool_name": draw(st.one_of(st.none(), text)),
        "timestamp": draw(timestamps),
        "reasoning": draw(st.one_of(st.none(), text)),
        "reasoning_content": draw(st.one_of(st.none(), text)),
        "platform_message_id": draw(st.one_of(st.none(), text)),
        "active": 1,
    }


@st.composite
def sessions(draw: st.DrawFn, *, sid: str | None = None) -> dict[str, Any]:
    """A session dict with every column the renderers read, and its messages."""
    count = draw(st.integers(0, 6))
    return {
        "id": sid or draw(st.text("abc-_.09", min_size=1, max_size=12)),
        "source": draw(st.sampled_from(["cli", "telegram", "", None])),
        "model": draw(st.one_of(st.none(), text)),
        "title": draw(st.one_of(st.none(), text)),
        "started_at": draw(timestamps),
        "ended_at": draw(timestamps),
        "last_active": draw(timestamps),
        "message_count": draw(st.one_of(st.none(), st.integers(0, 50))),
        "tool_call_count": draw(st.one_of(st.none(), st.integers(0, 9))),
        "cwd": draw(st.one_of(st.none(), text)),
        "billing_provider": draw(st.one_of(st.none(), text)),
        "archived": draw(st.sampled_from([0, 1, None])),
        "system_prompt": draw(st.one_of(st.none(), text)),
        "messages": [draw(messages(msg_id=i + 1)) for i in range(count)],
    }


session_lists = st.integers(0, 4).flatmap(
    lambda n: st.tuples(*(sessions(sid=f"s{i}") for i in range(n))).map(list)
)
