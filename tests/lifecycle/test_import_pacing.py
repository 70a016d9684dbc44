"""The background indexer's pacing: big slices when alone, small ones with a pause under live writes."""

from __future__ import annotations

import pytest

from app.domain.index_pacing import (
    CONTENDED_SHARE,
    MAX_SLICE,
    MIN_SLICE,
    PAUSE_CONTENDED_S,
    TARGET_CONTENDED_S,
    TARGET_IDLE_S,
    next_pace,
)


def test_alone_it_grows_by_at_most_half_towards_the_idle_target() -> None:
    assert next_pace(1000, TARGET_IDLE_S / 10, contended=False).slice_messages == 1500
    assert next_pace(1000, TARGET_IDLE_S * 2, contended=False).slice_messages == 500
    assert next_pace(1000, 0.0, contended=False).pause_s == 0.0


def test_under_live_writes_it_shrinks_at_once_and_pauses() -> None:
    pace = next_pace(1000, TARGET_CONTENDED_S * 8, contended=True)
    assert pace.slice_messages == 125
    # The pause leaves the writer to the live writes for three times the slice's own time...
    assert pace.pause_s == pytest.approx(TARGET_CONTENDED_S * 8 * 3)
    assert TARGET_CONTENDED_S * 8 / (TARGET_CONTENDED_S * 8 + pace.pause_s) == pytest.approx(CONTENDED_SHARE)
    # ... and never less than the shortest pause.
    assert next_pace(1000, 0.0001, contended=True).pause_s == PAUSE_CONTENDED_S


def test_bounds() -> None:
    assert next_pace(MIN_SLICE, 10.0, contended=True).slice_messages == MIN_SLICE
    assert next_pace(MAX_SLICE, 1e-6, contended=False).slice_messages == MAX_SLICE
