from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.route_command_result import RouteCommandResult
from ...models.route_switch import RouteSwitch
from ...types import Response


def _get_kwargs(
    *,
    body: RouteSwitch,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/gateway/route/switch",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | RouteCommandResult | None:
    if response.status_code == 200:
        response_200 = RouteCommandResult.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 408:
        response_408 = Problem.from_dict(response.json())

        return response_408

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

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
) -> Response[Problem | RouteCommandResult]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: RouteSwitch,
) -> Response[Problem | RouteCommandResult]:
    """Point a chat at an existing session (/resume)

     ``/resume <ref>``: the chat now points at that session (id, prefix or title, followed to its
    compression tip; reopened and re-peered); the one it leaves is ended ``session_switch``. 404
    ``route_not_found`` or ``session_not_found``, 409 ``ambiguous_session_ref`` with ``candidates``.

    Args:
        body (RouteSwitch): ``POST /gateway/route/switch``: ``/resume <ref>``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RouteCommandResult]
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
    body: RouteSwitch,
) -> Problem | RouteCommandResult | None:
    """Point a chat at an existing session (/resume)

     ``/resume <ref>``: the chat now points at that session (id, prefix or title, followed to its
    compression tip; reopened and re-peered); the one it leaves is ended ``session_switch``. 404
    ``route_not_found`` or ``session_not_found``, 409 ``ambiguous_session_ref`` with ``candidates``.

    Args:
        body (RouteSwitch): ``POST /gateway/route/switch``: ``/resume <ref>``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RouteCommandResult
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: RouteSwitch,
) -> Response[Problem | RouteCommandResult]:
    """Point a chat at an existing session (/resume)

     ``/resume <ref>``: the chat now points at that session (id, prefix or title, followed to its
    compression tip; reopened and re-peered); the one it leaves is ended ``session_switch``. 404
    ``route_not_found`` or ``session_not_found``, 409 ``ambiguous_session_ref`` with ``candidates``.

    Args:
        body (RouteSwitch): ``POST /gateway/route/switch``: ``/resume <ref>``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RouteCommandResult]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: RouteSwitch,
) -> Problem | RouteCommandResult | None:
    """Point a chat at an existing session (/resume)

     ``/resume <ref>``: the chat now points at that session (id, prefix or title, followed to its
    compression tip; reopened and re-peered); the one it leaves is ended ``session_switch``. 404
    ``route_not_found`` or ``session_not_found``, 409 ``ambiguous_session_ref`` with ``candidates``.

    Args:
        body (RouteSwitch): ``POST /gateway/route/switch``: ``/resume <ref>``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RouteCommandResult
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
