from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.detail import Detail
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = 20,
    offset: int | Unset = 0,
    min_messages: int | Unset = 0,
    archived: str | Unset = "exclude",
    order: str | Unset = "created",
    source: None | str | Unset = UNSET,
    exclude_sources: None | str | Unset = UNSET,
    cwd_prefix: None | str | Unset = UNSET,
    full: bool | Unset = False,
    profile: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["offset"] = offset

    params["min_messages"] = min_messages

    params["archived"] = archived

    params["order"] = order

    json_source: None | str | Unset
    if isinstance(source, Unset):
        json_source = UNSET
    else:
        json_source = source
    params["source"] = json_source

    json_exclude_sources: None | str | Unset
    if isinstance(exclude_sources, Unset):
        json_exclude_sources = UNSET
    else:
        json_exclude_sources = exclude_sources
    params["exclude_sources"] = json_exclude_sources

    json_cwd_prefix: None | str | Unset
    if isinstance(cwd_prefix, Unset):
        json_cwd_prefix = UNSET
    else:
        json_cwd_prefix = cwd_prefix
    params["cwd_prefix"] = json_cwd_prefix

    params["full"] = full

    json_profile: None | str | Unset
    if isinstance(profile, Unset):
        json_profile = UNSET
    else:
        json_profile = profile
    params["profile"] = json_profile

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/sessions",
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
    limit: int | Unset = 20,
    offset: int | Unset = 0,
    min_messages: int | Unset = 0,
    archived: str | Unset = "exclude",
    order: str | Unset = "created",
    source: None | str | Unset = UNSET,
    exclude_sources: None | str | Unset = UNSET,
    cwd_prefix: None | str | Unset = UNSET,
    full: bool | Unset = False,
    profile: None | str | Unset = UNSET,
) -> Response[Any | Detail]:
    """List sessions, an offset page

     Conversations newest first (``order=recent``: by latest activity in the compression chain), one row
    per conversation (a compression chain shown as its tip), children hidden; ``total`` counts them all.

    Args:
        limit (int | Unset): Rows on the page (1 to 100) Default: 20.
        offset (int | Unset): Rows to skip Default: 0.
        min_messages (int | Unset): Only sessions with at least this many messages Default: 0.
        archived (str | Unset): `exclude` (default), `only` or `include` Default: 'exclude'.
        order (str | Unset): `created` (newest first) or `recent` (latest activity) Default:
            'created'.
        source (None | str | Unset): Only this source (`cli`, `telegram`, ...)
        exclude_sources (None | str | Unset): Sources to leave out, comma-separated
        cwd_prefix (None | str | Unset): Only sessions whose cwd starts with this
        full (bool | Unset): Include the heavy columns (system prompt, model config) Default:
            False.
        profile (None | str | Unset): Only the default profile is served here

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Detail]
    """

    kwargs = _get_kwargs(
        limit=limit,
        offset=offset,
        min_messages=min_messages,
        archived=archived,
        order=order,
        source=source,
        exclude_sources=exclude_sources,
        cwd_prefix=cwd_prefix,
        full=full,
        profile=profile,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 20,
    offset: int | Unset = 0,
    min_messages: int | Unset = 0,
    archived: str | Unset = "exclude",
    order: str | Unset = "created",
    source: None | str | Unset = UNSET,
    exclude_sources: None | str | Unset = UNSET,
    cwd_prefix: None | str | Unset = UNSET,
    full: bool | Unset = False,
    profile: None | str | Unset = UNSET,
) -> Any | Detail | None:
    """List sessions, an offset page

     Conversations newest first (``order=recent``: by latest activity in the compression chain), one row
    per conversation (a compression chain shown as its tip), children hidden; ``total`` counts them all.

    Args:
        limit (int | Unset): Rows on the page (1 to 100) Default: 20.
        offset (int | Unset): Rows to skip Default: 0.
        min_messages (int | Unset): Only sessions with at least this many messages Default: 0.
        archived (str | Unset): `exclude` (default), `only` or `include` Default: 'exclude'.
        order (str | Unset): `created` (newest first) or `recent` (latest activity) Default:
            'created'.
        source (None | str | Unset): Only this source (`cli`, `telegram`, ...)
        exclude_sources (None | str | Unset): Sources to leave out, comma-separated
        cwd_prefix (None | str | Unset): Only sessions whose cwd starts with this
        full (bool | Unset): Include the heavy columns (system prompt, model config) Default:
            False.
        profile (None | str | Unset): Only the default profile is served here

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Detail
    """

    return sync_detailed(
        client=client,
        limit=limit,
        offset=offset,
        min_messages=min_messages,
        archived=archived,
        order=order,
        source=source,
        exclude_sources=exclude_sources,
        cwd_prefix=cwd_prefix,
        full=full,
        profile=profile,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 20,
    offset: int | Unset = 0,
    min_messages: int | Unset = 0,
    archived: str | Unset = "exclude",
    order: str | Unset = "created",
    source: None | str | Unset = UNSET,
    exclude_sources: None | str | Unset = UNSET,
    cwd_prefix: None | str | Unset = UNSET,
    full: bool | Unset = False,
    profile: None | str | Unset = UNSET,
) -> Response[Any | Detail]:
    """List sessions, an offset page

     Conversations newest first (``order=recent``: by latest activity in the compression chain), one row
    per conversation (a compression chain shown as its tip), children hidden; ``total`` counts them all.

    Args:
        limit (int | Unset): Rows on the page (1 to 100) Default: 20.
        offset (int | Unset): Rows to skip Default: 0.
        min_messages (int | Unset): Only sessions with at least this many messages Default: 0.
        archived (str | Unset): `exclude` (default), `only` or `include` Default: 'exclude'.
        order (str | Unset): `created` (newest first) or `recent` (latest activity) Default:
            'created'.
        source (None | str | Unset): Only this source (`cli`, `telegram`, ...)
        exclude_sources (None | str | Unset): Sources to leave out, comma-separated
        cwd_prefix (None | str | Unset): Only sessions whose cwd starts with this
        full (bool | Unset): Include the heavy columns (system prompt, model config) Default:
            False.
        profile (None | str | Unset): Only the default profile is served here

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Detail]
    """

    kwargs = _get_kwargs(
        limit=limit,
        offset=offset,
        min_messages=min_messages,
        archived=archived,
        order=order,
        source=source,
        exclude_sources=exclude_sources,
        cwd_prefix=cwd_prefix,
        full=full,
        profile=profile,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 20,
    offset: int | Unset = 0,
    min_messages: int | Unset = 0,
    archived: str | Unset = "exclude",
    order: str | Unset = "created",
    source: None | str | Unset = UNSET,
    exclude_sources: None | str | Unset = UNSET,
    cwd_prefix: None | str | Unset = UNSET,
    full: bool | Unset = False,
    profile: None | str | Unset = UNSET,
) -> Any | Detail | None:
    """List sessions, an offset page

     Conversations newest first (``order=recent``: by latest activity in the compression chain), one row
    per conversation (a compression chain shown as its tip), children hidden; ``total`` counts them all.

    Args:
        limit (int | Unset): Rows on the page (1 to 100) Default: 20.
        offset (int | Unset): Rows to skip Default: 0.
        min_messages (int | Unset): Only sessions with at least this many messages Default: 0.
        archived (str | Unset): `exclude` (default), `only` or `include` Default: 'exclude'.
        order (str | Unset): `created` (newest first) or `recent` (latest activity) Default:
            'created'.
        source (None | str | Unset): Only this source (`cli`, `telegram`, ...)
        exclude_sources (None | str | Unset): Sources to leave out, comma-separated
        cwd_prefix (None | str | Unset): Only sessions whose cwd starts with this
        full (bool | Unset): Include the heavy columns (system prompt, model config) Default:
            False.
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
            limit=limit,
            offset=offset,
            min_messages=min_messages,
            archived=archived,
            order=order,
            source=source,
            exclude_sources=exclude_sources,
            cwd_prefix=cwd_prefix,
            full=full,
            profile=profile,
        )
    ).parsed
