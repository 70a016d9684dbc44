from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.handoff_complete import HandoffComplete
from ...models.handoff_completed import HandoffCompleted
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    session_id: str,
    *,
    body: HandoffComplete | None | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/handoff/{session_id}/complete".format(
            session_id=quote(str(session_id), safe=""),
        ),
    }

    if isinstance(body, HandoffComplete):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> HandoffCompleted | Problem | None:
    if response.status_code == 200:
        response_200 = HandoffCompleted.from_dict(response.json())

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
) -> Response[HandoffCompleted | Problem]:
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
    body: HandoffComplete | None | Unset = UNSET,
) -> Response[HandoffCompleted | Problem]:
    """Mark a running handoff delivered and route its destination chat to the session

     The gateway delivered the session: running → completed, recording where it now lives
    (``thread``; a ``thread_id`` in it is the topic or thread the gateway created), and, as the agent's
    gateway does, the destination chat's routing key now points at the session (the one it held is
    ended ``session_switch``; the session is re-peered to the chat), all in one transaction. Answers
    ``session_key`` and the ``synthetic_turn`` to dispatch. 404 ``session_not_found``, 409
    ``handoff_state_changed`` (not running), ``no_home_channel``.

    Args:
        session_id (str): A session id, exactly as stored (e.g. `20260105_101500_a1b2c3`); `GET
            /sessions/resolve` turns a prefix or a title into one
        body (HandoffComplete | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HandoffCompleted | Problem]
    """

    kwargs = _get_kwargs(
        session_id=session_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    session_id: str,
    *,
    client: AuthenticatedClient,
    body: HandoffComplete | None | Unset = UNSET,
) -> HandoffCompleted | Problem | None:
    """Mark a running handoff delivered and route its destination chat to the session

     The gateway delivered the session: running → completed, recording where it now lives
    (``thread``; a ``thread_id`` in it is the topic or thread the gateway created), and, as the agent's
    gateway does, the destination chat's routing key now points at the session (the one it held is
    ended ``session_switch``; the session is re-peered to the chat), all in one transaction. Answers
    ``session_key`` and the ``synthetic_turn`` to dispatch. 404 ``session_not_found``, 409
    ``handoff_state_changed`` (not running), ``no_home_channel``.

    Args:
        session_id (str): A session id, exactly as stored (e.g. `20260105_101500_a1b2c3`); `GET
            /sessions/resolve` turns a prefix or a title into one
        body (HandoffComplete | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HandoffCompleted | Problem
    """

    return sync_detailed(
        session_id=session_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    session_id: str,
    *,
    client: AuthenticatedClient,
    body: HandoffComplete | None | Unset = UNSET,
) -> Response[HandoffCompleted | Problem]:
    """Mark a running handoff delivered and route its destination chat to the session

     The gateway delivered the session: running → completed, recording where it now lives
    (``thread``; a ``thread_id`` in it is the topic or thread the gateway created), and, as the agent's
    gateway does, the destination chat's routing key now points at the session (the one it held is
    ended ``session_switch``; the session is re-peered to the chat), all in one transaction. Answers
    ``session_key`` and the ``synthetic_turn`` to dispatch. 404 ``session_not_found``, 409
    ``handoff_state_changed`` (not running), ``no_home_channel``.

    Args:
        session_id (str): A session id, exactly as stored (e.g. `20260105_101500_a1b2c3`); `GET
            /sessions/resolve` turns a prefix or a title into one
        body (HandoffComplete | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HandoffCompleted | Problem]
    """

    kwargs = _get_kwargs(
        session_id=session_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    session_id: str,
    *,
    client: AuthenticatedClient,
    body: HandoffComplete | None | Unset = UNSET,
) -> HandoffCompleted | Problem | None:
    """Mark a running handoff delivered and route its destination chat to the session

     The gateway delivered the session: running → completed, recording where it now lives
    (``thread``; a ``thread_id`` in it is the topic or thread the gateway created), and, as the agent's
    gateway does, the destination chat's routing key now points at the session (the one it held is
    ended ``session_switch``; the session is re-peered to the chat), all in one transaction. Answers
    ``session_key`` and the ``synthetic_turn`` to dispatch. 404 ``session_not_found``, 409
    ``handoff_state_changed`` (not running), ``no_home_channel``.

    Args:
        session_id (str): A session id, exactly as stored (e.g. `20260105_101500_a1b2c3`); `GET
            /sessions/resolve` turns a prefix or a title into one
        body (HandoffComplete | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HandoffCompleted | Problem
    """

    return (
        await asyncio_detailed(
            session_id=session_id,
            client=client,
            body=body,
        )
    ).parsed
