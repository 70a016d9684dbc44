"""The gateway's expiry watcher: the timing of the passes that end chats their reset policy has expired.

What a pass does is a routing transition (``app.services.gateway``); this module only decides when passes
run: once at start the stale-entry self-heal, then a first pass after a pause and one every interval, while
this process leads the replicas. A failed pass is logged and the next one still comes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import KW_ONLY, dataclass, field

from app.services.background import cancel_and_wait, log_failure
from app.storage.leadership import Leadership

log = logging.getLogger(__name__)

EXPIRY_FIRST_S = 60.0
EXPIRY_INTERVAL_S = 300.0
EXPIRY_GRACE_S = 30.0


@dataclass(eq=False)
class ExpiryWatcher:
    """Runs ``prune_stale`` once, then ``expire_once`` every ``interval_s``, while leading."""

    prune_stale: Callable[[], Awaitable[int]]
    expire_once: Callable[[], Awaitable[int]]
    leadership: Leadership
    _: KW_ONLY
    first_s: float = EXPIRY_FIRST_S
    interval_s: float = EXPIRY_INTERVAL_S
    _task: asyncio.Task[None] | None = field(default=None, init=False)

    def start(self) -> None:
        """Start watching (on the running event loop)."""
        self._task = asyncio.create_task(self.leadership.while_leading(self._watch), name="gateway-expiry")

    async def stop(self) -> None:
        """Stop watching and wait for a pass in progress to unwind."""
        await cancel_and_wait(self._task)
        self._task = None

    async def _watch(self) -> None:
        try:
            await self.prune_stale()
        except Exception as exc:
            log_failure(log, "stale routing entries not pruned", exc)
        await asyncio.sleep(self.first_s)
        while True:
            try:
                await self.expire_once()
            except Exception as exc:
                log_failure(log, "gateway expiry pass skipped", exc)
            await asyncio.sleep(self.interval_s)
