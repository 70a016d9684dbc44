"""What the two backends' writer threads share: taking the jobs queued behind one into a single commit, and
answering a caller on an event loop."""

from __future__ import annotations

import asyncio
import queue
from collections.abc import Iterable
from concurrent.futures import Future
from typing import Any, Generic, TypeVar

T = TypeVar("T")

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


class LoopAnswer(Generic[T]):
    """Where a write job queued from an event loop is answered: :attr:`waiter`, a future of that loop, which
    the writer thread settles with one hop to the loop. It offers the calls a writer makes on a
    ``concurrent.futures.Future`` (what a caller off the loop waits on), without the condition and the
    chained future ``asyncio.wrap_future`` adds to every write."""

    __slots__ = ("loop", "waiter")

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.waiter: asyncio.Future[T] = self.loop.create_future()

    def set_running_or_notify_cancel(self) -> bool:
        """Whether the job may start: not when its caller gave up (its task was cancelled) before. Once it
        has started, the job runs to its end and is answered, though nobody may be waiting."""
        return not self.waiter.cancelled()

    def done(self) -> bool:
        """Whether the caller has stopped waiting (answers go to the loop, which settles the waiter later)."""
        return self.waiter.done()

    def set_result(self, result: T) -> None:
        """Answer ``result`` on the loop."""
        self._settle(result, None)

    def set_exception(self, error: BaseException) -> None:
        """Answer ``error`` on the loop."""
        self._settle(None, error)

    def _settle(self, result: T | None, error: BaseException | None) -> None:
        # As asyncio.wrap_future does: a closed loop has nobody left to answer.
        if not self.loop.is_closed():
            self.loop.call_soon_threadsafe(_settle, self.waiter, result, error)


def _settle(waiter: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if waiter.done():  # the caller was cancelled meanwhile
        return
    if error is not None:
        waiter.set_exception(error)
    else:
        waiter.set_result(result)


Answered = tuple[Future[Any] | LoopAnswer[Any], Any, BaseException | None]
"""A job's future or :class:`LoopAnswer`, its result, and its error (``None``: it succeeded)."""


def answer_all(answers: Iterable[Answered]) -> None:
    """Answer the callers of a commit's jobs, in order; those waiting on one event loop in a single hop to
    it, so a group of appends wakes the loop once rather than once per append."""
    hops: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], Any, BaseException | None]]] = {}
    for future, result, error in answers:
        if isinstance(future, LoopAnswer):
            hops.setdefault(future.loop, []).append((future.waiter, result, error))
        elif error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)
    for loop, settled in hops.items():
        if not loop.is_closed():
            loop.call_soon_threadsafe(_settle_each, settled)


def _settle_each(settled: list[tuple[asyncio.Future[Any], Any, BaseException | None]]) -> None:
    for waiter, result, error in settled:
        _settle(waiter, result, error)
