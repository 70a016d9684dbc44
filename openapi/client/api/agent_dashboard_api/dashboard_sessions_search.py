from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.detail import Detail
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    q: str | Unset = "",
    limit: int | Unset = 20,
    profile: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["q"] = q

    params["limit"] = limit

    json_profile: None | str | Unset
    if isinstance(profile, Unset):
        json_profile = UNSET
    else:
        json_profile = profile
    params["profile"] = json_profile

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/sessions/search",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Detail | None:
    if response.status_code == 200:
        response_200 = response.json()
        return response_200

    if response.status_code == 400:
        response_400 = Detail.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Detail.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Detail.from_dict(response.json())

        return response_404

    if response.status_code == 422:
        response_422 = Detail.from_dict(response.json())

        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Any | Detail]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    q: str | Unset = "",
    limit: int | Unset = 20,
    profile: None | str | Unset = UNSET,
) -> Response[Any | Detail]:
    """Search ids and messages

     Sessions whose id starts with ``q`` first, then message hits (each term a prefix, ``>>>x<<<``
    marking
    the match), one per compression lineage named by its tip, over the whole store.

    Args:
        q (str | Unset): Words to find (each a prefix), or the start of a session id Default: ''.
        limit (int | Unset): At most this many results (1 to 100) Default: 20.
        profile (None | str | Unset): Only the default profile is served here

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Detail]
    """

    kwargs = _get_kwargs(
        q=q,
        limit=limit,
        profile=profile,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    q: str | Unset = "",
    limit: int | Unset = 20,
    profile: None | str | Unset = UNSET,
) -> Any | Detail | None:
    """Search ids and messages

     Sessions whose id starts with ``q`` first, then message hits (each term a prefix, ``>>>x<<<``
    marking
    the match), one per compression lineage named by its tip, over the whole store.

    Args:
        q (str | Unset): Words to find (each a prefix), or the start of a session id Default: ''.
        limit (int | Unset): At most this many results (1 to 100) Default: 20.
        profile (None | str | Unset): Only the default profile is served here

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Detail
    """

    return sync_detailed(
        client=client,
        q=q,
        limit=limit,
        profile=profile,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    q: str | Unset = "",
    limit: int | Unset = 20,
    profile: None | str | Unset = UNSET,
) -> Response[Any | Detail]:
    """Search ids and messages

     Sessions whose id starts with ``q`` first, then message hits (each term a prefix, ``>>>x<<<``
    marking
    the match), one per compression lineage named by its tip, over the whole store.

    Args:
        q (str | Unset): Words to find (each a prefix), or the start of a session id Default: ''.
        limit (int | Unset): At most this many results (1 to 100) Default: 20.
        profile (None | str | Unset): Only the default profile is served here

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Detail]
    """

    kwargs = _get_kwargs(
        q=q,
        limit=limit,
        profile=profile,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    q: str | Unset = "",
    limit: int | Unset = 20,
    profile: None | str | Unset = UNSET,
) -> Any | Detail | None:
    """Search ids and messages

     Sessions whose id starts with ``q`` first, then message hits (each term a prefix, ``>>>x<<<``
    marking
    the match), one per compression lineage named by its tip, over the whole store.

    Args:
        q (str | Unset): Words to find (each a prefix), or the start of a session id Default: ''.
        limit (int | Unset): At most this many results (1 to 100) Default: 20.
        profile (None | str | Unset): Only the default profile is served here

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Detail
    """

    return (
        await asyncio_detailed(
            client=client,
            q=q,
            limit=limit,
            profile=profile,
        )
    ).parsed
