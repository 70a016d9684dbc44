from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.session_page import SessionPage
from ...models.sessions_list_order import SessionsListOrder
from ...models.sessions_list_status import SessionsListStatus
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
    source: list[str] | None | Unset = UNSET,
    exclude_source: list[str] | None | Unset = UNSET,
    status: SessionsListStatus | Unset = SessionsListStatus.ALL,
    include_children: bool | Unset = False,
    include_archived: bool | Unset = False,
    order: SessionsListOrder | Unset = SessionsListOrder.STARTED,
    q: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor

    json_source: list[str] | None | Unset
    if isinstance(source, Unset):
        json_source = UNSET
    elif isinstance(source, list):
        json_source = source

    else:
        json_source = source
    params["source"] = json_source

    json_exclude_source: list[str] | None | Unset
    if isinstance(exclude_source, Unset):
        json_exclude_source = UNSET
    elif isinstance(exclude_source, list):
        json_exclude_source = exclude_source

    else:
        json_exclude_source = exclude_source
    params["exclude_source"] = json_exclude_source

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params["include_children"] = include_children

    params["include_archived"] = include_archived

    json_order: str | Unset = UNSET
    if not isinstance(order, Unset):
        json_order = order.value

    params["order"] = json_order

    json_q: None | str | Unset
    if isinstance(q, Unset):
        json_q = UNSET
    else:
        json_q = q
    params["q"] = json_q

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/sessions",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | SessionPage | None:
    if response.status_code == 200:
        response_200 = SessionPage.from_dict(response.json())

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
) -> Response[Problem | SessionPage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
    source: list[str] | None | Unset = UNSET,
    exclude_source: list[str] | None | Unset = UNSET,
    status: SessionsListStatus | Unset = SessionsListStatus.ALL,
    include_children: bool | Unset = False,
    include_archived: bool | Unset = False,
    order: SessionsListOrder | Unset = SessionsListOrder.STARTED,
    q: None | str | Unset = UNSET,
) -> Response[Problem | SessionPage]:
    """List sessions

     List sessions, newest first, one row per conversation (compression lineages shown as their tip).

    Args:
        limit (int | Unset): Page size 1-200 Default: 20.
        cursor (None | str | Unset): next_cursor of the previous page
        source (list[str] | None | Unset): Only these sources (repeatable)
        exclude_source (list[str] | None | Unset): Hide these sources (repeatable; default tool,
            subagent)
        status (SessionsListStatus | Unset): active: not ended; ended: ended (any end_reason);
            all: both Default: SessionsListStatus.ALL.
        include_children (bool | Unset): Show compression and delegate children instead of folding
            lineages Default: False.
        include_archived (bool | Unset): Also list archived sessions Default: False.
        order (SessionsListOrder | Unset): Newest first by start time, or by last activity (newest
            message, else start) Default: SessionsListOrder.STARTED.
        q (None | str | Unset): Only sessions whose id, title or preview contains this text (1-200
            characters; ASCII letters match either case; % and _ are literal). A compression lineage
            matches by its tip.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SessionPage]
    """

    kwargs = _get_kwargs(
        limit=limit,
        cursor=cursor,
        source=source,
        exclude_source=exclude_source,
        status=status,
        include_children=include_children,
        include_archived=include_archived,
        order=order,
        q=q,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
    source: list[str] | None | Unset = UNSET,
    exclude_source: list[str] | None | Unset = UNSET,
    status: SessionsListStatus | Unset = SessionsListStatus.ALL,
    include_children: bool | Unset = False,
    include_archived: bool | Unset = False,
    order: SessionsListOrder | Unset = SessionsListOrder.STARTED,
    q: None | str | Unset = UNSET,
) -> Problem | SessionPage | None:
    """List sessions

     List sessions, newest first, one row per conversation (compression lineages shown as their tip).

    Args:
        limit (int | Unset): Page size 1-200 Default: 20.
        cursor (None | str | Unset): next_cursor of the previous page
        source (list[str] | None | Unset): Only these sources (repeatable)
        exclude_source (list[str] | None | Unset): Hide these sources (repeatable; default tool,
            subagent)
        status (SessionsListStatus | Unset): active: not ended; ended: ended (any end_reason);
            all: both Default: SessionsListStatus.ALL.
        include_children (bool | Unset): Show compression and delegate children instead of folding
            lineages Default: False.
        include_archived (bool | Unset): Also list archived sessions Default: False.
        order (SessionsListOrder | Unset): Newest first by start time, or by last activity (newest
            message, else start) Default: SessionsListOrder.STARTED.
        q (None | str | Unset): Only sessions whose id, title or preview contains this text (1-200
            characters; ASCII letters match either case; % and _ are literal). A compression lineage
            matches by its tip.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SessionPage
    """

    return sync_detailed(
        client=client,
        limit=limit,
        cursor=cursor,
        source=source,
        exclude_source=exclude_source,
        status=status,
        include_children=include_children,
        include_archived=include_archived,
        order=order,
        q=q,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
    source: list[str] | None | Unset = UNSET,
    exclude_source: list[str] | None | Unset = UNSET,
    status: SessionsListStatus | Unset = SessionsListStatus.ALL,
    include_children: bool | Unset = False,
    include_archived: bool | Unset = False,
    order: SessionsListOrder | Unset = SessionsListOrder.STARTED,
    q: None | str | Unset = UNSET,
) -> Response[Problem | SessionPage]:
    """List sessions

     List sessions, newest first, one row per conversation (compression lineages shown as their tip).

    Args:
        limit (int | Unset): Page size 1-200 Default: 20.
        cursor (None | str | Unset): next_cursor of the previous page
        source (list[str] | None | Unset): Only these sources (repeatable)
        exclude_source (list[str] | None | Unset): Hide these sources (repeatable; default tool,
            subagent)
        status (SessionsListStatus | Unset): active: not ended; ended: ended (any end_reason);
            all: both Default: SessionsListStatus.ALL.
        include_children (bool | Unset): Show compression and delegate children instead of folding
            lineages Default: False.
        include_archived (bool | Unset): Also list archived sessions Default: False.
        order (SessionsListOrder | Unset): Newest first by start time, or by last activity (newest
            message, else start) Default: SessionsListOrder.STARTED.
        q (None | str | Unset): Only sessions whose id, title or preview contains this text (1-200
            characters; ASCII letters match either case; % and _ are literal). A compression lineage
            matches by its tip.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SessionPage]
    """

    kwargs = _get_kwargs(
        limit=limit,
        cursor=cursor,
        source=source,
        exclude_source=exclude_source,
        status=status,
        include_children=include_children,
        include_archived=include_archived,
        order=order,
        q=q,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
    source: list[str] | None | Unset = UNSET,
    exclude_source: list[str] | None | Unset = UNSET,
    status: SessionsListStatus | Unset = SessionsListStatus.ALL,
    include_children: bool | Unset = False,
    include_archived: bool | Unset = False,
    order: SessionsListOrder | Unset = SessionsListOrder.STARTED,
    q: None | str | Unset = UNSET,
) -> Problem | SessionPage | None:
    """List sessions

     List sessions, newest first, one row per conversation (compression lineages shown as their tip).

    Args:
        limit (int | Unset): Page size 1-200 Default: 20.
        cursor (None | str | Unset): next_cursor of the previous page
        source (list[str] | None | Unset): Only these sources (repeatable)
        exclude_source (list[str] | None | Unset): Hide these sources (repeatable; default tool,
            subagent)
        status (SessionsListStatus | Unset): active: not ended; ended: ended (any end_reason);
            all: both Default: SessionsListStatus.ALL.
        include_children (bool | Unset): Show compression and delegate children instead of folding
            lineages Default: False.
        include_archived (bool | Unset): Also list archived sessions Default: False.
        order (SessionsListOrder | Unset): Newest first by start time, or by last activity (newest
            message, else start) Default: SessionsListOrder.STARTED.
        q (None | str | Unset): Only sessions whose id, title or preview contains this text (1-200
            characters; ASCII letters match either case; % and _ are literal). A compression lineage
            matches by its tip.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SessionPage
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            cursor=cursor,
            source=source,
            exclude_source=exclude_source,
            status=status,
            include_children=include_children,
            include_archived=include_archived,
            order=order,
            q=q,
        )
    ).parsed
