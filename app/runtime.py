"""Process-level tuning for ``hermes serve``, applied once the app is built, before it serves.

Both were chosen on the append load of ``bench/append.py`` (figures in docs/benchmarks.md):
- ``gc.freeze()``: the objects alive after start-up (FastAPI, pydantic, the route table) move out of the
  collector's sight, so a full collection, during which every request waits, walks far fewer objects.
- A short GIL switch interval: the writer thread re-takes the GIL after every SQLite call, and with the event
  loop busy it waited up to a whole interval each time, stretching every group commit several-fold.
"""

from __future__ import annotations

import gc
import sys

SWITCH_INTERVAL_S = 0.001


def tune_for_serving() -> None:
    """Freeze the start-up heap and shorten the GIL switch interval (process-wide)."""
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    gc.collect()
    gc.freeze()
