from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.prune_in import PruneIn
from ...models.prune_out import PruneOut
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: None | PruneIn | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/maintenance/prune",
    }

    if isinstance(body, PruneIn):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | PruneOut | None:
    if response.status_code == 200:
        response_200 = PruneOut.from_dict(response.json())

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
) -> Response[Problem | PruneOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: None | PruneIn | Unset = UNSET,
) -> Response[Problem | PruneOut]:
    """Prune old ended sessions

     Delete ended sessions matching every criterion given; open and pinned sessions are never touched.

    Without a time filter or criterion: ended sessions started more than 90 days ago. Children of pruned
    sessions are orphaned (their `parent_session_id` becomes null), as the agent does. Deletion runs in
    small batches so concurrent appends are not held up. Errors: `conflicting_parameters` (422, both
    `older_than` and `older_than_days`), `invalid_duration` (422, a time filter unreadable),
    `empty_time_window` (422, the lower time bound is not before the upper one).

    Args:
        body (None | PruneIn | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | PruneOut]
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
    body: None | PruneIn | Unset = UNSET,
) -> Problem | PruneOut | None:
    """Prune old ended sessions

     Delete ended sessions matching every criterion given; open and pinned sessions are never touched.

    Without a time filter or criterion: ended sessions started more than 90 days ago. Children of pruned
    sessions are orphaned (their `parent_session_id` becomes null), as the agent does. Deletion runs in
    small batches so concurrent appends are not held up. Errors: `conflicting_parameters` (422, both
    `older_than` and `older_than_days`), `invalid_duration` (422, a time filter unreadable),
    `empty_time_window` (422, the lower time bound is not before the upper one).

    Args:
        body (None | PruneIn | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | PruneOut
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: None | PruneIn | Unset = UNSET,
) -> Response[Problem | PruneOut]:
    """Prune old ended sessions

     Delete ended sessions matching every criterion given; open and pinned sessions are never touched.

    Without a time filter or criterion: ended sessions started more than 90 days ago. Children of pruned
    sessions are orphaned (their `parent_session_id` becomes null), as the agent does. Deletion runs in
    small batches so concurrent appends are not held up. Errors: `conflicting_parameters` (422, both
    `older_than` and `older_than_days`), `invalid_duration` (422, a time filter unreadable),
    `empty_time_window` (422, the lower time bound is not before the upper one).

    Args:
        body (None | PruneIn | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | PruneOut]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: None | PruneIn | Unset = UNSET,
) -> Problem | PruneOut | None:
    """Prune old ended sessions

     Delete ended sessions matching every criterion given; open and pinned sessions are never touched.

    Without a time filter or criterion: ended sessions started more than 90 days ago. Children of pruned
    sessions are orphaned (their `parent_session_id` becomes null), as the agent does. Deletion runs in
    small batches so concurrent appends are not held up. Errors: `conflicting_parameters` (422, both
    `older_than` and `older_than_days`), `invalid_duration` (422, a time filter unreadable),
    `empty_time_window` (422, the lower time bound is not before the upper one).

    Args:
        body (None | PruneIn | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | PruneOut
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
