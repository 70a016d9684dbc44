"""The fast timestamp paths give exactly what ``datetime`` gives (the agent formats with ``datetime``)."""

from __future__ import annotations

import datetime
from datetime import UTC

from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.render_html import local_time
from app.domain.render_text import LineJoin, RStrip, iso_full, iso_seconds
from tests.sizes import sized

times = st.one_of(
    st.floats(min_value=0, max_value=4e9, allow_nan=False),
    st.integers(0, 4_000_000_000),
    st.integers(0, 4_000_000_000).map(lambda s: s + 0.9999995),
    st.integers(0, 4_000_000_000).map(lambda s: s + 0.0000005),
)


@settings(max_examples=sized(1000, 3000), deadline=None)
@given(times)
def test_timestamps_match_datetime(value: float) -> None:
    moment = datetime.datetime.fromtimestamp(float(value), tz=UTC)
    assert iso_seconds(value) == moment.isoformat(timespec="seconds").replace("+00:00", "Z")
    assert iso_full(value) == moment.isoformat().replace("+00:00", "Z")
    if value:
        assert local_time(value) == datetime.datetime.fromtimestamp(value).strftime("%Y-%m-%d %H:%M:%S")


@settings(max_examples=sized(200, 500), deadline=None)
@given(st.lists(st.lists(st.sampled_from(["", "a", "b c", " "]), max_size=5), max_size=6))
def test_streamed_joins_match_the_whole_text(batches: list[list[str]]) -> None:
    join, strip = LineJoin(), RStrip()
    lines = [line for batch in batches for line in batch]
    whole = list(lines)
    while whole and whole[-1] == "":
        whole.pop()
    assert "".join(join.add(b) for b in batches) + join.end() == "\n".join(whole) + "\n"
    text = ["\n".join(b) for b in batches]
    assert "".join(strip.add(t) for t in text) + strip.end() == "".join(text).rstrip()
