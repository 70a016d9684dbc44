from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.mcp_message_body import McpMessageBody
from ...models.mcp_message_response_200 import McpMessageResponse200
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    *,
    body: McpMessageBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/mcp",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | McpMessageResponse200 | Problem | None:
    if response.status_code == 200:
        response_200 = McpMessageResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 202:
        response_202 = cast(Any, None)
        return response_202

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 408:
        response_408 = Problem.from_dict(response.json())

        return response_408

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 414:
        response_414 = Problem.from_dict(response.json())

        return response_414

    if response.status_code == 421:
        response_421 = Problem.from_dict(response.json())

        return response_421

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

    if response.status_code == 431:
        response_431 = Problem.from_dict(response.json())

        return response_431

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Any | McpMessageResponse200 | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: McpMessageBody,
) -> Response[Any | McpMessageResponse200 | Problem]:
    """Model Context Protocol (streamable HTTP)

     The [Model Context Protocol](https://modelcontextprotocol.io) over streamable HTTP, stateless, with
    JSON answers: one JSON-RPC message per request (`initialize`, `tools/list`, `tools/call`,
    `resources/templates/list`, `resources/read`, ...), sent with `Accept: application/json, text/event-
    stream` and answered as `application/json` (202 with no body for a notification). Tools:
    `session_search` (the agent's own recall tool: discover, scroll, read, browse, as `GET /search`),
    `sessions_list` (`GET /sessions`), `session_get` (a session and its recap), `session_messages` (`GET
    /sessions/{id}/messages`); with `HERMES_MCP_WRITE=1` also `session_title` and `session_pin`.
    Resource template: `hermes://sessions/{session_id}/transcript.md` (the Markdown export). The
    transport refuses a message it cannot take with 400 (not `Content-Type: application/json`, not JSON,
    not JSON-RPC) or 406 (`Accept` lacks `application/json`); a tool's refusal is a result with
    `isError: true`.

    Args:
        body (McpMessageBody): A JSON-RPC 2.0 message

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | McpMessageResponse200 | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: McpMessageBody,
) -> Any | McpMessageResponse200 | Problem | None:
    """Model Context Protocol (streamable HTTP)

     The [Model Context Protocol](https://modelcontextprotocol.io) over streamable HTTP, stateless, with
    JSON answers: one JSON-RPC message per request (`initialize`, `tools/list`, `tools/call`,
    `resources/templates/list`, `resources/read`, ...), sent with `Accept: application/json, text/event-
    stream` and answered as `application/json` (202 with no body for a notification). Tools:
    `session_search` (the agent's own recall tool: discover, scroll, read, browse, as `GET /search`),
    `sessions_list` (`GET /sessions`), `session_get` (a session and its recap), `session_messages` (`GET
    /sessions/{id}/messages`); with `HERMES_MCP_WRITE=1` also `session_title` and `session_pin`.
    Resource template: `hermes://sessions/{session_id}/transcript.md` (the Markdown export). The
    transport refuses a message it cannot take with 400 (not `Content-Type: application/json`, not JSON,
    not JSON-RPC) or 406 (`Accept` lacks `application/json`); a tool's refusal is a result with
    `isError: true`.

    Args:
        body (McpMessageBody): A JSON-RPC 2.0 message

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | McpMessageResponse200 | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: McpMessageBody,
) -> Response[Any | McpMessageResponse200 | Problem]:
    """Model Context Protocol (streamable HTTP)

     The [Model Context Protocol](https://modelcontextprotocol.io) over streamable HTTP, stateless, with
    JSON answers: one JSON-RPC message per request (`initialize`, `tools/list`, `tools/call`,
    `resources/templates/list`, `resources/read`, ...), sent with `Accept: application/json, text/event-
    stream` and answered as `application/json` (202 with no body for a notification). Tools:
    `session_search` (the agent's own recall tool: discover, scroll, read, browse, as `GET /search`),
    `sessions_list` (`GET /sessions`), `session_get` (a session and its recap), `session_messages` (`GET
    /sessions/{id}/messages`); with `HERMES_MCP_WRITE=1` also `session_title` and `session_pin`.
    Resource template: `hermes://sessions/{session_id}/transcript.md` (the Markdown export). The
    transport refuses a message it cannot take with 400 (not `Content-Type: application/json`, not JSON,
    not JSON-RPC) or 406 (`Accept` lacks `application/json`); a tool's refusal is a result with
    `isError: true`.

    Args:
        body (McpMessageBody): A JSON-RPC 2.0 message

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | McpMessageResponse200 | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: McpMessageBody,
) -> Any | McpMessageResponse200 | Problem | None:
    """Model Context Protocol (streamable HTTP)

     The [Model Context Protocol](https://modelcontextprotocol.io) over streamable HTTP, stateless, with
    JSON answers: one JSON-RPC message per request (`initialize`, `tools/list`, `tools/call`,
    `resources/templates/list`, `resources/read`, ...), sent with `Accept: application/json, text/event-
    stream` and answered as `application/json` (202 with no body for a notification). Tools:
    `session_search` (the agent's own recall tool: discover, scroll, read, browse, as `GET /search`),
    `sessions_list` (`GET /sessions`), `session_get` (a session and its recap), `session_messages` (`GET
    /sessions/{id}/messages`); with `HERMES_MCP_WRITE=1` also `session_title` and `session_pin`.
    Resource template: `hermes://sessions/{session_id}/transcript.md` (the Markdown export). The
    transport refuses a message it cannot take with 400 (not `Content-Type: application/json`, not JSON,
    not JSON-RPC) or 406 (`Accept` lacks `application/json`); a tool's refusal is a result with
    `isError: true`.

    Args:
        body (McpMessageBody): A JSON-RPC 2.0 message

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | McpMessageResponse200 | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
