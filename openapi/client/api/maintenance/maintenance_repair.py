from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.repair_in import RepairIn
from ...models.repair_out import RepairOut
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: None | RepairIn | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/maintenance/repair",
    }

    if isinstance(body, RepairIn):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | RepairOut | None:
    if response.status_code == 200:
        response_200 = RepairOut.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

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

    if response.status_code == 501:
        response_501 = Problem.from_dict(response.json())

        return response_501

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
) -> Response[Problem | RepairOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: None | RepairIn | Unset = UNSET,
) -> Response[Problem | RepairOut]:
    """Check, or repair, the store

     `hermes sessions repair`: `PRAGMA integrity_check`, each FTS index's own integrity check, messages
    missing from an index and index rows of deleted messages, and the agent's rolled-back test write
    through the FTS triggers. Unless `check_only`, what was found is repaired after a `VACUUM INTO`
    backup
    to `$HERMES_HOME/backups/` (skipped with `backup: false`): indexes rebuilt, the search index brought
    in
    line with the messages. No session or message row is changed. Writes wait while it runs. Codes: 409
    `maintenance_busy`, `backup_dir_unusable`; 507 `storage_full`.

    Args:
        body (None | RepairIn | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RepairOut]
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
    body: None | RepairIn | Unset = UNSET,
) -> Problem | RepairOut | None:
    """Check, or repair, the store

     `hermes sessions repair`: `PRAGMA integrity_check`, each FTS index's own integrity check, messages
    missing from an index and index rows of deleted messages, and the agent's rolled-back test write
    through the FTS triggers. Unless `check_only`, what was found is repaired after a `VACUUM INTO`
    backup
    to `$HERMES_HOME/backups/` (skipped with `backup: false`): indexes rebuilt, the search index brought
    in
    line with the messages. No session or message row is changed. Writes wait while it runs. Codes: 409
    `maintenance_busy`, `backup_dir_unusable`; 507 `storage_full`.

    Args:
        body (None | RepairIn | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RepairOut
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: None | RepairIn | Unset = UNSET,
) -> Response[Problem | RepairOut]:
    """Check, or repair, the store

     `hermes sessions repair`: `PRAGMA integrity_check`, each FTS index's own integrity check, messages
    missing from an index and index rows of deleted messages, and the agent's rolled-back test write
    through the FTS triggers. Unless `check_only`, what was found is repaired after a `VACUUM INTO`
    backup
    to `$HERMES_HOME/backups/` (skipped with `backup: false`): indexes rebuilt, the search index brought
    in
    line with the messages. No session or message row is changed. Writes wait while it runs. Codes: 409
    `maintenance_busy`, `backup_dir_unusable`; 507 `storage_full`.

    Args:
        body (None | RepairIn | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RepairOut]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: None | RepairIn | Unset = UNSET,
) -> Problem | RepairOut | None:
    """Check, or repair, the store

     `hermes sessions repair`: `PRAGMA integrity_check`, each FTS index's own integrity check, messages
    missing from an index and index rows of deleted messages, and the agent's rolled-back test write
    through the FTS triggers. Unless `check_only`, what was found is repaired after a `VACUUM INTO`
    backup
    to `$HERMES_HOME/backups/` (skipped with `backup: false`): indexes rebuilt, the search index brought
    in
    line with the messages. No session or message row is changed. Writes wait while it runs. Codes: 409
    `maintenance_busy`, `backup_dir_unusable`; 507 `storage_full`.

    Args:
        body (None | RepairIn | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RepairOut
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
