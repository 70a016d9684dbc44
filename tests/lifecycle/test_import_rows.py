"""Import's message rows: the as-is fast path stores exactly what the per-column conversion stores."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.domain.agent_rows import MessageLayout, RowError

COLUMNS = {
    "id": "INTEGER",
    "session_id": "TEXT",
    "role": "TEXT",
    "content": "TEXT",
    "tool_calls": "TEXT",
    "timestamp": "REAL",
    "token_count": "INTEGER",
    "platform_message_id": "TEXT",
    "active": "INTEGER",
}
DEFAULTS: dict[str, Any] = {"active": 1}

values = st.one_of(
    st.none(),
    st.text(max_size=5),
    st.integers(-(2**64), 2**64),
    st.floats(allow_nan=False),
    st.booleans(),
    st.lists(st.integers(0, 3), max_size=2),
    st.dictionaries(st.text(max_size=2), st.integers(0, 3), max_size=2),
)
messages = st.fixed_dictionaries(
    {"role": st.sampled_from(["user", "assistant"])},
    optional={c: values for c in COLUMNS if c not in ("id", "session_id", "role")},
)


def _slow(layout: MessageLayout) -> MessageLayout:
    layout._get = None  # only the per-column path
    return layout


def _row(layout: MessageLayout, raw: dict[str, Any]) -> list[tuple[type, Any]] | str:
    # Types too: 2 == 2.0 in Python, but an INTEGER and a REAL are different rows on disk.
    try:
        return [(type(v), v) for v in layout.row(raw, 0, 123.0)]
    except RowError as exc:
        return f"error: {exc}"


@given(messages)
def test_fast_path_equals_per_column_conversion(raw: dict[str, Any]) -> None:
    fast, slow = MessageLayout(COLUMNS, DEFAULTS), _slow(MessageLayout(COLUMNS, DEFAULTS))
    assert _row(fast, raw) == _row(slow, raw)


def test_a_complete_plain_message_is_taken_as_is_and_others_are_converted() -> None:
    layout = MessageLayout(COLUMNS, DEFAULTS)
    plain = {
        "role": "user",
        "content": "hi",
        "tool_calls": None,
        "timestamp": 1.5,
        "token_count": 3,
        "platform_message_id": None,
        "active": None,
    }
    assert layout.row(plain, 0, 9.0) == ["user", "hi", None, 1.5, 3, None, 1]
    listed = {**plain, "tool_calls": [{"id": "c1"}], "timestamp": 2, "message_id": "m-9"}
    assert layout.row(listed, 0, 9.0) == ["user", "hi", '[{"id": "c1"}]', 2.0, 3, "m-9", 1]
    with pytest.raises(RowError, match=r"messages\[4\]\.token_count must be a 64-bit integer"):
        layout.row({**plain, "token_count": 2**63}, 4, 9.0)
