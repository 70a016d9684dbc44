"""Group commit on PostgreSQL: write jobs queue for a few lanes, and a lane runs whatever has queued in one
transaction, answering the callers after its COMMIT.

Why: a transaction of its own cost every job a ``BEGIN``, a ``COMMIT``, the event-order lock and a
``NOTIFY`` on the database, and three round trips (with their thread wake-ups) on the server. Under many
concurrent writers (single-message appends from many clients) that was most of the cost of a write. A lane
takes every job waiting (up to ``write_batch_max``) and pays that once for all of them, as the SQLite
writer does.

A job gets no savepoint of its own: on PostgreSQL each would cost two more round trips per job. When a job
fails, the transaction rolls back; that job then runs alone (with the retries of serialization failures,
deadlocks and title races, and its error goes to its caller), and the others run together again. Jobs are
written to be run again (retries did so before), and what a rolled-back run wrote was never seen. After
:data:`_REGROUPS` failures in one group the rest run one per transaction, so a group of failing jobs costs
linear, not quadratic, work.

Two lanes: while one waits on the database, the other collects and runs the next group. Jobs in two lanes
are concurrent transactions, as any two replicas' are.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from app.storage.write_queue import STOP, LoopAnswer, answer_all, take_batch

T = TypeVar("T")
log = logging.getLogger(__name__)

LANES = 2
"""Threads committing groups (each on its own pooled connection)."""
_REGROUPS = 2


@dataclass
class Job(Generic[T]):
    """One queued write: the function and the future its caller waits on."""

    fn: Callable[[Any], T]
    lead: Any = None
    future: Future[T] | LoopAnswer[T] = field(default_factory=Future)


class JobFailed(Exception):
    """Raised by a group runner: the job at ``index`` raised ``error`` and the transaction rolled back."""

    def __init__(self, index: int, error: BaseException) -> None:
        super().__init__(index, error)
        self.index = index
        self.error = error


RunGroup = Callable[[Sequence[Callable[[Any], Any]], Sequence[Any]], list[Any]]
"""Runs the functions in one transaction and commits, given each one's ``lead`` (what :meth:`submit` was
told it does first, or ``None``); their results in order, or :class:`JobFailed`."""
RunAlone = Callable[[Callable[[Any], Any]], Any]
"""Runs one function in a transaction of its own (with retries); its result, or raises its error."""


class GroupCommitter:
    """The lanes of one store: :meth:`submit` queues a job, the lanes run and commit them in groups."""

    def __init__(
        self, run_group: RunGroup, run_alone: RunAlone, *, batch_max: int, lanes: int = LANES
    ) -> None:
        self._run_group = run_group
        self._run_alone = run_alone
        self._batch_max = batch_max
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._threads = [
            threading.Thread(target=self._lane, name=f"hermes-pg-lane-{n}", daemon=True) for n in range(lanes)
        ]
        # Taken to queue a job and to queue the stop: every job accepted is ahead of the stop in the queue.
        self._accepting = threading.Lock()
        self._stopped = False

    def start(self) -> None:
        """Start the lanes."""
        for thread in self._threads:
            thread.start()

    def queue_depth(self) -> int:
        """Jobs waiting for a lane."""
        return self._queue.qsize()

    def submit(self, fn: Callable[[Any], T], lead: Any = None) -> Future[T]:
        """Queue ``fn(tx)``; the future resolves after the COMMIT that includes it (or with its error).
        ``lead`` goes to the group runner with it (a job run alone needs none)."""
        future: Future[T] = Future()
        self._put(Job(fn, lead, future))
        return future

    async def write(self, fn: Callable[[Any], T], lead: Any = None) -> T:
        """:meth:`submit` from the event loop: the committed result."""
        answer: LoopAnswer[T] = LoopAnswer()
        self._put(Job(fn, lead, answer))
        return await answer.waiter

    def _put(self, job: Job[Any]) -> None:
        with self._accepting:
            if self._stopped:
                raise RuntimeError("the store is closed")
            self._queue.put(job)

    def stop(self) -> None:
        """Run everything queued, then stop the lanes."""
        with self._accepting:
            self._stopped = True
            self._queue.put(STOP)
        for thread in self._threads:
            if thread.is_alive():
                thread.join()

    def _lane(self) -> None:
        while True:
            item = self._queue.get()
            if item is STOP:
                self._queue.put(STOP)  # for the other lanes
                return
            group, stopped = take_batch(self._queue, item, self._batch_max)
            if stopped:
                self._queue.put(STOP)  # seen again at the next get, after this group commits
            # A caller that gave up before its job started gets nothing written; a started job is answered.
            self._commit([job for job in group if job.future.set_running_or_notify_cancel()])

    def _commit(self, group: list[Job[Any]]) -> None:
        failures = 0
        while len(group) > 1 and failures < _REGROUPS:
            try:
                results = self._run_group([job.fn for job in group], [job.lead for job in group])
            except JobFailed as failed:
                failures += 1
                self._alone(group.pop(failed.index))
                continue
            except BaseException:
                log.debug("a group commit failed; its jobs run one by one", exc_info=True)
                break
            answer_all((job.future, result, None) for job, result in zip(group, results, strict=True))
            return
        for job in group:
            self._alone(job)

    def _alone(self, job: Job[Any]) -> None:
        try:
            job.future.set_result(self._run_alone(job.fn))
        except BaseException as exc:  # the job's caller receives it
            job.future.set_exception(exc)
