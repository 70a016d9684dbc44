from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.handoff_queued import HandoffQueued
from ...models.handoff_request import HandoffRequest
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    *,
    body: HandoffRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/handoff",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> HandoffQueued | Problem | None:
    if response.status_code == 202:
        response_202 = HandoffQueued.from_dict(response.json())

        return response_202

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
) -> Response[HandoffQueued | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: HandoffRequest,
) -> Response[HandoffQueued | Problem]:
    """Queue a handoff to a messaging platform

     Queue a handoff of a session to a messaging platform (state ``pending``); a gateway claims it.
    Codes, checked in this order: 422 ``unknown_platform`` (with ``platforms``), 404
    ``session_not_found``,
    409 ``platform_not_enabled``, ``no_home_channel`` (run /sethome in the destination chat),
    ``agent_busy`` (the caller sent ``busy: true``), ``handoff_in_flight`` (pending or running).
    A completed or failed handoff can be requested again. Untitled sessions get ``handoff-<id[:8]>``.

    Args:
        body (HandoffRequest): ``POST /handoff``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HandoffQueued | Problem]
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
    body: HandoffRequest,
) -> HandoffQueued | Problem | None:
    """Queue a handoff to a messaging platform

     Queue a handoff of a session to a messaging platform (state ``pending``); a gateway claims it.
    Codes, checked in this order: 422 ``unknown_platform`` (with ``platforms``), 404
    ``session_not_found``,
    409 ``platform_not_enabled``, ``no_home_channel`` (run /sethome in the destination chat),
    ``agent_busy`` (the caller sent ``busy: true``), ``handoff_in_flight`` (pending or running).
    A completed or failed handoff can be requested again. Untitled sessions get ``handoff-<id[:8]>``.

    Args:
        body (HandoffRequest): ``POST /handoff``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HandoffQueued | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: HandoffRequest,
) -> Response[HandoffQueued | Problem]:
    """Queue a handoff to a messaging platform

     Queue a handoff of a session to a messaging platform (state ``pending``); a gateway claims it.
    Codes, checked in this order: 422 ``unknown_platform`` (with ``platforms``), 404
    ``session_not_found``,
    409 ``platform_not_enabled``, ``no_home_channel`` (run /sethome in the destination chat),
    ``agent_busy`` (the caller sent ``busy: true``), ``handoff_in_flight`` (pending or running).
    A completed or failed handoff can be requested again. Untitled sessions get ``handoff-<id[:8]>``.

    Args:
        body (HandoffRequest): ``POST /handoff``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HandoffQueued | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: HandoffRequest,
) -> HandoffQueued | Problem | None:
    """Queue a handoff to a messaging platform

     Queue a handoff of a session to a messaging platform (state ``pending``); a gateway claims it.
    Codes, checked in this order: 422 ``unknown_platform`` (with ``platforms``), 404
    ``session_not_found``,
    409 ``platform_not_enabled``, ``no_home_channel`` (run /sethome in the destination chat),
    ``agent_busy`` (the caller sent ``busy: true``), ``handoff_in_flight`` (pending or running).
    A completed or failed handoff can be requested again. Untitled sessions get ``handoff-<id[:8]>``.

    Args:
        body (HandoffRequest): ``POST /handoff``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HandoffQueued | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
