from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.recap_public import RecapPublic
from ...types import UNSET, Response, Unset


def _get_kwargs(
    session_id: str,
    *,
    exchanges: int | Unset = 10,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["exchanges"] = exchanges

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/sessions/{session_id}/recap".format(
            session_id=quote(str(session_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | RecapPublic | None:
    if response.status_code == 200:
        response_200 = RecapPublic.from_dict(response.json())

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
) -> Response[Problem | RecapPublic]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    session_id: str,
    *,
    client: AuthenticatedClient,
    exchanges: int | Unset = 10,
) -> Response[Problem | RecapPublic]:
    """Get a session's resume recap

     The resume recap: system and tool messages hidden, user text ≤ 300 chars, assistant ≤ 3 lines and
    200 chars with reasoning blocks removed, tool calls collapsed; the last ``2 × exchanges`` entries
    and
    the number ``omitted`` before them. 404 ``session_not_found``.

    Args:
        session_id (str): A session id, exactly as stored (e.g. `20260105_101500_a1b2c3`); `GET
            /sessions/resolve` turns a prefix or a title into one
        exchanges (int | Unset): How many user/assistant exchanges to show Default: 10.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RecapPublic]
    """

    kwargs = _get_kwargs(
        session_id=session_id,
        exchanges=exchanges,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    session_id: str,
    *,
    client: AuthenticatedClient,
    exchanges: int | Unset = 10,
) -> Problem | RecapPublic | None:
    """Get a session's resume recap

     The resume recap: system and tool messages hidden, user text ≤ 300 chars, assistant ≤ 3 lines and
    200 chars with reasoning blocks removed, tool calls collapsed; the last ``2 × exchanges`` entries
    and
    the number ``omitted`` before them. 404 ``session_not_found``.

    Args:
        session_id (str): A session id, exactly as stored (e.g. `20260105_101500_a1b2c3`); `GET
            /sessions/resolve` turns a prefix or a title into one
        exchanges (int | Unset): How many user/assistant exchanges to show Default: 10.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RecapPublic
    """

    return sync_detailed(
        session_id=session_id,
        client=client,
        exchanges=exchanges,
    ).parsed


async def asyncio_detailed(
    session_id: str,
    *,
    client: AuthenticatedClient,
    exchanges: int | Unset = 10,
) -> Response[Problem | RecapPublic]:
    """Get a session's resume recap

     The resume recap: system and tool messages hidden, user text ≤ 300 chars, assistant ≤ 3 lines and
    200 chars with reasoning blocks removed, tool calls collapsed; the last ``2 × exchanges`` entries
    and
    the number ``omitted`` before them. 404 ``session_not_found``.

    Args:
        session_id (str): A session id, exactly as stored (e.g. `20260105_101500_a1b2c3`); `GET
            /sessions/resolve` turns a prefix or a title into one
        exchanges (int | Unset): How many user/assistant exchanges to show Default: 10.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RecapPublic]
    """

    kwargs = _get_kwargs(
        session_id=session_id,
        exchanges=exchanges,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    session_id: str,
    *,
    client: AuthenticatedClient,
    exchanges: int | Unset = 10,
) -> Problem | RecapPublic | None:
    """Get a session's resume recap

     The resume recap: system and tool messages hidden, user text ≤ 300 chars, assistant ≤ 3 lines and
    200 chars with reasoning blocks removed, tool calls collapsed; the last ``2 × exchanges`` entries
    and
    the number ``omitted`` before them. 404 ``session_not_found``.

    Args:
        session_id (str): A session id, exactly as stored (e.g. `20260105_101500_a1b2c3`); `GET
            /sessions/resolve` turns a prefix or a title into one
        exchanges (int | Unset): How many user/assistant exchanges to show Default: 10.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RecapPublic
    """

    return (
        await asyncio_detailed(
            session_id=session_id,
            client=client,
            exchanges=exchanges,
        )
    ).parsed
