from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.archive_in import ArchiveIn
from ...models.archive_out import ArchiveOut
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    *,
    body: ArchiveIn,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/maintenance/archive",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ArchiveOut | Problem | None:
    if response.status_code == 200:
        response_200 = ArchiveOut.from_dict(response.json())

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

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

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

    if response.status_code == 507:
        response_507 = Problem.from_dict(response.json())

        return response_507

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ArchiveOut | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: ArchiveIn,
) -> Response[ArchiveOut | Problem]:
    """Archive ended sessions matching filters

     Archive (soft-hide) the ended sessions matching every criterion given, each with its compression
    lineage, as the agent's `hermes sessions archive`: nothing is deleted, archived sessions are only
    left
    out of listings. Already archived and pinned sessions are left alone, so a repeat is a no-op.
    Errors:
    `filter_required` (422, no filter at all), `invalid_duration`, `empty_time_window` (422).

    Args:
        body (ArchiveIn): Which ended sessions to archive (hide from listings; nothing is
            deleted). At least one filter is
            required. Already archived and pinned sessions are left alone.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ArchiveOut | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: ArchiveIn,
) -> ArchiveOut | Problem | None:
    """Archive ended sessions matching filters

     Archive (soft-hide) the ended sessions matching every criterion given, each with its compression
    lineage, as the agent's `hermes sessions archive`: nothing is deleted, archived sessions are only
    left
    out of listings. Already archived and pinned sessions are left alone, so a repeat is a no-op.
    Errors:
    `filter_required` (422, no filter at all), `invalid_duration`, `empty_time_window` (422).

    Args:
        body (ArchiveIn): Which ended sessions to archive (hide from listings; nothing is
            deleted). At least one filter is
            required. Already archived and pinned sessions are left alone.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ArchiveOut | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: ArchiveIn,
) -> Response[ArchiveOut | Problem]:
    """Archive ended sessions matching filters

     Archive (soft-hide) the ended sessions matching every criterion given, each with its compression
    lineage, as the agent's `hermes sessions archive`: nothing is deleted, archived sessions are only
    left
    out of listings. Already archived and pinned sessions are left alone, so a repeat is a no-op.
    Errors:
    `filter_required` (422, no filter at all), `invalid_duration`, `empty_time_window` (422).

    Args:
        body (ArchiveIn): Which ended sessions to archive (hide from listings; nothing is
            deleted). At least one filter is
            required. Already archived and pinned sessions are left alone.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ArchiveOut | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: ArchiveIn,
) -> ArchiveOut | Problem | None:
    """Archive ended sessions matching filters

     Archive (soft-hide) the ended sessions matching every criterion given, each with its compression
    lineage, as the agent's `hermes sessions archive`: nothing is deleted, archived sessions are only
    left
    out of listings. Already archived and pinned sessions are left alone, so a repeat is a no-op.
    Errors:
    `filter_required` (422, no filter at all), `invalid_duration`, `empty_time_window` (422).

    Args:
        body (ArchiveIn): Which ended sessions to archive (hide from listings; nothing is
            deleted). At least one filter is
            required. Already archived and pinned sessions are left alone.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ArchiveOut | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
