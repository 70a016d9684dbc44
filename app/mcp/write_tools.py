"""The write tools, offered only with ``HERMES_MCP_WRITE=1``: a session's title and its pin, through the same
services (and so the same rules) as ``PATCH /sessions/{id}`` and ``PUT|DELETE /sessions/{id}/pin``."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import Field

from app.api.schemas.common import Title
from app.mcp.results import answer
from app.mcp.session_tools import SessionRef
from app.services import sessions as svc
from app.storage.protocols import Store

TITLE_DESCRIPTION = """\
Set or clear a session's title (null clears it). Titles are unique: a title another session holds is \
refused with code title_in_use, and the error suggests a free variant (`suggested_title`). Returns the \
session as session_get shows it."""

PIN_DESCRIPTION = """\
Pin a session (pinned=true) so prune, automatic prune and archive never remove it, or unpin it \
(pinned=false). Idempotent. Returns the session as session_get shows it."""

# Changes one session and can be repeated with the same result; nothing is deleted.
WRITES = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)


def register(server: MCPServer, db: Store) -> None:
    """Add ``session_title`` and ``session_pin`` to ``server``, writing ``db``."""

    async def session_title(
        session_id: SessionRef,
        title: Annotated[Title | None, Field(description="The new title; null clears it")],
    ) -> CallToolResult:
        return await answer(db.write(lambda tx: svc.update_session(tx, session_id, {"title": title}, None)))

    async def session_pin(
        session_id: SessionRef,
        pinned: Annotated[bool, Field(description="true pins, false unpins")] = True,
    ) -> CallToolResult:
        return await answer(db.write(lambda tx: svc.set_pinned(tx, session_id, pinned)))

    server.add_tool(session_title, title="Title a session", description=TITLE_DESCRIPTION, annotations=WRITES)
    server.add_tool(session_pin, title="Pin a session", description=PIN_DESCRIPTION, annotations=WRITES)
