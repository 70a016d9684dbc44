from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.message_page import MessagePage
from ...models.messages_list_role_type_0_item import MessagesListRoleType0Item
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    session_id: str,
    *,
    limit: int | Unset = 100,
    cursor: None | str | Unset = UNSET,
    after: int | None | Unset = UNSET,
    before: int | None | Unset = UNSET,
    around: int | None | Unset = UNSET,
    window: int | Unset = 5,
    role: list[MessagesListRoleType0Item] | None | Unset = UNSET,
    include_inactive: bool | Unset = False,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor

    json_after: int | None | Unset
    if isinstance(after, Unset):
        json_after = UNSET
    else:
        json_after = after
    params["after"] = json_after

    json_before: int | None | Unset
    if isinstance(before, Unset):
        json_before = UNSET
    else:
        json_before = before
    params["before"] = json_before

    json_around: int | None | Unset
    if isinstance(around, Unset):
        json_around = UNSET
    else:
        json_around = around
    params["around"] = json_around

    params["window"] = window

    json_role: list[str] | None | Unset
    if isinstance(role, Unset):
        json_role = UNSET
    elif isinstance(role, list):
        json_role = []
        for role_type_0_item_data in role:
            role_type_0_item = role_type_0_item_data.value
            json_role.append(role_type_0_item)

    else:
        json_role = role
    params["role"] = json_role

    params["include_inactive"] = include_inactive

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/sessions/{session_id}/messages".format(
            session_id=quote(str(session_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> MessagePage | Problem | None:
    if response.status_code == 200:
        response_200 = MessagePage.from_dict(response.json())

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
) -> Response[MessagePage | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    session_id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 100,
    cursor: None | str | Unset = UNSET,
    after: int | None | Unset = UNSET,
    before: int | None | Unset = UNSET,
    around: int | None | Unset = UNSET,
    window: int | Unset = 5,
    role: list[MessagesListRoleType0Item] | None | Unset = UNSET,
    include_inactive: bool | Unset = False,
) -> Response[MessagePage | Problem]:
    """List a session's messages

     Messages of a session in id order. ``cursor`` (from ``next_cursor``) overrides ``after``/``before``;
    ``around`` cannot be combined with them and answers one window (``has_more`` false). Codes: 400
    ``invalid_cursor``; 404 ``session_not_found``, ``message_not_in_session``; 422
    ``conflicting_parameters``.

    Args:
        session_id (str): A session id, exactly as stored (e.g. `20260105_101500_a1b2c3`); `GET
            /sessions/resolve` turns a prefix or a title into one
        limit (int | Unset): Page size 1-1000 Default: 100.
        cursor (None | str | Unset): next_cursor of the previous page
        after (int | None | Unset): Messages after this id
        before (int | None | Unset): The newest messages before this id
        around (int | None | Unset): Anchor id: a window of messages around it
        window (int | Unset): With around: messages on each side Default: 5.
        role (list[MessagesListRoleType0Item] | None | Unset): Only these roles (repeatable)
        include_inactive (bool | Unset): Include rewound and compacted messages Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[MessagePage | Problem]
    """

    kwargs = _get_kwargs(
        session_id=session_id,
        limit=limit,
        cursor=cursor,
        after=after,
        before=before,
        around=around,
        window=window,
        role=role,
        include_inactive=include_inactive,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    session_id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 100,
    cursor: None | str | Unset = UNSET,
    after: int | None | Unset = UNSET,
    before: int | None | Unset = UNSET,
    around: int | None | Unset = UNSET,
    window: int | Unset = 5,
    role: list[MessagesListRoleType0Item] | None | Unset = UNSET,
    include_inactive: bool | Unset = False,
) -> MessagePage | Problem | None:
    """List a session's messages

     Messages of a session in id order. ``cursor`` (from ``next_cursor``) overrides ``after``/``before``;
    ``around`` cannot be combined with them and answers one window (``has_more`` false). Codes: 400
    ``invalid_cursor``; 404 ``session_not_found``, ``message_not_in_session``; 422
    ``conflicting_parameters``.

    Args:
        session_id (str): A session id, exactly as stored (e.g. `20260105_101500_a1b2c3`); `GET
            /sessions/resolve` turns a prefix or a title into one
        limit (int | Unset): Page size 1-1000 Default: 100.
        cursor (None | str | Unset): next_cursor of the previous page
        after (int | None | Unset): Messages after this id
        before (int | None | Unset): The newest messages before this id
        around (int | None | Unset): Anchor id: a window of messages around it
        window (int | Unset): With around: messages on each side Default: 5.
        role (list[MessagesListRoleType0Item] | None | Unset): Only these roles (repeatable)
        include_inactive (bool | Unset): Include rewound and compacted messages Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        MessagePage | Problem
    """

    return sync_detailed(
        session_id=session_id,
        client=client,
        limit=limit,
        cursor=cursor,
        after=after,
        before=before,
        around=around,
        window=window,
        role=role,
        include_inactive=include_inactive,
    ).parsed


async def asyncio_detailed(
    session_id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 100,
    cursor: None | str | Unset = UNSET,
    after: int | None | Unset = UNSET,
    before: int | None | Unset = UNSET,
    around: int | None | Unset = UNSET,
    window: int | Unset = 5,
    role: list[MessagesListRoleType0Item] | None | Unset = UNSET,
    include_inactive: bool | Unset = False,
) -> Response[MessagePage | Problem]:
    """List a session's messages

     Messages of a session in id order. ``cursor`` (from ``next_cursor``) overrides ``after``/``before``;
    ``around`` cannot be combined with them and answers one window (``has_more`` false). Codes: 400
    ``invalid_cursor``; 404 ``session_not_found``, ``message_not_in_session``; 422
    ``conflicting_parameters``.

    Args:
        session_id (str): A session id, exactly as stored (e.g. `20260105_101500_a1b2c3`); `GET
            /sessions/resolve` turns a prefix or a title into one
        limit (int | Unset): Page size 1-1000 Default: 100.
        cursor (None | str | Unset): next_cursor of the previous page
        after (int | None | Unset): Messages after this id
        before (int | None | Unset): The newest messages before this id
        around (int | None | Unset): Anchor id: a window of messages around it
        window (int | Unset): With around: messages on each side Default: 5.
        role (list[MessagesListRoleType0Item] | None | Unset): Only these roles (repeatable)
        include_inactive (bool | Unset): Include rewound and compacted messages Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[MessagePage | Problem]
    """

    kwargs = _get_kwargs(
        session_id=session_id,
        limit=limit,
        cursor=cursor,
        after=after,
        before=before,
        around=around,
        window=window,
        role=role,
        include_inactive=include_inactive,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    session_id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 100,
    cursor: None | str | Unset = UNSET,
    after: int | None | Unset = UNSET,
    before: int | None | Unset = UNSET,
    around: int | None | Unset = UNSET,
    window: int | Unset = 5,
    role: list[MessagesListRoleType0Item] | None | Unset = UNSET,
    include_inactive: bool | Unset = False,
) -> MessagePage | Problem | None:
    """List a session's messages

     Messages of a session in id order. ``cursor`` (from ``next_cursor``) overrides ``after``/``before``;
    ``around`` cannot be combined with them and answers one window (``has_more`` false). Codes: 400
    ``invalid_cursor``; 404 ``session_not_found``, ``message_not_in_session``; 422
    ``conflicting_parameters``.

    Args:
        session_id (str): A session id, exactly as stored (e.g. `20260105_101500_a1b2c3`); `GET
            /sessions/resolve` turns a prefix or a title into one
        limit (int | Unset): Page size 1-1000 Default: 100.
        cursor (None | str | Unset): next_cursor of the previous page
        after (int | None | Unset): Messages after this id
        before (int | None | Unset): The newest messages before this id
        around (int | None | Unset): Anchor id: a window of messages around it
        window (int | Unset): With around: messages on each side Default: 5.
        role (list[MessagesListRoleType0Item] | None | Unset): Only these roles (repeatable)
        include_inactive (bool | Unset): Include rewound and compacted messages Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        MessagePage | Problem
    """

    return (
        await asyncio_detailed(
            session_id=session_id,
            client=client,
            limit=limit,
            cursor=cursor,
            after=after,
            before=before,
            around=around,
            window=window,
            role=role,
            include_inactive=include_inactive,
        )
    ).parsed
