from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.route_message import RouteMessage
from ...models.route_response import RouteResponse
from ...types import Response


def _get_kwargs(
    *,
    body: RouteMessage,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/gateway/route",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | RouteResponse | None:
    if response.status_code == 200:
        response_200 = RouteResponse.from_dict(response.json())

        return response_200

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

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

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

    if response.status_code == 507:
        response_507 = Problem.from_dict(response.json())

        return response_507

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | RouteResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: RouteMessage,
) -> Response[Problem | RouteResponse]:
    """Route an incoming message to its session

     Which session this message belongs to, exactly as the agent's gateway decides: the session key,
    a reset by policy (idle, daily, both; never while a reported background process is younger than
    ``bg_process_max_age_hours``), ``suspended`` and ``resume_pending`` handling, a lost entry
    recovered,
    or a new session (``YYYYMMDD_HHMMSS_<8 hex>``, source = platform, the chat columns). ``notice`` is
    the
    agent's reset notice when it would send one. Every call counts as activity. 422
    ``unknown_platform``,
    ``invalid_chat_type``.

    Args:
        body (RouteMessage): ``POST /gateway/route``: the message source (the agent's
            ``SessionSource``) and routing flags.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RouteResponse]
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
    body: RouteMessage,
) -> Problem | RouteResponse | None:
    """Route an incoming message to its session

     Which session this message belongs to, exactly as the agent's gateway decides: the session key,
    a reset by policy (idle, daily, both; never while a reported background process is younger than
    ``bg_process_max_age_hours``), ``suspended`` and ``resume_pending`` handling, a lost entry
    recovered,
    or a new session (``YYYYMMDD_HHMMSS_<8 hex>``, source = platform, the chat columns). ``notice`` is
    the
    agent's reset notice when it would send one. Every call counts as activity. 422
    ``unknown_platform``,
    ``invalid_chat_type``.

    Args:
        body (RouteMessage): ``POST /gateway/route``: the message source (the agent's
            ``SessionSource``) and routing flags.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RouteResponse
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: RouteMessage,
) -> Response[Problem | RouteResponse]:
    """Route an incoming message to its session

     Which session this message belongs to, exactly as the agent's gateway decides: the session key,
    a reset by policy (idle, daily, both; never while a reported background process is younger than
    ``bg_process_max_age_hours``), ``suspended`` and ``resume_pending`` handling, a lost entry
    recovered,
    or a new session (``YYYYMMDD_HHMMSS_<8 hex>``, source = platform, the chat columns). ``notice`` is
    the
    agent's reset notice when it would send one. Every call counts as activity. 422
    ``unknown_platform``,
    ``invalid_chat_type``.

    Args:
        body (RouteMessage): ``POST /gateway/route``: the message source (the agent's
            ``SessionSource``) and routing flags.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RouteResponse]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: RouteMessage,
) -> Problem | RouteResponse | None:
    """Route an incoming message to its session

     Which session this message belongs to, exactly as the agent's gateway decides: the session key,
    a reset by policy (idle, daily, both; never while a reported background process is younger than
    ``bg_process_max_age_hours``), ``suspended`` and ``resume_pending`` handling, a lost entry
    recovered,
    or a new session (``YYYYMMDD_HHMMSS_<8 hex>``, source = platform, the chat columns). ``notice`` is
    the
    agent's reset notice when it would send one. Every call counts as activity. 422
    ``unknown_platform``,
    ``invalid_chat_type``.

    Args:
        body (RouteMessage): ``POST /gateway/route``: the message source (the agent's
            ``SessionSource``) and routing flags.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RouteResponse
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
