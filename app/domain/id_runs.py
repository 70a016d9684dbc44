"""Runs of consecutive message ids (``first..last``, both inclusive): merging and measuring them."""

from __future__ import annotations

from collections.abc import Iterable

Run = tuple[int, int]
# The largest message id a store holds (a signed 64-bit integer): ``has_queued(ANY_ID)`` asks whether
# anything at all is queued.
ANY_ID = 2**63 - 1


def merge_runs(runs: Iterable[Run]) -> list[Run]:
    """Sorted, with overlapping and adjacent runs joined."""
    merged: list[Run] = []
    for first, last in sorted(runs):
        if merged and first <= merged[-1][1] + 1:
            if last > merged[-1][1]:
                merged[-1] = (merged[-1][0], last)
        else:
            merged.append((first, last))
    return merged


def run_size(runs: Iterable[Run]) -> int:
    """How many ids the runs cover (overlaps counted once)."""
    return sum(last - first + 1 for first, last in merge_runs(runs))


def overlap(a: Iterable[Run], b: Iterable[Run]) -> int:
    """How many ids lie in both ``a`` and ``b``."""
    left, right = merge_runs(a), merge_runs(b)
    i = j = total = 0
    while i < len(left) and j < len(right):
        lo = max(left[i][0], right[j][0])
        hi = min(left[i][1], right[j][1])
        if lo <= hi:
            total += hi - lo + 1
        if left[i][1] < right[j][1]:
            i += 1
        else:
            j += 1
    return total
