from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.handoff_claim import HandoffClaim
from ...models.handoff_claimed import HandoffClaimed
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: HandoffClaim,
    wait: float | Unset = 0.0,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    params: dict[str, Any] = {}

    params["wait"] = wait

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/handoff/claim",
        "params": params,
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | HandoffClaimed | Problem | None:
    if response.status_code == 200:
        response_200 = HandoffClaimed.from_dict(response.json())

        return response_200

    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

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
) -> Response[Any | HandoffClaimed | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: HandoffClaim,
    wait: float | Unset = 0.0,
) -> Response[Any | HandoffClaimed | Problem]:
    """Claim the next pending handoff (long-poll)

     Claim the oldest pending handoff (by session start), atomically pending → running: of two
    concurrent claimers exactly one gets it. With ``wait``, hold the request until one is queued (woken
    right after the commit that queued it; requests the agent queued directly are seen within the poll
    interval). 204 when nothing came. 422 ``unknown_platform``. No connection is held while waiting.

    Args:
        wait (float | Unset): Long-poll: wait up to this many seconds (≤ 60) Default: 0.0.
        body (HandoffClaim): ``POST /handoff/claim``: a gateway asks for the next pending handoff.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | HandoffClaimed | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        wait=wait,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: HandoffClaim,
    wait: float | Unset = 0.0,
) -> Any | HandoffClaimed | Problem | None:
    """Claim the next pending handoff (long-poll)

     Claim the oldest pending handoff (by session start), atomically pending → running: of two
    concurrent claimers exactly one gets it. With ``wait``, hold the request until one is queued (woken
    right after the commit that queued it; requests the agent queued directly are seen within the poll
    interval). 204 when nothing came. 422 ``unknown_platform``. No connection is held while waiting.

    Args:
        wait (float | Unset): Long-poll: wait up to this many seconds (≤ 60) Default: 0.0.
        body (HandoffClaim): ``POST /handoff/claim``: a gateway asks for the next pending handoff.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | HandoffClaimed | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
        wait=wait,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: HandoffClaim,
    wait: float | Unset = 0.0,
) -> Response[Any | HandoffClaimed | Problem]:
    """Claim the next pending handoff (long-poll)

     Claim the oldest pending handoff (by session start), atomically pending → running: of two
    concurrent claimers exactly one gets it. With ``wait``, hold the request until one is queued (woken
    right after the commit that queued it; requests the agent queued directly are seen within the poll
    interval). 204 when nothing came. 422 ``unknown_platform``. No connection is held while waiting.

    Args:
        wait (float | Unset): Long-poll: wait up to this many seconds (≤ 60) Default: 0.0.
        body (HandoffClaim): ``POST /handoff/claim``: a gateway asks for the next pending handoff.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | HandoffClaimed | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        wait=wait,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: HandoffClaim,
    wait: float | Unset = 0.0,
) -> Any | HandoffClaimed | Problem | None:
    """Claim the next pending handoff (long-poll)

     Claim the oldest pending handoff (by session start), atomically pending → running: of two
    concurrent claimers exactly one gets it. With ``wait``, hold the request until one is queued (woken
    right after the commit that queued it; requests the agent queued directly are seen within the poll
    interval). 204 when nothing came. 422 ``unknown_platform``. No connection is held while waiting.

    Args:
        wait (float | Unset): Long-poll: wait up to this many seconds (≤ 60) Default: 0.0.
        body (HandoffClaim): ``POST /handoff/claim``: a gateway asks for the next pending handoff.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | HandoffClaimed | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            wait=wait,
        )
    ).parsed
