"""Process-level tuning for ``hermes serve``, applied once the app is built, before it serves.

Both were measured on the append load of ``bench/append.py`` (16 clients, 2 cores):
- ``gc.freeze()``: the objects alive after start-up (FastAPI, pydantic, the route table) move out of the
  collector's sight; a full collection fell from 60-85 ms, during which every request waited, to 8-27 ms.
- A 1 ms GIL switch interval instead of 5 ms: the writer thread re-takes the GIL after every SQLite call, and
  with the event loop busy it waited up to a whole interval each time, stretching a 16-append group commit
  from ~6 ms to 30+ ms.
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
