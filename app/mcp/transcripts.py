"""A session's transcript as a resource a client can attach: the Markdown document ``GET
/export?format=md&session_id=...`` streams (the agent's own Markdown export of one session)."""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError

from app.errors import SessionNotFound
from app.services import export as export_svc
from app.services import export_readable as readable
from app.storage.protocols import Store
from app.storage.rows import ExportFilter

URI_TEMPLATE = "hermes://sessions/{session_id}/transcript.md"

DESCRIPTION = (
    "A Hermes session's whole transcript as Markdown (user and assistant turns, tool output, timestamps), "
    "the document the agent's own `hermes sessions export --format md` writes. The session id comes from "
    "sessions_list or session_search."
)


def register(server: MCPServer, db: Store) -> None:
    """Add the transcript resource template to ``server``, reading ``db``."""

    @server.resource(
        URI_TEMPLATE,
        name="session-transcript",
        title="Session transcript",
        description=DESCRIPTION,
        mime_type="text/markdown",
    )
    async def transcript(session_id: str) -> str:
        try:
            await export_svc.check_export_target(db, session_id)
        except SessionNotFound as exc:
            raise ResourceNotFoundError(exc.detail) from exc
        request = readable.checked(readable.ExportRequest(fmt="md", flt=ExportFilter(session_id=session_id)))
        parts = [chunk async for chunk in readable.export_readable(db, request)]
        return b"".join(parts).decode()
