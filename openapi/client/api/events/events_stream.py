from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    last_event_id_query: None | str | Unset = UNSET,
    last_event_id_header: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(last_event_id_header, Unset):
        headers["Last-Event-ID"] = last_event_id_header

    params: dict[str, Any] = {}

    json_last_event_id_query: None | str | Unset
    if isinstance(last_event_id_query, Unset):
        json_last_event_id_query = UNSET
    else:
        json_last_event_id_query = last_event_id_query
    params["last_event_id"] = json_last_event_id_query

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/events",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | str | None:
    if response.status_code == 200:
        response_200 = response.text
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
) -> Response[Problem | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    last_event_id_query: None | str | Unset = UNSET,
    last_event_id_header: None | str | Unset = UNSET,
) -> Response[Problem | str]:
    """Stream every event (Server-Sent Events)

     Every event of the store, live. 400 ``invalid_last_event_id``.

    Args:
        last_event_id_query (None | str | Unset): Same as the Last-Event-ID header, for clients
            that cannot set headers
        last_event_id_header (None | str | Unset): Replay events after this id (sent by
            reconnecting clients)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        last_event_id_query=last_event_id_query,
        last_event_id_header=last_event_id_header,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    last_event_id_query: None | str | Unset = UNSET,
    last_event_id_header: None | str | Unset = UNSET,
) -> Problem | str | None:
    """Stream every event (Server-Sent Events)

     Every event of the store, live. 400 ``invalid_last_event_id``.

    Args:
        last_event_id_query (None | str | Unset): Same as the Last-Event-ID header, for clients
            that cannot set headers
        last_event_id_header (None | str | Unset): Replay events after this id (sent by
            reconnecting clients)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return sync_detailed(
        client=client,
        last_event_id_query=last_event_id_query,
        last_event_id_header=last_event_id_header,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    last_event_id_query: None | str | Unset = UNSET,
    last_event_id_header: None | str | Unset = UNSET,
) -> Response[Problem | str]:
    """Stream every event (Server-Sent Events)

     Every event of the store, live. 400 ``invalid_last_event_id``.

    Args:
        last_event_id_query (None | str | Unset): Same as the Last-Event-ID header, for clients
            that cannot set headers
        last_event_id_header (None | str | Unset): Replay events after this id (sent by
            reconnecting clients)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        last_event_id_query=last_event_id_query,
        last_event_id_header=last_event_id_header,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    last_event_id_query: None | str | Unset = UNSET,
    last_event_id_header: None | str | Unset = UNSET,
) -> Problem | str | None:
    """Stream every event (Server-Sent Events)

     Every event of the store, live. 400 ``invalid_last_event_id``.

    Args:
        last_event_id_query (None | str | Unset): Same as the Last-Event-ID header, for clients
            that cannot set headers
        last_event_id_header (None | str | Unset): Replay events after this id (sent by
            reconnecting clients)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return (
        await asyncio_detailed(
            client=client,
            last_event_id_query=last_event_id_query,
            last_event_id_header=last_event_id_header,
        )
    ).parsed
