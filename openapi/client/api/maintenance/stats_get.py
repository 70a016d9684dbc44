from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.stats_out import StatsOut
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    include_fts: bool | Unset = False,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["include_fts"] = include_fts

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/stats",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | StatsOut | None:
    if response.status_code == 200:
        response_200 = StatsOut.from_dict(response.json())

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
) -> Response[Problem | StatsOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    include_fts: bool | Unset = False,
) -> Response[Problem | StatsOut]:
    """Store statistics

     Sessions and messages, sessions per source (all of them), database, WAL and free-page bytes.

    Args:
        include_fts (bool | Unset): also measure the FTS indexes' size (walks their pages: slower
            on big stores) Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | StatsOut]
    """

    kwargs = _get_kwargs(
        include_fts=include_fts,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    include_fts: bool | Unset = False,
) -> Problem | StatsOut | None:
    """Store statistics

     Sessions and messages, sessions per source (all of them), database, WAL and free-page bytes.

    Args:
        include_fts (bool | Unset): also measure the FTS indexes' size (walks their pages: slower
            on big stores) Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | StatsOut
    """

    return sync_detailed(
        client=client,
        include_fts=include_fts,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    include_fts: bool | Unset = False,
) -> Response[Problem | StatsOut]:
    """Store statistics

     Sessions and messages, sessions per source (all of them), database, WAL and free-page bytes.

    Args:
        include_fts (bool | Unset): also measure the FTS indexes' size (walks their pages: slower
            on big stores) Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | StatsOut]
    """

    kwargs = _get_kwargs(
        include_fts=include_fts,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    include_fts: bool | Unset = False,
) -> Problem | StatsOut | None:
    """Store statistics

     Sessions and messages, sessions per source (all of them), database, WAL and free-page bytes.

    Args:
        include_fts (bool | Unset): also measure the FTS indexes' size (walks their pages: slower
            on big stores) Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | StatsOut
    """

    return (
        await asyncio_detailed(
            client=client,
            include_fts=include_fts,
        )
    ).parsed
