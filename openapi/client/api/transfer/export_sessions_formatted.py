from http import HTTPStatus
from typing import Any, Literal

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.export_sessions_formatted_format import ExportSessionsFormattedFormat
from ...models.export_sessions_formatted_layout_type_0 import ExportSessionsFormattedLayoutType0
from ...models.export_sessions_formatted_lineage import ExportSessionsFormattedLineage
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    format_: ExportSessionsFormattedFormat | Unset = ExportSessionsFormattedFormat.JSONL,
    only: Literal["user-prompts"] | None | Unset = UNSET,
    redact: bool | None | Unset = UNSET,
    layout: ExportSessionsFormattedLayoutType0 | None | Unset = UNSET,
    lineage: ExportSessionsFormattedLineage | Unset = ExportSessionsFormattedLineage.SINGLE,
    source: None | str | Unset = UNSET,
    session_id: None | str | Unset = UNSET,
    since: float | None | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_format_: str | Unset = UNSET
    if not isinstance(format_, Unset):
        json_format_ = format_.value

    params["format"] = json_format_

    json_only: Literal["user-prompts"] | None | Unset
    if isinstance(only, Unset):
        json_only = UNSET
    else:
        json_only = only
    params["only"] = json_only

    json_redact: bool | None | Unset
    if isinstance(redact, Unset):
        json_redact = UNSET
    else:
        json_redact = redact
    params["redact"] = json_redact

    json_layout: None | str | Unset
    if isinstance(layout, Unset):
        json_layout = UNSET
    elif isinstance(layout, ExportSessionsFormattedLayoutType0):
        json_layout = layout.value
    else:
        json_layout = layout
    params["layout"] = json_layout

    json_lineage: str | Unset = UNSET
    if not isinstance(lineage, Unset):
        json_lineage = lineage.value

    params["lineage"] = json_lineage

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

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/export",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | str | None:
    if response.status_code == 200:
        response_200 = response.text
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
) -> Response[Problem | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    format_: ExportSessionsFormattedFormat | Unset = ExportSessionsFormattedFormat.JSONL,
    only: Literal["user-prompts"] | None | Unset = UNSET,
    redact: bool | None | Unset = UNSET,
    layout: ExportSessionsFormattedLayoutType0 | None | Unset = UNSET,
    lineage: ExportSessionsFormattedLineage | Unset = ExportSessionsFormattedLineage.SINGLE,
    source: None | str | Unset = UNSET,
    session_id: None | str | Unset = UNSET,
    since: float | None | Unset = UNSET,
) -> Response[Problem | str]:
    """Export sessions as JSONL, Markdown, Quarto, HTML or traces (streamed)

     Every format streams with constant memory: sessions and their messages are read a page at a time,
    each page in its own short read transaction. The filters are those of `GET /export.jsonl`. `jsonl`
    (default): the line format of `GET /export.jsonl`, byte for byte. `md`: one Markdown document (the
    agent's `render_sessions_export`), or with `layout=files` one verified file per session (the agent's
    `hermes sessions export --format md` files: front matter, messages, and a closing SHA-256 of the
    file). `qmd`: the same files for Quarto. `html`: one self-contained page, a sidebar when there are
    several sessions. `trace`: Claude Code JSONL traces (the Hugging Face agent trace viewer's format),
    one line per turn, sessions one after another.

    `only=user-prompts` keeps the user prompts alone: one record per line with `format=jsonl`
    (`session_id, index, created_at, role, text, message_id, event_id`), numbered sections with
    `format=md`. `redact=true` masks secrets (API keys, bearer and other tokens, private keys, passwords
    in connection strings, JWTs, phone numbers) in every message, as the agent's `--redact`; it is on by
    default for `trace` and off otherwise, as in the agent. With `layout=files` and a `session_id`, the
    answer is that session's file: `Content-Disposition` names it as the agent would, `X-Hermes-Message-
    Count` is the number of messages it holds and `X-Hermes-Lineage-Session-Ids` the segments it covers
    (space-separated, root to tip; `lineage=logical` exports the whole compression lineage as one file).

    Args:
        format_ (ExportSessionsFormattedFormat | Unset): the export format Default:
            ExportSessionsFormattedFormat.JSONL.
        only (Literal['user-prompts'] | None | Unset): keep only the user prompts
        redact (bool | None | Unset): mask secrets in messages (default: on for trace, off
            otherwise)
        layout (ExportSessionsFormattedLayoutType0 | None | Unset): md: one `document` (default)
            or verified `files`, one per session; qmd: files
        lineage (ExportSessionsFormattedLineage | Unset): `logical`: the compression lineage
            through `session_id` as one session Default: ExportSessionsFormattedLineage.SINGLE.
        source (None | str | Unset): only sessions of this source
        session_id (None | str | Unset): only this session (404 if missing)
        since (float | None | Unset): only sessions active (last message, else start) at or after
            this epoch time

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        format_=format_,
        only=only,
        redact=redact,
        layout=layout,
        lineage=lineage,
        source=source,
        session_id=session_id,
        since=since,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    format_: ExportSessionsFormattedFormat | Unset = ExportSessionsFormattedFormat.JSONL,
    only: Literal["user-prompts"] | None | Unset = UNSET,
    redact: bool | None | Unset = UNSET,
    layout: ExportSessionsFormattedLayoutType0 | None | Unset = UNSET,
    lineage: ExportSessionsFormattedLineage | Unset = ExportSessionsFormattedLineage.SINGLE,
    source: None | str | Unset = UNSET,
    session_id: None | str | Unset = UNSET,
    since: float | None | Unset = UNSET,
) -> Problem | str | None:
    """Export sessions as JSONL, Markdown, Quarto, HTML or traces (streamed)

     Every format streams with constant memory: sessions and their messages are read a page at a time,
    each page in its own short read transaction. The filters are those of `GET /export.jsonl`. `jsonl`
    (default): the line format of `GET /export.jsonl`, byte for byte. `md`: one Markdown document (the
    agent's `render_sessions_export`), or with `layout=files` one verified file per session (the agent's
    `hermes sessions export --format md` files: front matter, messages, and a closing SHA-256 of the
    file). `qmd`: the same files for Quarto. `html`: one self-contained page, a sidebar when there are
    several sessions. `trace`: Claude Code JSONL traces (the Hugging Face agent trace viewer's format),
    one line per turn, sessions one after another.

    `only=user-prompts` keeps the user prompts alone: one record per line with `format=jsonl`
    (`session_id, index, created_at, role, text, message_id, event_id`), numbered sections with
    `format=md`. `redact=true` masks secrets (API keys, bearer and other tokens, private keys, passwords
    in connection strings, JWTs, phone numbers) in every message, as the agent's `--redact`; it is on by
    default for `trace` and off otherwise, as in the agent. With `layout=files` and a `session_id`, the
    answer is that session's file: `Content-Disposition` names it as the agent would, `X-Hermes-Message-
    Count` is the number of messages it holds and `X-Hermes-Lineage-Session-Ids` the segments it covers
    (space-separated, root to tip; `lineage=logical` exports the whole compression lineage as one file).

    Args:
        format_ (ExportSessionsFormattedFormat | Unset): the export format Default:
            ExportSessionsFormattedFormat.JSONL.
        only (Literal['user-prompts'] | None | Unset): keep only the user prompts
        redact (bool | None | Unset): mask secrets in messages (default: on for trace, off
            otherwise)
        layout (ExportSessionsFormattedLayoutType0 | None | Unset): md: one `document` (default)
            or verified `files`, one per session; qmd: files
        lineage (ExportSessionsFormattedLineage | Unset): `logical`: the compression lineage
            through `session_id` as one session Default: ExportSessionsFormattedLineage.SINGLE.
        source (None | str | Unset): only sessions of this source
        session_id (None | str | Unset): only this session (404 if missing)
        since (float | None | Unset): only sessions active (last message, else start) at or after
            this epoch time

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return sync_detailed(
        client=client,
        format_=format_,
        only=only,
        redact=redact,
        layout=layout,
        lineage=lineage,
        source=source,
        session_id=session_id,
        since=since,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    format_: ExportSessionsFormattedFormat | Unset = ExportSessionsFormattedFormat.JSONL,
    only: Literal["user-prompts"] | None | Unset = UNSET,
    redact: bool | None | Unset = UNSET,
    layout: ExportSessionsFormattedLayoutType0 | None | Unset = UNSET,
    lineage: ExportSessionsFormattedLineage | Unset = ExportSessionsFormattedLineage.SINGLE,
    source: None | str | Unset = UNSET,
    session_id: None | str | Unset = UNSET,
    since: float | None | Unset = UNSET,
) -> Response[Problem | str]:
    """Export sessions as JSONL, Markdown, Quarto, HTML or traces (streamed)

     Every format streams with constant memory: sessions and their messages are read a page at a time,
    each page in its own short read transaction. The filters are those of `GET /export.jsonl`. `jsonl`
    (default): the line format of `GET /export.jsonl`, byte for byte. `md`: one Markdown document (the
    agent's `render_sessions_export`), or with `layout=files` one verified file per session (the agent's
    `hermes sessions export --format md` files: front matter, messages, and a closing SHA-256 of the
    file). `qmd`: the same files for Quarto. `html`: one self-contained page, a sidebar when there are
    several sessions. `trace`: Claude Code JSONL traces (the Hugging Face agent trace viewer's format),
    one line per turn, sessions one after another.

    `only=user-prompts` keeps the user prompts alone: one record per line with `format=jsonl`
    (`session_id, index, created_at, role, text, message_id, event_id`), numbered sections with
    `format=md`. `redact=true` masks secrets (API keys, bearer and other tokens, private keys, passwords
    in connection strings, JWTs, phone numbers) in every message, as the agent's `--redact`; it is on by
    default for `trace` and off otherwise, as in the agent. With `layout=files` and a `session_id`, the
    answer is that session's file: `Content-Disposition` names it as the agent would, `X-Hermes-Message-
    Count` is the number of messages it holds and `X-Hermes-Lineage-Session-Ids` the segments it covers
    (space-separated, root to tip; `lineage=logical` exports the whole compression lineage as one file).

    Args:
        format_ (ExportSessionsFormattedFormat | Unset): the export format Default:
            ExportSessionsFormattedFormat.JSONL.
        only (Literal['user-prompts'] | None | Unset): keep only the user prompts
        redact (bool | None | Unset): mask secrets in messages (default: on for trace, off
            otherwise)
        layout (ExportSessionsFormattedLayoutType0 | None | Unset): md: one `document` (default)
            or verified `files`, one per session; qmd: files
        lineage (ExportSessionsFormattedLineage | Unset): `logical`: the compression lineage
            through `session_id` as one session Default: ExportSessionsFormattedLineage.SINGLE.
        source (None | str | Unset): only sessions of this source
        session_id (None | str | Unset): only this session (404 if missing)
        since (float | None | Unset): only sessions active (last message, else start) at or after
            this epoch time

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        format_=format_,
        only=only,
        redact=redact,
        layout=layout,
        lineage=lineage,
        source=source,
        session_id=session_id,
        since=since,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    format_: ExportSessionsFormattedFormat | Unset = ExportSessionsFormattedFormat.JSONL,
    only: Literal["user-prompts"] | None | Unset = UNSET,
    redact: bool | None | Unset = UNSET,
    layout: ExportSessionsFormattedLayoutType0 | None | Unset = UNSET,
    lineage: ExportSessionsFormattedLineage | Unset = ExportSessionsFormattedLineage.SINGLE,
    source: None | str | Unset = UNSET,
    session_id: None | str | Unset = UNSET,
    since: float | None | Unset = UNSET,
) -> Problem | str | None:
    """Export sessions as JSONL, Markdown, Quarto, HTML or traces (streamed)

     Every format streams with constant memory: sessions and their messages are read a page at a time,
    each page in its own short read transaction. The filters are those of `GET /export.jsonl`. `jsonl`
    (default): the line format of `GET /export.jsonl`, byte for byte. `md`: one Markdown document (the
    agent's `render_sessions_export`), or with `layout=files` one verified file per session (the agent's
    `hermes sessions export --format md` files: front matter, messages, and a closing SHA-256 of the
    file). `qmd`: the same files for Quarto. `html`: one self-contained page, a sidebar when there are
    several sessions. `trace`: Claude Code JSONL traces (the Hugging Face agent trace viewer's format),
    one line per turn, sessions one after another.

    `only=user-prompts` keeps the user prompts alone: one record per line with `format=jsonl`
    (`session_id, index, created_at, role, text, message_id, event_id`), numbered sections with
    `format=md`. `redact=true` masks secrets (API keys, bearer and other tokens, private keys, passwords
    in connection strings, JWTs, phone numbers) in every message, as the agent's `--redact`; it is on by
    default for `trace` and off otherwise, as in the agent. With `layout=files` and a `session_id`, the
    answer is that session's file: `Content-Disposition` names it as the agent would, `X-Hermes-Message-
    Count` is the number of messages it holds and `X-Hermes-Lineage-Session-Ids` the segments it covers
    (space-separated, root to tip; `lineage=logical` exports the whole compression lineage as one file).

    Args:
        format_ (ExportSessionsFormattedFormat | Unset): the export format Default:
            ExportSessionsFormattedFormat.JSONL.
        only (Literal['user-prompts'] | None | Unset): keep only the user prompts
        redact (bool | None | Unset): mask secrets in messages (default: on for trace, off
            otherwise)
        layout (ExportSessionsFormattedLayoutType0 | None | Unset): md: one `document` (default)
            or verified `files`, one per session; qmd: files
        lineage (ExportSessionsFormattedLineage | Unset): `logical`: the compression lineage
            through `session_id` as one session Default: ExportSessionsFormattedLineage.SINGLE.
        source (None | str | Unset): only sessions of this source
        session_id (None | str | Unset): only this session (404 if missing)
        since (float | None | Unset): only sessions active (last message, else start) at or after
            this epoch time

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return (
        await asyncio_detailed(
            client=client,
            format_=format_,
            only=only,
            redact=redact,
            layout=layout,
            lineage=lineage,
            source=source,
            session_id=session_id,
            since=since,
        )
    ).parsed
