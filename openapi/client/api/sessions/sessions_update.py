from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.session_public import SessionPublic
from ...models.session_update import SessionUpdate
from ...types import UNSET, Response, Unset


def _get_kwargs(
    session_id: str,
    *,
    body: SessionUpdate,
    if_match: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_match, Unset):
        headers["If-Match"] = if_match

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/sessions/{session_id}".format(
            session_id=quote(str(session_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | SessionPublic | None:
    if response.status_code == 200:
        response_200 = SessionPublic.from_dict(response.json())

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

    if response.status_code == 412:
        response_412 = Problem.from_dict(response.json())

        return response_412

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
    body: SessionUpdate,
    if_match: None | str | Unset = UNSET,
) -> Response[Problem | SessionPublic]:
    """Update a session (title, archived, model, end)

     Change title (null clears; a title held by a compression ancestor moves here), archived, model,
    model_config, the workspace (cwd, git_branch, git_repo_root, profile_name; null clears one), or end
    it
    with end_reason. Codes: 409 ``title_in_use`` (with ``holder`` and ``suggested_title``), 409
    ``session_kind_locked`` (a newer agent's file: the change would move a session with messages into or
    out
    of its substring index), 412 ``precondition_failed``, 422 ``title_too_long``, ``invalid_title``.

    Args:
        session_id (str): A session id, exactly as stored (e.g. `20260105_101500_a1b2c3`); `GET
            /sessions/resolve` turns a prefix or a title into one
        if_match (None | str | Unset): Only act when the session's current ETag matches (else 412)
        body (SessionUpdate): Body of ``PATCH /sessions/{id}``; only the members present are
            changed.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SessionPublic]
    """

    kwargs = _get_kwargs(
        session_id=session_id,
        body=body,
        if_match=if_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    session_id: str,
    *,
    client: AuthenticatedClient,
    body: SessionUpdate,
    if_match: None | str | Unset = UNSET,
) -> Problem | SessionPublic | None:
    """Update a session (title, archived, model, end)

     Change title (null clears; a title held by a compression ancestor moves here), archived, model,
    model_config, the workspace (cwd, git_branch, git_repo_root, profile_name; null clears one), or end
    it
    with end_reason. Codes: 409 ``title_in_use`` (with ``holder`` and ``suggested_title``), 409
    ``session_kind_locked`` (a newer agent's file: the change would move a session with messages into or
    out
    of its substring index), 412 ``precondition_failed``, 422 ``title_too_long``, ``invalid_title``.

    Args:
        session_id (str): A session id, exactly as stored (e.g. `20260105_101500_a1b2c3`); `GET
            /sessions/resolve` turns a prefix or a title into one
        if_match (None | str | Unset): Only act when the session's current ETag matches (else 412)
        body (SessionUpdate): Body of ``PATCH /sessions/{id}``; only the members present are
            changed.

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
        if_match=if_match,
    ).parsed


async def asyncio_detailed(
    session_id: str,
    *,
    client: AuthenticatedClient,
    body: SessionUpdate,
    if_match: None | str | Unset = UNSET,
) -> Response[Problem | SessionPublic]:
    """Update a session (title, archived, model, end)

     Change title (null clears; a title held by a compression ancestor moves here), archived, model,
    model_config, the workspace (cwd, git_branch, git_repo_root, profile_name; null clears one), or end
    it
    with end_reason. Codes: 409 ``title_in_use`` (with ``holder`` and ``suggested_title``), 409
    ``session_kind_locked`` (a newer agent's file: the change would move a session with messages into or
    out
    of its substring index), 412 ``precondition_failed``, 422 ``title_too_long``, ``invalid_title``.

    Args:
        session_id (str): A session id, exactly as stored (e.g. `20260105_101500_a1b2c3`); `GET
            /sessions/resolve` turns a prefix or a title into one
        if_match (None | str | Unset): Only act when the session's current ETag matches (else 412)
        body (SessionUpdate): Body of ``PATCH /sessions/{id}``; only the members present are
            changed.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SessionPublic]
    """

    kwargs = _get_kwargs(
        session_id=session_id,
        body=body,
        if_match=if_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    session_id: str,
    *,
    client: AuthenticatedClient,
    body: SessionUpdate,
    if_match: None | str | Unset = UNSET,
) -> Problem | SessionPublic | None:
    """Update a session (title, archived, model, end)

     Change title (null clears; a title held by a compression ancestor moves here), archived, model,
    model_config, the workspace (cwd, git_branch, git_repo_root, profile_name; null clears one), or end
    it
    with end_reason. Codes: 409 ``title_in_use`` (with ``holder`` and ``suggested_title``), 409
    ``session_kind_locked`` (a newer agent's file: the change would move a session with messages into or
    out
    of its substring index), 412 ``precondition_failed``, 422 ``title_too_long``, ``invalid_title``.

    Args:
        session_id (str): A session id, exactly as stored (e.g. `20260105_101500_a1b2c3`); `GET
            /sessions/resolve` turns a prefix or a title into one
        if_match (None | str | Unset): Only act when the session's current ETag matches (else 412)
        body (SessionUpdate): Body of ``PATCH /sessions/{id}``; only the members present are
            changed.

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
            if_match=if_match,
        )
    ).parsed
