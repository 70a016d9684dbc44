from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.resolved_session import ResolvedSession
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    ref: None | str | Unset = UNSET,
    latest: bool | Unset = False,
    source: list[str] | None | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_ref: None | str | Unset
    if isinstance(ref, Unset):
        json_ref = UNSET
    else:
        json_ref = ref
    params["ref"] = json_ref

    params["latest"] = latest

    json_source: list[str] | None | Unset
    if isinstance(source, Unset):
        json_source = UNSET
    elif isinstance(source, list):
        json_source = source

    else:
        json_source = source
    params["source"] = json_source

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/sessions/resolve",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | ResolvedSession | None:
    if response.status_code == 200:
        response_200 = ResolvedSession.from_dict(response.json())

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
) -> Response[Problem | ResolvedSession]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    ref: None | str | Unset = UNSET,
    latest: bool | Unset = False,
    source: list[str] | None | Unset = UNSET,
) -> Response[Problem | ResolvedSession]:
    """Resolve an id prefix, title or 'latest' to a session

     Find the session a user means, then follow compression continuations to the live tip.

    Give exactly one of ``ref`` and ``latest=true`` (400 ``invalid_resolve_query`` otherwise).
    Codes: 404 ``session_not_found``; 409 ``ambiguous_session_ref`` when an id prefix matches several
    sessions (``candidates``: up to 10 ``{id, title}``, ``more``: whether others exist); 422
    ``unknown_source``.

    Args:
        ref (None | str | Unset): Exact id, unique id prefix, or title (the newest 'title #N'
            wins)
        latest (bool | Unset): Instead of ref: the most recently active session of `source`
            Default: False.
        source (list[str] | None | Unset): With latest: only these sources (repeatable); default
            all but tool, subagent

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ResolvedSession]
    """

    kwargs = _get_kwargs(
        ref=ref,
        latest=latest,
        source=source,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    ref: None | str | Unset = UNSET,
    latest: bool | Unset = False,
    source: list[str] | None | Unset = UNSET,
) -> Problem | ResolvedSession | None:
    """Resolve an id prefix, title or 'latest' to a session

     Find the session a user means, then follow compression continuations to the live tip.

    Give exactly one of ``ref`` and ``latest=true`` (400 ``invalid_resolve_query`` otherwise).
    Codes: 404 ``session_not_found``; 409 ``ambiguous_session_ref`` when an id prefix matches several
    sessions (``candidates``: up to 10 ``{id, title}``, ``more``: whether others exist); 422
    ``unknown_source``.

    Args:
        ref (None | str | Unset): Exact id, unique id prefix, or title (the newest 'title #N'
            wins)
        latest (bool | Unset): Instead of ref: the most recently active session of `source`
            Default: False.
        source (list[str] | None | Unset): With latest: only these sources (repeatable); default
            all but tool, subagent

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ResolvedSession
    """

    return sync_detailed(
        client=client,
        ref=ref,
        latest=latest,
        source=source,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    ref: None | str | Unset = UNSET,
    latest: bool | Unset = False,
    source: list[str] | None | Unset = UNSET,
) -> Response[Problem | ResolvedSession]:
    """Resolve an id prefix, title or 'latest' to a session

     Find the session a user means, then follow compression continuations to the live tip.

    Give exactly one of ``ref`` and ``latest=true`` (400 ``invalid_resolve_query`` otherwise).
    Codes: 404 ``session_not_found``; 409 ``ambiguous_session_ref`` when an id prefix matches several
    sessions (``candidates``: up to 10 ``{id, title}``, ``more``: whether others exist); 422
    ``unknown_source``.

    Args:
        ref (None | str | Unset): Exact id, unique id prefix, or title (the newest 'title #N'
            wins)
        latest (bool | Unset): Instead of ref: the most recently active session of `source`
            Default: False.
        source (list[str] | None | Unset): With latest: only these sources (repeatable); default
            all but tool, subagent

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ResolvedSession]
    """

    kwargs = _get_kwargs(
        ref=ref,
        latest=latest,
        source=source,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    ref: None | str | Unset = UNSET,
    latest: bool | Unset = False,
    source: list[str] | None | Unset = UNSET,
) -> Problem | ResolvedSession | None:
    """Resolve an id prefix, title or 'latest' to a session

     Find the session a user means, then follow compression continuations to the live tip.

    Give exactly one of ``ref`` and ``latest=true`` (400 ``invalid_resolve_query`` otherwise).
    Codes: 404 ``session_not_found``; 409 ``ambiguous_session_ref`` when an id prefix matches several
    sessions (``candidates``: up to 10 ``{id, title}``, ``more``: whether others exist); 422
    ``unknown_source``.

    Args:
        ref (None | str | Unset): Exact id, unique id prefix, or title (the newest 'title #N'
            wins)
        latest (bool | Unset): Instead of ref: the most recently active session of `source`
            Default: False.
        source (list[str] | None | Unset): With latest: only these sources (repeatable); default
            all but tool, subagent

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ResolvedSession
    """

    return (
        await asyncio_detailed(
            client=client,
            ref=ref,
            latest=latest,
            source=source,
        )
    ).parsed
