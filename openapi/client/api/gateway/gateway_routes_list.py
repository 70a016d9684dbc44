from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.route_page import RoutePage
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = 100,
    cursor: None | str | Unset = UNSET,
    platform: None | str | Unset = UNSET,
    session_id: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor

    json_platform: None | str | Unset
    if isinstance(platform, Unset):
        json_platform = UNSET
    else:
        json_platform = platform
    params["platform"] = json_platform

    json_session_id: None | str | Unset
    if isinstance(session_id, Unset):
        json_session_id = UNSET
    else:
        json_session_id = session_id
    params["session_id"] = json_session_id

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/gateway/routes",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | RoutePage | None:
    if response.status_code == 200:
        response_200 = RoutePage.from_dict(response.json())

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
) -> Response[Problem | RoutePage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 100,
    cursor: None | str | Unset = UNSET,
    platform: None | str | Unset = UNSET,
    session_id: None | str | Unset = UNSET,
) -> Response[Problem | RoutePage]:
    """List the routing index

     The routing index in key order (keyset-paginated), optionally one platform's or one session's.

    Args:
        limit (int | Unset): Page size 1-500 Default: 100.
        cursor (None | str | Unset): next_cursor of the previous page
        platform (None | str | Unset): Only this platform's entries (e.g. `telegram`)
        session_id (None | str | Unset): Only the entries that route to this session id

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RoutePage]
    """

    kwargs = _get_kwargs(
        limit=limit,
        cursor=cursor,
        platform=platform,
        session_id=session_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 100,
    cursor: None | str | Unset = UNSET,
    platform: None | str | Unset = UNSET,
    session_id: None | str | Unset = UNSET,
) -> Problem | RoutePage | None:
    """List the routing index

     The routing index in key order (keyset-paginated), optionally one platform's or one session's.

    Args:
        limit (int | Unset): Page size 1-500 Default: 100.
        cursor (None | str | Unset): next_cursor of the previous page
        platform (None | str | Unset): Only this platform's entries (e.g. `telegram`)
        session_id (None | str | Unset): Only the entries that route to this session id

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RoutePage
    """

    return sync_detailed(
        client=client,
        limit=limit,
        cursor=cursor,
        platform=platform,
        session_id=session_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 100,
    cursor: None | str | Unset = UNSET,
    platform: None | str | Unset = UNSET,
    session_id: None | str | Unset = UNSET,
) -> Response[Problem | RoutePage]:
    """List the routing index

     The routing index in key order (keyset-paginated), optionally one platform's or one session's.

    Args:
        limit (int | Unset): Page size 1-500 Default: 100.
        cursor (None | str | Unset): next_cursor of the previous page
        platform (None | str | Unset): Only this platform's entries (e.g. `telegram`)
        session_id (None | str | Unset): Only the entries that route to this session id

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RoutePage]
    """

    kwargs = _get_kwargs(
        limit=limit,
        cursor=cursor,
        platform=platform,
        session_id=session_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 100,
    cursor: None | str | Unset = UNSET,
    platform: None | str | Unset = UNSET,
    session_id: None | str | Unset = UNSET,
) -> Problem | RoutePage | None:
    """List the routing index

     The routing index in key order (keyset-paginated), optionally one platform's or one session's.

    Args:
        limit (int | Unset): Page size 1-500 Default: 100.
        cursor (None | str | Unset): next_cursor of the previous page
        platform (None | str | Unset): Only this platform's entries (e.g. `telegram`)
        session_id (None | str | Unset): Only the entries that route to this session id

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RoutePage
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            cursor=cursor,
            platform=platform,
            session_id=session_id,
        )
    ).parsed
