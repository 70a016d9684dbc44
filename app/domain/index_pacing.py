"""How big the background indexer's next slice is, and how long it pauses: it yields to live writes.

On the bench corpus the trigram index costs less than half as much per message in slices of 1,024 as in
slices of 128 (FTS5 writes new segments per transaction), while a write queued behind a slice waits for
all of it. So the indexer takes big slices while nothing else waits for the writer, and small ones with a
pause between them as soon as something does. The pause keeps its share of a busy writer at
:data:`CONTENDED_SHARE`: a bulk sync or import queues its next batch as soon as one commits, and with a
fixed short pause the indexer took two thirds of the writer from it, in the slices it indexes least
efficiently; the backlog left drains in big slices once the writes stop.
"""

from __future__ import annotations

from dataclasses import dataclass

FIRST_SLICE = 256
MIN_SLICE, MAX_SLICE = 16, 8192
TARGET_IDLE_S = 0.25
TARGET_CONTENDED_S = 0.02
PAUSE_CONTENDED_S = 0.01
CONTENDED_SHARE = 0.25
MAX_GROWTH = 1.5


@dataclass(frozen=True)
class Pace:
    """The next slice (stored messages) and the pause before it."""

    slice_messages: int
    pause_s: float


def next_pace(slice_messages: int, elapsed_s: float, contended: bool) -> Pace:
    """Scale the slice towards the target time of the situation (shrink at once, grow by at most 1.5x);
    under contention, pause long enough for the last slice to stay within :data:`CONTENDED_SHARE`."""
    target = TARGET_CONTENDED_S if contended else TARGET_IDLE_S
    factor = min(MAX_GROWTH, target / max(elapsed_s, 1e-4))
    size = int(min(MAX_SLICE, max(MIN_SLICE, slice_messages * factor)))
    if not contended:
        return Pace(size, 0.0)
    return Pace(size, max(PAUSE_CONTENDED_S, elapsed_s * (1 / CONTENDED_SHARE - 1)))
