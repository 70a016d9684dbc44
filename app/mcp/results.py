"""How a tool answers: the body as JSON text, as the agent's own tools answer (a model reads it as it is, a
program parses it), and a service's refusal as a tool error in the agent's own error shape.

No ``structuredContent`` beside the text: it would be a second copy of every answer, and building and
serialising it through the SDK's models is most of what the transport adds to a search."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

from mcp_types import CallToolResult, TextContent

from app.api.responses import encode_body
from app.errors import HermesError


def _text(body: Any) -> list[TextContent]:
    # The HTTP routes' encoder: a value JSON cannot carry is answered as the unrenderable marker here too.
    return [TextContent(type="text", text=encode_body(body).decode())]


def tool_result(body: Any) -> CallToolResult:
    """``body`` as the HTTP route would send it."""
    return CallToolResult(content=_text(body))


def refusal(exc: HermesError) -> CallToolResult:
    """A service's refusal (unknown session, title in use, ...) as a tool error the model can read and act
    on, not a protocol error: the agent's tool error (``{"success": false, "error": ...}``) with our stable
    ``code`` and the problem's extra members (``holder``, ``suggested_title``, ...) beside it."""
    body = {"success": False, "error": exc.detail, "code": exc.code, **exc.extra}
    return CallToolResult(content=_text(body), is_error=True)


async def answer(body: Awaitable[Any]) -> CallToolResult:
    """The tool's answer once ``body`` is read: its result, or the refusal the services raised."""
    try:
        return tool_result(await body)
    except HermesError as exc:
        return refusal(exc)
