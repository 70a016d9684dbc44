"""The MCP server for one run of the app: the SDK's ``MCPServer`` with our tools and resources, served on the
SDK's streamable HTTP transport in stateless JSON mode.

Stateless: every ``POST /mcp`` is answered on its own, with no session kept between requests, so a restart,
another PostgreSQL replica behind a load balancer, or an idle client loses nothing; none of the tools needs
the server to call back into the client. JSON mode: each answer is one ``application/json`` body rather
than an event stream, which is all a request-response tool call needs.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

from mcp.server.mcpserver import MCPServer
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings

from app import __version__
from app.mcp import search_tool, session_tools, transcripts, write_tools
from app.settings import Settings
from app.storage.protocols import Store

INSTRUCTIONS = (
    "The session history of the Hermes AI agent: every conversation it had (CLI, messaging gateways, cron "
    "jobs), searchable and readable. Recall what was said with session_search; find sessions by date, "
    "place, model or cost with sessions_list; look at one with session_get and session_messages, or attach "
    "its transcript (hermes://sessions/{session_id}/transcript.md)."
)


@contextmanager
def _root_logging_kept() -> Iterator[None]:
    # MCPServer's constructor calls logging.basicConfig, which gives an unconfigured root logger a Rich
    # handler at INFO. The server's logging is uvicorn's configuration (app.api.server.log_config): put the
    # root logger back as it was.
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        yield
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)


def build_server(db: Store, *, writes: bool) -> MCPServer:
    """The MCP server over ``db``: the read tools and the transcript resource, and the write tools when
    ``writes`` (``HERMES_MCP_WRITE``)."""
    with _root_logging_kept():
        server: MCPServer = MCPServer("hermes-sessions", version=__version__, instructions=INSTRUCTIONS)
    search_tool.register(server, db)
    session_tools.register(server, db)
    transcripts.register(server, db)
    if writes:
        write_tools.register(server, db)
    return server


def session_manager(db: Store, settings: Settings) -> StreamableHTTPSessionManager:
    """The transport of ``POST /mcp`` for one run of the app, not yet running (it runs once only)."""
    server = build_server(db, writes=settings.mcp_write)
    server.streamable_http_app(
        stateless_http=True,
        json_response=True,
        # The edge already refuses bodies over HERMES_MAX_BODY_BYTES (413 problem+json) and foreign Host
        # names (app.api.middleware.HostPolicy, the same DNS-rebinding guard as every route).
        max_request_body_size=settings.max_body_bytes,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    return server.session_manager
