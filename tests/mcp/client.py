"""The MCP SDK's own client over streamable HTTP, for the tests: one connection per block, the bearer token
in its HTTP client, and the store the same server answers over HTTP to compare with."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import httpx
import httpx2
import orjson
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult

from tests.conftest import TOKEN

T = TypeVar("T")


@asynccontextmanager
async def connected(base_url: str, token: str | None = TOKEN) -> AsyncIterator[ClientSession]:
    """An initialized MCP session with the server at ``base_url`` (``token=None``: no credentials)."""
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=60) as http,
        streamable_http_client(f"{base_url}/mcp", http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


def with_session(base_url: str, work: Callable[[ClientSession], Awaitable[T]]) -> T:
    """``work`` run with a fresh session, from synchronous test code."""

    async def run() -> T:
        async with connected(base_url) as session:
            return await work(session)

    return asyncio.run(run())


def call(base_url: str, tool: str, arguments: dict[str, Any]) -> CallToolResult:
    """One tool call on a fresh session."""
    return with_session(base_url, lambda s: s.call_tool(tool, arguments))


def calls(base_url: str, tool: str, argument_sets: list[dict[str, Any]]) -> list[CallToolResult]:
    """Several calls of one tool on one session, in order."""

    async def run(session: ClientSession) -> list[CallToolResult]:
        return [await session.call_tool(tool, args) for args in argument_sets]

    return with_session(base_url, run)


def body(result: CallToolResult) -> Any:
    """A successful result's JSON text (the one content block, as the agent's tools answer), parsed."""
    assert not result.is_error, result.content
    (text,) = result.content
    assert text.type == "text"
    return orjson.loads(text.text)


def refusal(result: CallToolResult) -> str:
    """A tool error's text (the SDK's argument errors are plain text, ours the agent's JSON)."""
    assert result.is_error, result.content
    (text,) = result.content
    assert text.type == "text"
    return text.text


def refusal_code(result: CallToolResult) -> str:
    """Our tool error's stable code, from the agent's error shape."""
    error = orjson.loads(refusal(result))
    assert error["success"] is False and error["error"]
    return str(error["code"])


def http_get(base_url: str, path: str, **params: Any) -> Any:
    """The same question over the HTTP API, as JSON."""
    with httpx.Client(base_url=base_url, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60) as c:
        response = c.get(path, params=params)
    assert response.status_code == 200, response.text
    return response.json()
