from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.import_result import ImportResult
from ...models.import_sessions_files_body import ImportSessionsFilesBody
from ...models.import_sessions_on_conflict import ImportSessionsOnConflict
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: ImportSessionsFilesBody,
    on_conflict: ImportSessionsOnConflict | Unset = ImportSessionsOnConflict.SKIP,
    dry_run: bool | Unset = False,
    wait_for_index: bool | Unset = False,
    title_untitled: bool | Unset = False,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    params: dict[str, Any] = {}

    json_on_conflict: str | Unset = UNSET
    if not isinstance(on_conflict, Unset):
        json_on_conflict = on_conflict.value

    params["on_conflict"] = json_on_conflict

    params["dry_run"] = dry_run

    params["wait_for_index"] = wait_for_index

    params["title_untitled"] = title_untitled

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/import",
        "params": params,
    }

    _kwargs["files"] = body.to_multipart()

    headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ImportResult | Problem | None:
    if response.status_code == 200:
        response_200 = ImportResult.from_dict(response.json())

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
) -> Response[ImportResult | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: ImportSessionsFilesBody,
    on_conflict: ImportSessionsOnConflict | Unset = ImportSessionsOnConflict.SKIP,
    dry_run: bool | Unset = False,
    wait_for_index: bool | Unset = False,
    title_untitled: bool | Unset = False,
) -> Response[ImportResult | Problem]:
    """Import sessions from JSONL

     Import an export file; bad lines are reported by number and none of their session is written.

    Args:
        on_conflict (ImportSessionsOnConflict | Unset): an id that already exists: skip that
            session, replace it, or refuse the whole file Default: ImportSessionsOnConflict.SKIP.
        dry_run (bool | Unset): validate and count without writing anything Default: False.
        wait_for_index (bool | Unset): answer only once the imported messages are in the full-text
            indexes (an import of over 1,000 messages or 200 sessions is otherwise indexed in the
            background after the answer; see `index_pending`) Default: False.
        title_untitled (bool | Unset): give the imported sessions that have no title an automatic
            one, as a live session gets after its first exchange (when automatic titles are on); by
            default imported history keeps the titles it came with Default: False.
        body (ImportSessionsFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ImportResult | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        on_conflict=on_conflict,
        dry_run=dry_run,
        wait_for_index=wait_for_index,
        title_untitled=title_untitled,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: ImportSessionsFilesBody,
    on_conflict: ImportSessionsOnConflict | Unset = ImportSessionsOnConflict.SKIP,
    dry_run: bool | Unset = False,
    wait_for_index: bool | Unset = False,
    title_untitled: bool | Unset = False,
) -> ImportResult | Problem | None:
    """Import sessions from JSONL

     Import an export file; bad lines are reported by number and none of their session is written.

    Args:
        on_conflict (ImportSessionsOnConflict | Unset): an id that already exists: skip that
            session, replace it, or refuse the whole file Default: ImportSessionsOnConflict.SKIP.
        dry_run (bool | Unset): validate and count without writing anything Default: False.
        wait_for_index (bool | Unset): answer only once the imported messages are in the full-text
            indexes (an import of over 1,000 messages or 200 sessions is otherwise indexed in the
            background after the answer; see `index_pending`) Default: False.
        title_untitled (bool | Unset): give the imported sessions that have no title an automatic
            one, as a live session gets after its first exchange (when automatic titles are on); by
            default imported history keeps the titles it came with Default: False.
        body (ImportSessionsFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ImportResult | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
        on_conflict=on_conflict,
        dry_run=dry_run,
        wait_for_index=wait_for_index,
        title_untitled=title_untitled,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: ImportSessionsFilesBody,
    on_conflict: ImportSessionsOnConflict | Unset = ImportSessionsOnConflict.SKIP,
    dry_run: bool | Unset = False,
    wait_for_index: bool | Unset = False,
    title_untitled: bool | Unset = False,
) -> Response[ImportResult | Problem]:
    """Import sessions from JSONL

     Import an export file; bad lines are reported by number and none of their session is written.

    Args:
        on_conflict (ImportSessionsOnConflict | Unset): an id that already exists: skip that
            session, replace it, or refuse the whole file Default: ImportSessionsOnConflict.SKIP.
        dry_run (bool | Unset): validate and count without writing anything Default: False.
        wait_for_index (bool | Unset): answer only once the imported messages are in the full-text
            indexes (an import of over 1,000 messages or 200 sessions is otherwise indexed in the
            background after the answer; see `index_pending`) Default: False.
        title_untitled (bool | Unset): give the imported sessions that have no title an automatic
            one, as a live session gets after its first exchange (when automatic titles are on); by
            default imported history keeps the titles it came with Default: False.
        body (ImportSessionsFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ImportResult | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        on_conflict=on_conflict,
        dry_run=dry_run,
        wait_for_index=wait_for_index,
        title_untitled=title_untitled,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: ImportSessionsFilesBody,
    on_conflict: ImportSessionsOnConflict | Unset = ImportSessionsOnConflict.SKIP,
    dry_run: bool | Unset = False,
    wait_for_index: bool | Unset = False,
    title_untitled: bool | Unset = False,
) -> ImportResult | Problem | None:
    """Import sessions from JSONL

     Import an export file; bad lines are reported by number and none of their session is written.

    Args:
        on_conflict (ImportSessionsOnConflict | Unset): an id that already exists: skip that
            session, replace it, or refuse the whole file Default: ImportSessionsOnConflict.SKIP.
        dry_run (bool | Unset): validate and count without writing anything Default: False.
        wait_for_index (bool | Unset): answer only once the imported messages are in the full-text
            indexes (an import of over 1,000 messages or 200 sessions is otherwise indexed in the
            background after the answer; see `index_pending`) Default: False.
        title_untitled (bool | Unset): give the imported sessions that have no title an automatic
            one, as a live session gets after its first exchange (when automatic titles are on); by
            default imported history keeps the titles it came with Default: False.
        body (ImportSessionsFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ImportResult | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            on_conflict=on_conflict,
            dry_run=dry_run,
            wait_for_index=wait_for_index,
            title_untitled=title_untitled,
        )
    ).parsed
