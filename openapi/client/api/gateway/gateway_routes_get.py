from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.gateway_routes_get_response_gateway_routes_get import GatewayRoutesGetResponseGatewayRoutesGet
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    session_key: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/gateway/routes/{session_key}".format(
            session_key=quote(str(session_key), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> GatewayRoutesGetResponseGatewayRoutesGet | Problem | None:
    if response.status_code == 200:
        response_200 = GatewayRoutesGetResponseGatewayRoutesGet.from_dict(response.json())

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
) -> Response[GatewayRoutesGetResponseGatewayRoutesGet | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    session_key: str,
    *,
    client: AuthenticatedClient,
) -> Response[GatewayRoutesGetResponseGatewayRoutesGet | Problem]:
    """Get one routing entry

     One routing entry exactly as ``sessions.json`` stores it. 404 ``route_not_found``.

    Args:
        session_key (str): A routing key exactly as `POST /gateway/route` answers it (e.g.
            `agent:main:telegram:dm:123456789`)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GatewayRoutesGetResponseGatewayRoutesGet | Problem]
    """

    kwargs = _get_kwargs(
        session_key=session_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    session_key: str,
    *,
    client: AuthenticatedClient,
) -> GatewayRoutesGetResponseGatewayRoutesGet | Problem | None:
    """Get one routing entry

     One routing entry exactly as ``sessions.json`` stores it. 404 ``route_not_found``.

    Args:
        session_key (str): A routing key exactly as `POST /gateway/route` answers it (e.g.
            `agent:main:telegram:dm:123456789`)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GatewayRoutesGetResponseGatewayRoutesGet | Problem
    """

    return sync_detailed(
        session_key=session_key,
        client=client,
    ).parsed


async def asyncio_detailed(
    session_key: str,
    *,
    client: AuthenticatedClient,
) -> Response[GatewayRoutesGetResponseGatewayRoutesGet | Problem]:
    """Get one routing entry

     One routing entry exactly as ``sessions.json`` stores it. 404 ``route_not_found``.

    Args:
        session_key (str): A routing key exactly as `POST /gateway/route` answers it (e.g.
            `agent:main:telegram:dm:123456789`)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GatewayRoutesGetResponseGatewayRoutesGet | Problem]
    """

    kwargs = _get_kwargs(
        session_key=session_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    session_key: str,
    *,
    client: AuthenticatedClient,
) -> GatewayRoutesGetResponseGatewayRoutesGet | Problem | None:
    """Get one routing entry

     One routing entry exactly as ``sessions.json`` stores it. 404 ``route_not_found``.

    Args:
        session_key (str): A routing key exactly as `POST /gateway/route` answers it (e.g.
            `agent:main:telegram:dm:123456789`)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GatewayRoutesGetResponseGatewayRoutesGet | Problem
    """

    return (
        await asyncio_detailed(
            session_key=session_key,
            client=client,
        )
    ).parsed
