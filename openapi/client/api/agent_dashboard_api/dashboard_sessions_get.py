from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.detail import Detail
from ...types import UNSET, Response, Unset


def _get_kwargs(
    session_id: str,
    *,
    profile: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_profile: None | str | Unset
    if isinstance(profile, Unset):
        json_profile = UNSET
    else:
        json_profile = profile
    params["profile"] = json_profile

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/sessions/{session_id}".format(
            session_id=quote(str(session_id), safe=""),
        ),
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
    session_id: str,
    *,
    client: AuthenticatedClient | Client,
    profile: None | str | Unset = UNSET,
) -> Response[Any | Detail]:
    """One session, every column

     The session's row as stored (``archived`` as 0 or 1). 404 ``Session not found``.

    Args:
        session_id (str): A session id, or a prefix of exactly one
        profile (None | str | Unset): Only the default profile is served here

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Detail]
    """

    kwargs = _get_kwargs(
        session_id=session_id,
        profile=profile,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    session_id: str,
    *,
    client: AuthenticatedClient | Client,
    profile: None | str | Unset = UNSET,
) -> Any | Detail | None:
    """One session, every column

     The session's row as stored (``archived`` as 0 or 1). 404 ``Session not found``.

    Args:
        session_id (str): A session id, or a prefix of exactly one
        profile (None | str | Unset): Only the default profile is served here

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Detail
    """

    return sync_detailed(
        session_id=session_id,
        client=client,
        profile=profile,
    ).parsed


async def asyncio_detailed(
    session_id: str,
    *,
    client: AuthenticatedClient | Client,
    profile: None | str | Unset = UNSET,
) -> Response[Any | Detail]:
    """One session, every column

     The session's row as stored (``archived`` as 0 or 1). 404 ``Session not found``.

    Args:
        session_id (str): A session id, or a prefix of exactly one
        profile (None | str | Unset): Only the default profile is served here

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Detail]
    """

    kwargs = _get_kwargs(
        session_id=session_id,
        profile=profile,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    session_id: str,
    *,
    client: AuthenticatedClient | Client,
    profile: None | str | Unset = UNSET,
) -> Any | Detail | None:
    """One session, every column

     The session's row as stored (``archived`` as 0 or 1). 404 ``Session not found``.

    Args:
        session_id (str): A session id, or a prefix of exactly one
        profile (None | str | Unset): Only the default profile is served here

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Detail
    """

    return (
        await asyncio_detailed(
            session_id=session_id,
            client=client,
            profile=profile,
        )
    ).parsed
