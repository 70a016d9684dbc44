from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.platform_public import PlatformPublic
from ...models.platform_update import PlatformUpdate
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    platform: str,
    *,
    body: PlatformUpdate,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/platforms/{platform}".format(
            platform=quote(str(platform), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PlatformPublic | Problem | None:
    if response.status_code == 200:
        response_200 = PlatformPublic.from_dict(response.json())

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
) -> Response[PlatformPublic | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    platform: str,
    *,
    client: AuthenticatedClient,
    body: PlatformUpdate,
) -> Response[PlatformPublic | Problem]:
    """Set a platform's handoff settings

     Replace a platform's settings: ``enabled``, ``home_channel`` (what ``/sethome`` writes) and
    ``threads``. 422 ``unknown_platform`` (the body lists the valid ones).

    Args:
        platform (str): A messaging platform name as `GET /platforms` lists it
        body (PlatformUpdate): ``PUT /platforms/{platform}``: the platform's complete settings.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PlatformPublic | Problem]
    """

    kwargs = _get_kwargs(
        platform=platform,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    platform: str,
    *,
    client: AuthenticatedClient,
    body: PlatformUpdate,
) -> PlatformPublic | Problem | None:
    """Set a platform's handoff settings

     Replace a platform's settings: ``enabled``, ``home_channel`` (what ``/sethome`` writes) and
    ``threads``. 422 ``unknown_platform`` (the body lists the valid ones).

    Args:
        platform (str): A messaging platform name as `GET /platforms` lists it
        body (PlatformUpdate): ``PUT /platforms/{platform}``: the platform's complete settings.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PlatformPublic | Problem
    """

    return sync_detailed(
        platform=platform,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    platform: str,
    *,
    client: AuthenticatedClient,
    body: PlatformUpdate,
) -> Response[PlatformPublic | Problem]:
    """Set a platform's handoff settings

     Replace a platform's settings: ``enabled``, ``home_channel`` (what ``/sethome`` writes) and
    ``threads``. 422 ``unknown_platform`` (the body lists the valid ones).

    Args:
        platform (str): A messaging platform name as `GET /platforms` lists it
        body (PlatformUpdate): ``PUT /platforms/{platform}``: the platform's complete settings.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PlatformPublic | Problem]
    """

    kwargs = _get_kwargs(
        platform=platform,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    platform: str,
    *,
    client: AuthenticatedClient,
    body: PlatformUpdate,
) -> PlatformPublic | Problem | None:
    """Set a platform's handoff settings

     Replace a platform's settings: ``enabled``, ``home_channel`` (what ``/sethome`` writes) and
    ``threads``. 422 ``unknown_platform`` (the body lists the valid ones).

    Args:
        platform (str): A messaging platform name as `GET /platforms` lists it
        body (PlatformUpdate): ``PUT /platforms/{platform}``: the platform's complete settings.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PlatformPublic | Problem
    """

    return (
        await asyncio_detailed(
            platform=platform,
            client=client,
            body=body,
        )
    ).parsed
