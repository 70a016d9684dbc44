from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.sync_batch_in import SyncBatchIn
from ...models.sync_result_out import SyncResultOut
from ...types import Response


def _get_kwargs(
    *,
    body: SyncBatchIn,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/sync/batches",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | SyncResultOut | None:
    if response.status_code == 200:
        response_200 = SyncResultOut.from_dict(response.json())

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
) -> Response[Problem | SyncResultOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: SyncBatchIn,
) -> Response[Problem | SyncResultOut]:
    """Apply a batch of an agent's file

     Upsert the session rows and store the messages not stored before, in one transaction, under the
    home's label. A message is known by its home, its file's generation (`file`) and its id in that
    file,
    so a repeated or resumed batch stores nothing twice (`messages_skipped`); a message another
    generation
    delivered counts as there only when it says the same. Sessions are the home's: a row overwrites the
    one
    it synced before, never a session created here or synced from another home (`sessions_conflicting`).
    A
    row breaking a field rule (the API's own: timestamps, counts, flags, titles, ids) is set aside and
    listed in `refused`; so is a row the store itself refuses (a constraint of its schema:
    `write_failed`;
    a newer agent's session with messages that would change kind: `session_kind_locked`), with the
    messages
    of a refused session row; the rest is stored, in one transaction. Errors: `invalid_sync_batch` (422,
    a
    batch of the wrong shape; nothing of the batch was written).

    Args:
        body (SyncBatchIn): One batch of a home's agent file.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SyncResultOut]
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
    body: SyncBatchIn,
) -> Problem | SyncResultOut | None:
    """Apply a batch of an agent's file

     Upsert the session rows and store the messages not stored before, in one transaction, under the
    home's label. A message is known by its home, its file's generation (`file`) and its id in that
    file,
    so a repeated or resumed batch stores nothing twice (`messages_skipped`); a message another
    generation
    delivered counts as there only when it says the same. Sessions are the home's: a row overwrites the
    one
    it synced before, never a session created here or synced from another home (`sessions_conflicting`).
    A
    row breaking a field rule (the API's own: timestamps, counts, flags, titles, ids) is set aside and
    listed in `refused`; so is a row the store itself refuses (a constraint of its schema:
    `write_failed`;
    a newer agent's session with messages that would change kind: `session_kind_locked`), with the
    messages
    of a refused session row; the rest is stored, in one transaction. Errors: `invalid_sync_batch` (422,
    a
    batch of the wrong shape; nothing of the batch was written).

    Args:
        body (SyncBatchIn): One batch of a home's agent file.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SyncResultOut
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: SyncBatchIn,
) -> Response[Problem | SyncResultOut]:
    """Apply a batch of an agent's file

     Upsert the session rows and store the messages not stored before, in one transaction, under the
    home's label. A message is known by its home, its file's generation (`file`) and its id in that
    file,
    so a repeated or resumed batch stores nothing twice (`messages_skipped`); a message another
    generation
    delivered counts as there only when it says the same. Sessions are the home's: a row overwrites the
    one
    it synced before, never a session created here or synced from another home (`sessions_conflicting`).
    A
    row breaking a field rule (the API's own: timestamps, counts, flags, titles, ids) is set aside and
    listed in `refused`; so is a row the store itself refuses (a constraint of its schema:
    `write_failed`;
    a newer agent's session with messages that would change kind: `session_kind_locked`), with the
    messages
    of a refused session row; the rest is stored, in one transaction. Errors: `invalid_sync_batch` (422,
    a
    batch of the wrong shape; nothing of the batch was written).

    Args:
        body (SyncBatchIn): One batch of a home's agent file.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SyncResultOut]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: SyncBatchIn,
) -> Problem | SyncResultOut | None:
    """Apply a batch of an agent's file

     Upsert the session rows and store the messages not stored before, in one transaction, under the
    home's label. A message is known by its home, its file's generation (`file`) and its id in that
    file,
    so a repeated or resumed batch stores nothing twice (`messages_skipped`); a message another
    generation
    delivered counts as there only when it says the same. Sessions are the home's: a row overwrites the
    one
    it synced before, never a session created here or synced from another home (`sessions_conflicting`).
    A
    row breaking a field rule (the API's own: timestamps, counts, flags, titles, ids) is set aside and
    listed in `refused`; so is a row the store itself refuses (a constraint of its schema:
    `write_failed`;
    a newer agent's session with messages that would change kind: `session_kind_locked`), with the
    messages
    of a refused session row; the rest is stored, in one transaction. Errors: `invalid_sync_batch` (422,
    a
    batch of the wrong shape; nothing of the batch was written).

    Args:
        body (SyncBatchIn): One batch of a home's agent file.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SyncResultOut
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
