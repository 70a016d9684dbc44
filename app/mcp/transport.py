"""``POST /mcp``'s transport for one run of the app, built on the first MCP request.

The MCP SDK is a large import and building its server validates every tool's signature; a server most of
whose clients never speak MCP (the agent, the CLI, the web page) pays for neither until one does. The SDK's
session manager then runs in a task of its own until the app stops, as it would have from the start.
"""

from __future__ import annotations

import importlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

import anyio
from anyio.abc import TaskGroup, TaskStatus
from starlette.types import Receive, Scope, Send

from app.settings import Settings
from app.storage.protocols import Store

if TYPE_CHECKING:
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager


class McpTransport:
    """Hands each request to the SDK's session manager, started on the first one."""

    def __init__(self, db: Store, settings: Settings, tasks: TaskGroup) -> None:
        self._db = db
        self._settings = settings
        self._tasks = tasks
        self._manager: StreamableHTTPSessionManager | None = None
        self._starting = anyio.Lock()
        self._stop = anyio.Event()

    async def handle_request(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer one ``POST /mcp`` request."""
        manager = self._manager or await self._started()
        await manager.handle_request(scope, receive, send)

    async def _started(self) -> StreamableHTTPSessionManager:
        async with self._starting:
            if self._manager is None:
                self._manager = await self._tasks.start(self._run)
        return self._manager

    async def _run(self, *, task_status: TaskStatus[StreamableHTTPSessionManager]) -> None:
        # The import is the larger part: off the event loop, which keeps serving meanwhile.
        server = await anyio.to_thread.run_sync(importlib.import_module, "app.mcp.server")
        manager = server.session_manager(self._db, self._settings)
        async with manager.run():
            task_status.started(manager)
            await self._stop.wait()

    def stop(self) -> None:
        """Let the session manager (if one started) shut down."""
        self._stop.set()


@asynccontextmanager
async def serving(db: Store, settings: Settings) -> AsyncIterator[McpTransport]:
    """The transport of ``POST /mcp`` for one run of the app (the SDK's session manager runs once only)."""
    async with anyio.create_task_group() as tasks:
        transport = McpTransport(db, settings, tasks)
        try:
            yield transport
        finally:
            transport.stop()
