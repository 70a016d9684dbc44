from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    source: None | str | Unset = UNSET,
    session_id: None | str | Unset = UNSET,
    since: float | None | Unset = UNSET,
    lineage: bool | Unset = False,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_source: None | str | Unset
    if isinstance(source, Unset):
        json_source = UNSET
    else:
        json_source = source
    params["source"] = json_source

    json_session_id: None | str | Unset
    if isinstance(session_id, Unset):
        json_session_id = UNSET
    else:
        json_session_id = session_id
    params["session_id"] = json_session_id

    json_since: float | None | Unset
    if isinstance(since, Unset):
        json_since = UNSET
    else:
        json_since = since
    params["since"] = json_since

    params["lineage"] = lineage

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/export.jsonl",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | None:
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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    source: None | str | Unset = UNSET,
    session_id: None | str | Unset = UNSET,
    since: float | None | Unset = UNSET,
    lineage: bool | Unset = False,
) -> Response[Problem]:
    """Export sessions as JSONL (streamed)

     One session per line, in the line format of `hermes sessions export` (the agent's `export_all`).
    With `lineage=true` and a `session_id`, one line for the whole logical session instead (the agent's
    `export_session_lineage`, `hermes sessions export --lineage logical`): the compression tip's columns
    with `message_count` = every active message of the lineage, `messages` = all segments' messages root
    → tip, `segments` = each compression segment (its columns and messages) and `lineage_session_ids`
    root → tip.

    A stored value the encoder cannot take (structured `content` or `tool_calls` nested deeper than 200
    levels, an integer beyond 64 bits, a lone surrogate) is written as its stored text, a JSON string. A
    value no JSON can hold (a BLOB, TEXT that is not UTF-8) leaves its message, or its whole session
    when it is in the session row, out; every other session is written, and the stream then ends with
    one error record line `{"_export_error": {"detail": str, "stopped_early": bool, "sessions_skipped":
    [{"session_id", "column", "reason"}], "messages_skipped": [{"session_id", "message_id", "column",
    "reason"}]}}` (`reason`: `binary_value` or `invalid_utf8`; at most 1,000 entries each). An export
    that cannot go on ends with the same record, `stopped_early: true`. `POST /import` reports that line
    (`export_incomplete`) and does not import it.

    Args:
        source (None | str | Unset): only sessions of this source
        session_id (None | str | Unset): only this session (404 if missing)
        since (float | None | Unset): only sessions active (last message, else start) at or after
            this epoch time
        lineage (bool | Unset): export the compression lineage through `session_id` as one logical
            session (requires `session_id`; `source` and `since` do not apply) Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem]
    """

    kwargs = _get_kwargs(
        source=source,
        session_id=session_id,
        since=since,
        lineage=lineage,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    source: None | str | Unset = UNSET,
    session_id: None | str | Unset = UNSET,
    since: float | None | Unset = UNSET,
    lineage: bool | Unset = False,
) -> Problem | None:
    """Export sessions as JSONL (streamed)

     One session per line, in the line format of `hermes sessions export` (the agent's `export_all`).
    With `lineage=true` and a `session_id`, one line for the whole logical session instead (the agent's
    `export_session_lineage`, `hermes sessions export --lineage logical`): the compression tip's columns
    with `message_count` = every active message of the lineage, `messages` = all segments' messages root
    → tip, `segments` = each compression segment (its columns and messages) and `lineage_session_ids`
    root → tip.

    A stored value the encoder cannot take (structured `content` or `tool_calls` nested deeper than 200
    levels, an integer beyond 64 bits, a lone surrogate) is written as its stored text, a JSON string. A
    value no JSON can hold (a BLOB, TEXT that is not UTF-8) leaves its message, or its whole session
    when it is in the session row, out; every other session is written, and the stream then ends with
    one error record line `{"_export_error": {"detail": str, "stopped_early": bool, "sessions_skipped":
    [{"session_id", "column", "reason"}], "messages_skipped": [{"session_id", "message_id", "column",
    "reason"}]}}` (`reason`: `binary_value` or `invalid_utf8`; at most 1,000 entries each). An export
    that cannot go on ends with the same record, `stopped_early: true`. `POST /import` reports that line
    (`export_incomplete`) and does not import it.

    Args:
        source (None | str | Unset): only sessions of this source
        session_id (None | str | Unset): only this session (404 if missing)
        since (float | None | Unset): only sessions active (last message, else start) at or after
            this epoch time
        lineage (bool | Unset): export the compression lineage through `session_id` as one logical
            session (requires `session_id`; `source` and `since` do not apply) Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem
    """

    return sync_detailed(
        client=client,
        source=source,
        session_id=session_id,
        since=since,
        lineage=lineage,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    source: None | str | Unset = UNSET,
    session_id: None | str | Unset = UNSET,
    since: float | None | Unset = UNSET,
    lineage: bool | Unset = False,
) -> Response[Problem]:
    """Export sessions as JSONL (streamed)

     One session per line, in the line format of `hermes sessions export` (the agent's `export_all`).
    With `lineage=true` and a `session_id`, one line for the whole logical session instead (the agent's
    `export_session_lineage`, `hermes sessions export --lineage logical`): the compression tip's columns
    with `message_count` = every active message of the lineage, `messages` = all segments' messages root
    → tip, `segments` = each compression segment (its columns and messages) and `lineage_session_ids`
    root → tip.

    A stored value the encoder cannot take (structured `content` or `tool_calls` nested deeper than 200
    levels, an integer beyond 64 bits, a lone surrogate) is written as its stored text, a JSON string. A
    value no JSON can hold (a BLOB, TEXT that is not UTF-8) leaves its message, or its whole session
    when it is in the session row, out; every other session is written, and the stream then ends with
    one error record line `{"_export_error": {"detail": str, "stopped_early": bool, "sessions_skipped":
    [{"session_id", "column", "reason"}], "messages_skipped": [{"session_id", "message_id", "column",
    "reason"}]}}` (`reason`: `binary_value` or `invalid_utf8`; at most 1,000 entries each). An export
    that cannot go on ends with the same record, `stopped_early: true`. `POST /import` reports that line
    (`export_incomplete`) and does not import it.

    Args:
        source (None | str | Unset): only sessions of this source
        session_id (None | str | Unset): only this session (404 if missing)
        since (float | None | Unset): only sessions active (last message, else start) at or after
            this epoch time
        lineage (bool | Unset): export the compression lineage through `session_id` as one logical
            session (requires `session_id`; `source` and `since` do not apply) Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem]
    """

    kwargs = _get_kwargs(
        source=source,
        session_id=session_id,
        since=since,
        lineage=lineage,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    source: None | str | Unset = UNSET,
    session_id: None | str | Unset = UNSET,
    since: float | None | Unset = UNSET,
    lineage: bool | Unset = False,
) -> Problem | None:
    """Export sessions as JSONL (streamed)

     One session per line, in the line format of `hermes sessions export` (the agent's `export_all`).
    With `lineage=true` and a `session_id`, one line for the whole logical session instead (the agent's
    `export_session_lineage`, `hermes sessions export --lineage logical`): the compression tip's columns
    with `message_count` = every active message of the lineage, `messages` = all segments' messages root
    → tip, `segments` = each compression segment (its columns and messages) and `lineage_session_ids`
    root → tip.

    A stored value the encoder cannot take (structured `content` or `tool_calls` nested deeper than 200
    levels, an integer beyond 64 bits, a lone surrogate) is written as its stored text, a JSON string. A
    value no JSON can hold (a BLOB, TEXT that is not UTF-8) leaves its message, or its whole session
    when it is in the session row, out; every other session is written, and the stream then ends with
    one error record line `{"_export_error": {"detail": str, "stopped_early": bool, "sessions_skipped":
    [{"session_id", "column", "reason"}], "messages_skipped": [{"session_id", "message_id", "column",
    "reason"}]}}` (`reason`: `binary_value` or `invalid_utf8`; at most 1,000 entries each). An export
    that cannot go on ends with the same record, `stopped_early: true`. `POST /import` reports that line
    (`export_incomplete`) and does not import it.

    Args:
        source (None | str | Unset): only sessions of this source
        session_id (None | str | Unset): only this session (404 if missing)
        since (float | None | Unset): only sessions active (last message, else start) at or after
            this epoch time
        lineage (bool | Unset): export the compression lineage through `session_id` as one logical
            session (requires `session_id`; `source` and `since` do not apply) Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            source=source,
            session_id=session_id,
            since=since,
            lineage=lineage,
        )
    ).parsed
