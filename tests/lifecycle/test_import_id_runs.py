"""Runs of message ids (the import backlog's unit): merging and overlap."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.domain.id_runs import merge_runs, overlap, run_size


def test_merge_joins_overlapping_and_adjacent_runs() -> None:
    assert merge_runs([(10, 12), (1, 3), (4, 5), (11, 20), (30, 30)]) == [(1, 5), (10, 20), (30, 30)]


def test_overlap_counts_shared_ids_once() -> None:
    assert overlap([(1, 10), (20, 30)], [(5, 25)]) == 6 + 6
    assert overlap([(1, 3)], [(4, 9)]) == 0
    assert run_size([(1, 5), (3, 7)]) == 7


runs = st.lists(
    st.tuples(st.integers(0, 60), st.integers(0, 8)).map(lambda t: (t[0], t[0] + t[1])), max_size=8
)


@given(runs, runs)
def test_against_sets(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> None:
    def ids(rs: list[tuple[int, int]]) -> set[int]:
        return {i for first, last in rs for i in range(first, last + 1)}

    assert run_size(a) == len(ids(a))
    assert overlap(a, b) == len(ids(a) & ids(b))
    assert ids(merge_runs(a)) == ids(a)
