"""The lanes of a sync run (``app.cli.sync_lanes``): every row sent once, in file order within each lane, a
changed session with its first rows, and a cursor position that never passes an unacknowledged row, also
when a lane fails."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.cli.sync_lanes import Batch, Lanes, lineage_key

Row = tuple[int, str]


class Recorder:
    """A fake server: records batches as they are posted and checks each acknowledged position."""

    def __init__(self, rows: list[Row], seed: int, fail_at: int | None = None) -> None:
        self.rows = rows
        self.random = random.Random(seed)
        self.fail_at = fail_at
        self.lock = threading.Lock()
        self.posted: list[Batch] = []
        self.acked: set[int] = set()
        self.positions: list[int] = []

    def post(self, batch: Batch) -> list[dict[str, Any]]:
        time.sleep(self.random.random() / 2000)
        if self.fail_at is not None and any(row[0] == self.fail_at for row in batch.rows):
            raise ConnectionError("the server went away")
        with self.lock:
            self.posted.append(batch)
        return [{"messages_inserted": len(batch.rows)}]

    def acknowledged(self, batch: Batch, answers: list[dict[str, Any]], position: int) -> None:
        self.acked.update(row[0] for row in batch.rows)
        # The position may only cover rows the server acknowledged.
        assert all(row[0] in self.acked for row in self.rows if row[0] <= position), position
        self.positions.append(position)


def _lanes(recorder: Recorder, count: int, size: int, key: dict[str, int], start: int = 0) -> Lanes:
    return Lanes(
        count,
        size,
        id_at=0,
        session_at=1,
        key_of=key.__getitem__,
        session_rows=lambda ids: [{"id": sid} for sid in ids],
        post=recorder.post,
        acknowledged=recorder.acknowledged,
        start=start,
    )


_FILES = st.lists(st.sampled_from("abcdefg"), min_size=0, max_size=60)


@settings(max_examples=60, deadline=None)
@given(
    sessions=_FILES,
    count=st.integers(1, 4),
    size=st.integers(1, 7),
    page=st.integers(1, 9),
    seed=st.integers(0, 1000),
)
def test_every_row_once_in_order_per_lane_with_its_session_first(
    sessions: list[str], count: int, size: int, page: int, seed: int
) -> None:
    rows = [(i + 1, sid) for i, sid in enumerate(sessions)]
    key = {sid: ord(sid) % 3 for sid in "abcdefg"}  # three lineages: (a, d, g), (b, e), (c, f)
    recorder = Recorder(rows, seed)
    lanes = _lanes(recorder, count, size, key)
    waiting = set("abcdefg")

    def due(sid: str) -> bool:
        if sid not in waiting:
            return False
        waiting.remove(sid)
        return True

    try:
        for start in range(0, len(rows), page):
            lanes.deal(rows[start : start + page], due)
        lanes.finish()
    finally:
        lanes.close()
    sent = [row for batch in recorder.posted for row in batch.rows]
    assert sorted(sent) == rows
    assert all(0 < len(batch.rows) <= size for batch in recorder.posted)
    # Within a lineage the server sees the file's order; each changed session rides with its first row.
    for lineage in range(3):
        ids = [row[0] for batch in recorder.posted for row in batch.rows if key[row[1]] == lineage]
        assert ids == sorted(ids)
    riders = {s["id"]: batch for batch in recorder.posted for s in batch.sessions}
    assert set(riders) == set(sessions)
    for sid, batch in riders.items():
        first = next(row for row in rows if row[1] == sid)
        assert first in batch.rows
    assert recorder.positions == sorted(recorder.positions)
    assert recorder.positions[-1:] == ([rows[-1][0]] if rows else [])


@pytest.mark.parametrize("count", [1, 2, 3])
def test_a_failed_lane_sends_nothing_after_the_failure_and_the_position_stays_below_it(count: int) -> None:
    rows = [(i + 1, "abc"[i % 3]) for i in range(60)]
    recorder = Recorder(rows, seed=count, fail_at=31)
    lanes = _lanes(recorder, count, 4, {"a": 0, "b": 1, "c": 2}, start=0)
    with pytest.raises(ConnectionError):
        try:
            for start in range(0, len(rows), 5):
                lanes.deal(rows[start : start + 5], lambda sid: False)
            lanes.finish()
        finally:
            lanes.close()
    failed_session = rows[30][1]
    sent = [row for batch in recorder.posted for row in batch.rows]
    after = [row for row in sent if row[1] == failed_session and row[0] > 31]
    assert after == []  # nothing of that lane past the failed batch reached the server
    assert max(recorder.positions, default=0) < 31


def test_a_lineage_shares_one_key_and_a_cycle_ends() -> None:
    parents = {"child": "parent", "grandchild": "child", "parent": "root", "x": "y", "y": "x"}
    key = lineage_key(parents)
    assert len({key(s) for s in ("root", "parent", "child", "grandchild")}) == 1
    assert key("x") == key("y")
    assert key("alone") == lineage_key({})("alone")
