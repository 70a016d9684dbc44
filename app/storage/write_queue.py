"""What the two backends' writer threads share: taking the jobs queued behind one into a single commit."""

from __future__ import annotations

import queue
from typing import Any

STOP = object()
"""Put on a writer's queue to end its thread(s) once the jobs queued before it are done."""


def take_batch(jobs: queue.SimpleQueue[Any], first: Any, most: int) -> tuple[list[Any], bool]:
    """``first`` and the jobs already queued behind it, ``most`` in all at the most, without waiting; and
    whether :data:`STOP` came next (it is taken off the queue)."""
    batch = [first]
    while len(batch) < most:
        try:
            nxt = jobs.get_nowait()
        except queue.Empty:
            break
        if nxt is STOP:
            return batch, True
        batch.append(nxt)
    return batch, False
