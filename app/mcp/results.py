"""How a tool answers: the body as JSON text (what a model reads) and as structured content (what a program
reads), and a service's refusal as a tool error in the agent's own error shape."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

import orjson
from mcp_types import CallToolResult, TextContent

from app.api.responses import encode_body
from app.errors import HermesError


def tool_result(body: Any) -> CallToolResult:
    """``body`` as the HTTP route would send it (the same encoder, so a value JSON cannot carry is answered
    as the unrenderable marker here too), as text and as structured content."""
    encoded = encode_body(body)
    return CallToolResult(
        content=[TextContent(type="text", text=encoded.decode())], structured_content=orjson.loads(encoded)
    )


def refusal(exc: HermesError) -> CallToolResult:
    """A service's refusal (unknown session, title in use, ...) as a tool error the model can read and act
    on, not a protocol error: the agent's tool error (``{"success": false, "error": ...}``) with our stable
    ``code`` and the problem's extra members (``holder``, ``suggested_title``, ...) beside it."""
    body = {"success": False, "error": exc.detail, "code": exc.code, **exc.extra}
    return CallToolResult(content=[TextContent(type="text", text=encode_body(body).decode())], is_error=True)


async def answer(body: Awaitable[Any]) -> CallToolResult:
    """The tool's answer once ``body`` is read: its result, or the refusal the services raised."""
    try:
        return tool_result(await body)
    except HermesError as exc:
        return refusal(exc)
