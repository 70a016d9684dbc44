from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.fork_create import ForkCreate
from ...models.problem import Problem
from ...models.session_public import SessionPublic
from ...types import UNSET, Response, Unset


def _get_kwargs(
    session_id: str,
    *,
    body: ForkCreate | None | Unset = UNSET,
    idempotency_key: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/sessions/{session_id}/fork".format(
            session_id=quote(str(session_id), safe=""),
        ),
    }

    if isinstance(body, ForkCreate):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | SessionPublic | None:
    if response.status_code == 201:
        response_201 = SessionPublic.from_dict(response.json())

        return response_201

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
) -> Response[Problem | SessionPublic]:
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
    body: ForkCreate | None | Unset = UNSET,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[Problem | SessionPublic]:
    """Fork (branch) a session

     Branch: end the session with ``branched`` (unless already ended) and create a child marked
    ``model_config._branched_from`` holding a copy of its active messages (up to and including
    ``message_id``), same source, model and system prompt, titled ``title`` or the next ``base #N``.
    Honours ``Idempotency-Key``.

    Codes: 404 ``session_not_found``, ``message_not_found``; 409 ``session_exists`` for a taken ``id``,
    ``title_in_use`` for an explicit title; 422 ``invalid_session_id``, ``title_too_long``,
    ``invalid_title``.

    Args:
        session_id (str): A session id, exactly as stored (e.g. `20260105_101500_a1b2c3`); `GET
            /sessions/resolve` turns a prefix or a title into one
        idempotency_key (None | str | Unset): Retry-safe key: the same key and body replay the
            first response
        body (ForkCreate | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SessionPublic]
    """

    kwargs = _get_kwargs(
        session_id=session_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    session_id: str,
    *,
    client: AuthenticatedClient,
    body: ForkCreate | None | Unset = UNSET,
    idempotency_key: None | str | Unset = UNSET,
) -> Problem | SessionPublic | None:
    """Fork (branch) a session

     Branch: end the session with ``branched`` (unless already ended) and create a child marked
    ``model_config._branched_from`` holding a copy of its active messages (up to and including
    ``message_id``), same source, model and system prompt, titled ``title`` or the next ``base #N``.
    Honours ``Idempotency-Key``.

    Codes: 404 ``session_not_found``, ``message_not_found``; 409 ``session_exists`` for a taken ``id``,
    ``title_in_use`` for an explicit title; 422 ``invalid_session_id``, ``title_too_long``,
    ``invalid_title``.

    Args:
        session_id (str): A session id, exactly as stored (e.g. `20260105_101500_a1b2c3`); `GET
            /sessions/resolve` turns a prefix or a title into one
        idempotency_key (None | str | Unset): Retry-safe key: the same key and body replay the
            first response
        body (ForkCreate | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SessionPublic
    """

    return sync_detailed(
        session_id=session_id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    session_id: str,
    *,
    client: AuthenticatedClient,
    body: ForkCreate | None | Unset = UNSET,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[Problem | SessionPublic]:
    """Fork (branch) a session

     Branch: end the session with ``branched`` (unless already ended) and create a child marked
    ``model_config._branched_from`` holding a copy of its active messages (up to and including
    ``message_id``), same source, model and system prompt, titled ``title`` or the next ``base #N``.
    Honours ``Idempotency-Key``.

    Codes: 404 ``session_not_found``, ``message_not_found``; 409 ``session_exists`` for a taken ``id``,
    ``title_in_use`` for an explicit title; 422 ``invalid_session_id``, ``title_too_long``,
    ``invalid_title``.

    Args:
        session_id (str): A session id, exactly as stored (e.g. `20260105_101500_a1b2c3`); `GET
            /sessions/resolve` turns a prefix or a title into one
        idempotency_key (None | str | Unset): Retry-safe key: the same key and body replay the
            first response
        body (ForkCreate | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SessionPublic]
    """

    kwargs = _get_kwargs(
        session_id=session_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    session_id: str,
    *,
    client: AuthenticatedClient,
    body: ForkCreate | None | Unset = UNSET,
    idempotency_key: None | str | Unset = UNSET,
) -> Problem | SessionPublic | None:
    """Fork (branch) a session

     Branch: end the session with ``branched`` (unless already ended) and create a child marked
    ``model_config._branched_from`` holding a copy of its active messages (up to and including
    ``message_id``), same source, model and system prompt, titled ``title`` or the next ``base #N``.
    Honours ``Idempotency-Key``.

    Codes: 404 ``session_not_found``, ``message_not_found``; 409 ``session_exists`` for a taken ``id``,
    ``title_in_use`` for an explicit title; 422 ``invalid_session_id``, ``title_too_long``,
    ``invalid_title``.

    Args:
        session_id (str): A session id, exactly as stored (e.g. `20260105_101500_a1b2c3`); `GET
            /sessions/resolve` turns a prefix or a title into one
        idempotency_key (None | str | Unset): Retry-safe key: the same key and body replay the
            first response
        body (ForkCreate | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SessionPublic
    """

    return (
        await asyncio_detailed(
            session_id=session_id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
