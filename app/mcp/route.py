"""``POST /mcp``: the MCP streamable HTTP endpoint, behind the bearer token like every API route, and
documented in the OpenAPI document like them; the SDK's transport reads the request and writes the answer."""

from __future__ import annotations

from fastapi import Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from app.api.error_docs import READ
from app.api.operations import api_router, operation
from app.mcp.transport import McpTransport

router = api_router("MCP")

_DESCRIPTION = (
    "The [Model Context Protocol](https://modelcontextprotocol.io) over streamable HTTP, stateless, with "
    "JSON answers: one JSON-RPC message per request (`initialize`, `tools/list`, `tools/call`, "
    "`resources/templates/list`, `resources/read`, ...), sent with `Accept: application/json, "
    "text/event-stream` and answered as `application/json` (202 with no body for a notification). "
    "Tools: `session_search` (the agent's own recall tool: discover, scroll, read, browse, as "
    "`GET /search`), `sessions_list` (`GET /sessions`), `session_get` (a session and its recap), "
    "`session_messages` (`GET /sessions/{id}/messages`); with `HERMES_MCP_WRITE=1` also `session_title` "
    "and `session_pin`. "
    "Resource template: `hermes://sessions/{session_id}/transcript.md` (the Markdown export). The "
    "transport refuses a message it cannot take with 400 (not `Content-Type: application/json`, not JSON, "
    "not JSON-RPC) or 406 (`Accept` lacks `application/json`); a tool's refusal is a result with "
    "`isError: true`."
)

_JSON_RPC = {"type": "object", "description": "A JSON-RPC 2.0 message", "additionalProperties": True}
_CALL = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "tools/call",
    "params": {"name": "session_search", "arguments": {"query": "nginx logrotate", "limit": 3}},
}
_RESULT = {
    "jsonrpc": "2.0",
    "id": 1,
    "result": {
        "content": [
            {
                "type": "text",
                "text": '{"success":true,"mode":"discover","query":"nginx logrotate","results":[],"count":0,'
                '"scan_capped":false,"message":"No matching sessions found."}',
            }
        ],
        "isError": False,
    },
}


class _Transported(Response):
    """The request handed, unread, to the MCP transport, which writes the answer itself."""

    def __init__(self, transport: McpTransport) -> None:
        super().__init__()
        self._transport = transport

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self._transport.handle_request(scope, receive, send)


@router.post(
    "/mcp",
    **operation(
        "mcp-message",
        "Model Context Protocol (streamable HTTP)",
        None,
        READ,
        ok={
            200: {
                "description": "The JSON-RPC response",
                "content": {"application/json": {"schema": _JSON_RPC, "example": _RESULT}},
            },
            202: {"description": "A notification or response accepted (no body)"},
        },
        description=_DESCRIPTION,
        response_class=Response,
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": _JSON_RPC, "example": _CALL}},
            }
        },
    ),
)
async def mcp(request: Request) -> Response:
    """Hand the request to the MCP transport."""
    return _Transported(request.app.state.mcp)
