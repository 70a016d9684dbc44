"""Which server process runs the background jobs (auto-prune, expiry finalisation, the FTS indexer, the
event-log prune).

On SQLite one server owns its file, so it always leads (:data:`ALWAYS_LEADER`; several processes on one file
are already serialised by the jobs' own leases). PostgreSQL replicas elect one leader
(:class:`app.storage.postgres.leader.AdvisoryLeader`). Services see only :class:`Leadership`: they hand
their periodic loop to :meth:`Leadership.while_leading`, which runs it while this process leads and cancels
it the moment leadership is lost.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Protocol

Job = Callable[[], Awaitable[None]]
"""A background loop: started afresh each time this process becomes the leader."""


class Leadership(Protocol):
    """This process's standing among the replicas that share one database."""

    @property
    def leading(self) -> bool:
        """Whether this process may run the background jobs right now."""

    async def while_leading(self, job: Job) -> None:
        """Run ``job()`` whenever this process leads, cancelling it when leadership is lost; returns when
        ``job`` returns (raises what it raises) and runs until cancelled otherwise."""


class AlwaysLeader:
    """The only process there is: every job runs, at once and for good."""

    @property
    def leading(self) -> bool:
        """Always."""
        return True

    async def while_leading(self, job: Job) -> None:
        """Run ``job()``."""
        await job()


ALWAYS_LEADER = AlwaysLeader()


async def supervise(is_leading: Callable[[], bool], job: Job, poll_s: float) -> None:
    """Run ``job()`` while ``is_leading()`` says so, looking every ``poll_s``: started when it turns true,
    cancelled (and awaited) when it turns false, started again on the next term."""
    while True:
        while not is_leading():
            await asyncio.sleep(poll_s)
        task = asyncio.ensure_future(job())
        try:
            while not task.done() and is_leading():
                await asyncio.wait({task}, timeout=poll_s)
        finally:
            if not task.done():
                task.cancel()
                # The job's cancellation is ours; the supervisor's own cancellation still propagates.
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if task.done() and not task.cancelled():
            task.result()
            return
