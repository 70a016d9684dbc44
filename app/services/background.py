"""The one way the services stop their background tasks and log a pass that failed, and the base of those
that follow commits."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from abc import ABC, abstractmethod
from collections.abc import Callable, Coroutine
from typing import Any

from app.errors import HermesError
from app.storage.commit_notice import CommitNotice
from app.storage.errors import StorageError
from app.storage.protocols import Store


async def cancel_and_wait(task: asyncio.Task[None] | None) -> None:
    """Cancel ``task`` (if any) and wait until it has finished unwinding."""
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


def log_failure(log: logging.Logger, what: str, exc: Exception, *foreseen: type[Exception]) -> None:
    """Log a background pass that failed and goes on (an ended task would stop its work until a restart):
    a traceback only for a failure nobody foresaw (I/O, storage, the service's own errors, ``foreseen``)."""
    expected = isinstance(exc, (OSError, StorageError, HermesError, *foreseen))
    log.warning("%s: %s", what, exc.detail if isinstance(exc, HermesError) else exc, exc_info=not expected)


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
