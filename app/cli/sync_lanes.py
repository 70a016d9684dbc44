"""Lanes of one sync run: message batches in flight at once, in order within each lane.

A sync sent one batch and waited for its answer before reading the next page, so the server parsed,
checked and wrote one batch while the client, the server's other thread and the database mostly waited.
Here the rows read are dealt to lanes by a key (the sync uses the session's lineage: a session, its parent
and its children always share a lane), each lane sends its batches in order on a thread of its own, and
the page reader runs ahead of them by at most :data:`AHEAD` batches a lane. Within a lane the order is the
file's, so a session's row goes before its messages and a parent before the children that name it (a
link the server makes when it meets them); across lanes nothing depends on the order.

The cursor may only record a position every row before which the server holds: :meth:`Lanes.position`
is the lowest position each lane has been acknowledged up to (a lane holding nothing counts as up to the
last row read).
"""

from __future__ import annotations

import threading
import zlib
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import KW_ONLY, InitVar, dataclass, field
from typing import Any

Row = tuple[Any, ...]

AHEAD = 2
"""Batches a lane may have submitted and not yet acknowledged before the reader waits for it."""


@dataclass(frozen=True)
class Batch:
    """Rows of one lane, the rows of the changed sessions whose first messages they are, and the position
    the lane is acknowledged up to once the server took the batch."""

    sessions: list[dict[str, Any]]
    rows: list[Row]
    up_to: int


@dataclass
class _Lane:
    executor: ThreadPoolExecutor
    rows: list[Row] = field(default_factory=list)
    due: list[str] = field(default_factory=list)
    submitted: deque[Future[None]] = field(default_factory=deque)
    in_flight: int = 0
    acked: int = 0
    failed: bool = False


Post = Callable[[Batch], list[dict[str, Any]]]
"""Sends one batch; the server's answers (called on the lane's thread, in the lane's order)."""
Acknowledged = Callable[[Batch, list[dict[str, Any]], int], None]
"""Records a batch's answers and the position now acknowledged (called under :attr:`Lanes.lock`)."""


@dataclass(eq=False)
class Lanes:
    """``count`` lanes sending batches of ``batch_size`` rows: ``key_of`` picks a session's lane,
    ``session_rows`` reads the rows of changed sessions (on the reader's thread, as the pages are read),
    ``post`` sends a batch and ``acknowledged`` records it."""

    count: InitVar[int]
    batch_size: int
    _: KW_ONLY
    id_at: int
    session_at: int
    key_of: Callable[[str], int]
    session_rows: Callable[[list[str]], list[dict[str, Any]]]
    post: Post
    acknowledged: Acknowledged
    start: InitVar[int]
    lock: threading.Lock = field(default_factory=threading.Lock, init=False)
    _read: int = field(init=False)
    _lanes: list[_Lane] = field(init=False)

    def __post_init__(self, count: int, start: int) -> None:
        self._read = start
        self._lanes = [
            _Lane(ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"hermes-sync-{i}"), acked=start)
            for i in range(count)
        ]

    def deal(self, page: Sequence[Row], due: Callable[[str], bool]) -> None:
        """Give each row of ``page`` (rows in id order, after every row dealt before) to its session's lane;
        a session for which ``due(session)`` holds rides with its first row. Lanes holding a full batch send
        it; raises what a lane's send raised."""
        if not page:
            return
        with self.lock:
            for row in page:
                session = row[self.session_at]
                lane = self._lanes[self.key_of(session) % len(self._lanes)]
                if not lane.rows and not lane.in_flight:
                    # The server holds all this lane was given, so it is up to the row before this one:
                    # left at its last batch, the position would fall back below rows acknowledged since.
                    lane.acked = max(lane.acked, int(row[self.id_at]) - 1)
                if due(session):
                    lane.due.append(session)
                lane.rows.append(row)
            self._read = int(page[-1][self.id_at])
        for lane in self._lanes:
            while len(lane.rows) >= self.batch_size:
                self._submit(lane, self.batch_size)

    def finish(self) -> None:
        """Send what every lane still holds and wait until all is acknowledged (or raise the first error)."""
        for lane in self._lanes:
            if lane.rows:
                self._submit(lane, len(lane.rows))
        for lane in self._lanes:
            while lane.submitted:
                lane.submitted.popleft().result()

    def close(self) -> None:
        """Drop batches not started and wait for those in flight (their answers still count)."""
        for lane in self._lanes:
            for future in lane.submitted:
                future.cancel()
            lane.executor.shutdown(wait=True)

    def position(self) -> int:
        """The id every row before which (and at which) the server holds. Call under :attr:`lock`."""
        return min(lane.acked if lane.rows or lane.in_flight else self._read for lane in self._lanes)

    def _submit(self, lane: _Lane, size: int) -> None:
        rows, rest = lane.rows[:size], lane.rows[size:]
        sessions = {row[self.session_at] for row in rows}
        riding = [s for s in lane.due if s in sessions]
        with self.lock:
            lane.rows = rest
            lane.due = [s for s in lane.due if s not in sessions]
            up_to = int(rest[0][self.id_at]) - 1 if rest else self._read
            lane.in_flight += 1
        batch = Batch(self.session_rows(riding) if riding else [], rows, up_to)
        lane.submitted.append(lane.executor.submit(self._run, lane, batch))
        while len(lane.submitted) > AHEAD:
            lane.submitted.popleft().result()

    def _run(self, lane: _Lane, batch: Batch) -> None:
        # After a failure the lane sends nothing more (a later batch would store messages of a session
        # past ones the server never took), and the failed batch stays in flight: the position stays
        # below it, so the next run sends it again.
        if lane.failed:
            raise RuntimeError("an earlier batch of this lane failed")
        try:
            answers = self.post(batch)
        except BaseException:
            lane.failed = True
            raise
        with self.lock:
            lane.in_flight -= 1
            lane.acked = batch.up_to
            self.acknowledged(batch, answers, self.position())


def lineage_key(parents: dict[str, str]) -> Callable[[str], int]:
    """A session's lane key: a stable hash of its lineage's root (the ancestor reached by following the
    parents the file names), so every session of a lineage shares a lane."""
    roots: dict[str, str] = {}

    def root(session: str) -> str:
        path: list[str] = []
        node = session
        while node not in roots and node in parents and node not in path:
            path.append(node)
            node = parents[node]
        found = roots.get(node, node)
        for visited in path:
            roots[visited] = found
        return found

    return lambda session: zlib.crc32(root(session).encode("utf-8", "surrogatepass"))
