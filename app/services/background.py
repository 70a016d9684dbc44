"""The one way the services stop their background tasks, and the base of those that follow commits."""

from __future__ import annotations

import asyncio
import contextlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Coroutine
from typing import Any

from app.storage.commit_notice import CommitNotice
from app.storage.protocols import Store


async def cancel_and_wait(task: asyncio.Task[None] | None) -> None:
    """Cancel ``task`` (if any) and wait until it has finished unwinding."""
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


class CommitFollower(ABC):
    """A background service of one task that follows the writer's commit notices (:meth:`on_commit`)."""

    def __init__(self) -> None:
        self._task: asyncio.Task[None] | None = None
        self._unsubscribe: Callable[[], None] | None = None

    @abstractmethod
    def on_commit(self, notice: CommitNotice) -> None:
        """React to one commit notice, on the event loop: never blocks, never raises."""

    def _follow(self, work: Coroutine[Any, Any, None], name: str, store: Store) -> None:
        """Run ``work`` as the task and follow the store's commit notices."""
        self._task = asyncio.get_running_loop().create_task(work, name=name)
        self._unsubscribe = store.subscribe(self.on_commit)

    async def stop(self) -> None:
        """Stop following the commit notices, cancel the task and wait for it to unwind (a job already
        handed to the writer still commits)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        await cancel_and_wait(self._task)
        self._task = None
