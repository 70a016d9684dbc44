from http import HTTPStatus
from typing import Any, Literal

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.export_sessions_formatted_format import ExportSessionsFormattedFormat
from ...models.export_sessions_formatted_layout_type_0 import ExportSessionsFormattedLayoutType0
from ...models.export_sessions_formatted_lineage import ExportSessionsFormattedLineage
from ...models.export_sessions_formatted_status import ExportSessionsFormattedStatus
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    older_than: None | str | Unset = UNSET,
    newer_than: None | str | Unset = UNSET,
    before: None | str | Unset = UNSET,
    after: None | str | Unset = UNSET,
    title: None | str | Unset = UNSET,
    end_reason: None | str | Unset = UNSET,
    cwd: None | str | Unset = UNSET,
    min_messages: int | None | Unset = UNSET,
    max_messages: int | None | Unset = UNSET,
    model: None | str | Unset = UNSET,
    provider: None | str | Unset = UNSET,
    user: None | str | Unset = UNSET,
    chat_id: None | str | Unset = UNSET,
    chat_type: None | str | Unset = UNSET,
    branch: None | str | Unset = UNSET,
    min_tokens: int | None | Unset = UNSET,
    max_tokens: int | None | Unset = UNSET,
    min_cost: float | None | Unset = UNSET,
    max_cost: float | None | Unset = UNSET,
    min_tool_calls: int | None | Unset = UNSET,
    max_tool_calls: int | None | Unset = UNSET,
    workspace: None | str | Unset = UNSET,
    profile: None | str | Unset = UNSET,
    home: None | str | Unset = UNSET,
    format_: ExportSessionsFormattedFormat | Unset = ExportSessionsFormattedFormat.JSONL,
    only: Literal["user-prompts"] | None | Unset = UNSET,
    redact: bool | None | Unset = UNSET,
    layout: ExportSessionsFormattedLayoutType0 | None | Unset = UNSET,
    lineage: ExportSessionsFormattedLineage | Unset = ExportSessionsFormattedLineage.SINGLE,
    source: None | str | Unset = UNSET,
    session_id: None | str | Unset = UNSET,
    since: float | None | Unset = UNSET,
    status: ExportSessionsFormattedStatus | Unset = ExportSessionsFormattedStatus.ALL,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_older_than: None | str | Unset
    if isinstance(older_than, Unset):
        json_older_than = UNSET
    else:
        json_older_than = older_than
    params["older_than"] = json_older_than

    json_newer_than: None | str | Unset
    if isinstance(newer_than, Unset):
        json_newer_than = UNSET
    else:
        json_newer_than = newer_than
    params["newer_than"] = json_newer_than

    json_before: None | str | Unset
    if isinstance(before, Unset):
        json_before = UNSET
    else:
        json_before = before
    params["before"] = json_before

    json_after: None | str | Unset
    if isinstance(after, Unset):
        json_after = UNSET
    else:
        json_after = after
    params["after"] = json_after

    json_title: None | str | Unset
    if isinstance(title, Unset):
        json_title = UNSET
    else:
        json_title = title
    params["title"] = json_title

    json_end_reason: None | str | Unset
    if isinstance(end_reason, Unset):
        json_end_reason = UNSET
    else:
        json_end_reason = end_reason
    params["end_reason"] = json_end_reason

    json_cwd: None | str | Unset
    if isinstance(cwd, Unset):
        json_cwd = UNSET
    else:
        json_cwd = cwd
    params["cwd"] = json_cwd

    json_min_messages: int | None | Unset
    if isinstance(min_messages, Unset):
        json_min_messages = UNSET
    else:
        json_min_messages = min_messages
    params["min_messages"] = json_min_messages

    json_max_messages: int | None | Unset
    if isinstance(max_messages, Unset):
        json_max_messages = UNSET
    else:
        json_max_messages = max_messages
    params["max_messages"] = json_max_messages

    json_model: None | str | Unset
    if isinstance(model, Unset):
        json_model = UNSET
    else:
        json_model = model
    params["model"] = json_model

    json_provider: None | str | Unset
    if isinstance(provider, Unset):
        json_provider = UNSET
    else:
        json_provider = provider
    params["provider"] = json_provider

    json_user: None | str | Unset
    if isinstance(user, Unset):
        json_user = UNSET
    else:
        json_user = user
    params["user"] = json_user

    json_chat_id: None | str | Unset
    if isinstance(chat_id, Unset):
        json_chat_id = UNSET
    else:
        json_chat_id = chat_id
    params["chat_id"] = json_chat_id

    json_chat_type: None | str | Unset
    if isinstance(chat_type, Unset):
        json_chat_type = UNSET
    else:
        json_chat_type = chat_type
    params["chat_type"] = json_chat_type

    json_branch: None | str | Unset
    if isinstance(branch, Unset):
        json_branch = UNSET
    else:
        json_branch = branch
    params["branch"] = json_branch

    json_min_tokens: int | None | Unset
    if isinstance(min_tokens, Unset):
        json_min_tokens = UNSET
    else:
        json_min_tokens = min_tokens
    params["min_tokens"] = json_min_tokens

    json_max_tokens: int | None | Unset
    if isinstance(max_tokens, Unset):
        json_max_tokens = UNSET
    else:
        json_max_tokens = max_tokens
    params["max_tokens"] = json_max_tokens

    json_min_cost: float | None | Unset
    if isinstance(min_cost, Unset):
        json_min_cost = UNSET
    else:
        json_min_cost = min_cost
    params["min_cost"] = json_min_cost

    json_max_cost: float | None | Unset
    if isinstance(max_cost, Unset):
        json_max_cost = UNSET
    else:
        json_max_cost = max_cost
    params["max_cost"] = json_max_cost

    json_min_tool_calls: int | None | Unset
    if isinstance(min_tool_calls, Unset):
        json_min_tool_calls = UNSET
    else:
        json_min_tool_calls = min_tool_calls
    params["min_tool_calls"] = json_min_tool_calls

    json_max_tool_calls: int | None | Unset
    if isinstance(max_tool_calls, Unset):
        json_max_tool_calls = UNSET
    else:
        json_max_tool_calls = max_tool_calls
    params["max_tool_calls"] = json_max_tool_calls

    json_workspace: None | str | Unset
    if isinstance(workspace, Unset):
        json_workspace = UNSET
    else:
        json_workspace = workspace
    params["workspace"] = json_workspace

    json_profile: None | str | Unset
    if isinstance(profile, Unset):
        json_profile = UNSET
    else:
        json_profile = profile
    params["profile"] = json_profile

    json_home: None | str | Unset
    if isinstance(home, Unset):
        json_home = UNSET
    else:
        json_home = home
    params["home"] = json_home

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

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

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
    older_than: None | str | Unset = UNSET,
    newer_than: None | str | Unset = UNSET,
    before: None | str | Unset = UNSET,
    after: None | str | Unset = UNSET,
    title: None | str | Unset = UNSET,
    end_reason: None | str | Unset = UNSET,
    cwd: None | str | Unset = UNSET,
    min_messages: int | None | Unset = UNSET,
    max_messages: int | None | Unset = UNSET,
    model: None | str | Unset = UNSET,
    provider: None | str | Unset = UNSET,
    user: None | str | Unset = UNSET,
    chat_id: None | str | Unset = UNSET,
    chat_type: None | str | Unset = UNSET,
    branch: None | str | Unset = UNSET,
    min_tokens: int | None | Unset = UNSET,
    max_tokens: int | None | Unset = UNSET,
    min_cost: float | None | Unset = UNSET,
    max_cost: float | None | Unset = UNSET,
    min_tool_calls: int | None | Unset = UNSET,
    max_tool_calls: int | None | Unset = UNSET,
    workspace: None | str | Unset = UNSET,
    profile: None | str | Unset = UNSET,
    home: None | str | Unset = UNSET,
    format_: ExportSessionsFormattedFormat | Unset = ExportSessionsFormattedFormat.JSONL,
    only: Literal["user-prompts"] | None | Unset = UNSET,
    redact: bool | None | Unset = UNSET,
    layout: ExportSessionsFormattedLayoutType0 | None | Unset = UNSET,
    lineage: ExportSessionsFormattedLineage | Unset = ExportSessionsFormattedLineage.SINGLE,
    source: None | str | Unset = UNSET,
    session_id: None | str | Unset = UNSET,
    since: float | None | Unset = UNSET,
    status: ExportSessionsFormattedStatus | Unset = ExportSessionsFormattedStatus.ALL,
) -> Response[Problem | str]:
    """Export sessions as JSONL, Markdown, Quarto, HTML or traces (streamed)

     Every format streams with constant memory: sessions and their messages are read a page at a time,
    each page in its own short read transaction. Besides `source`, `session_id` and `since` (those of
    `GET /export.jsonl`), the filter set of `GET /sessions` (`older_than` ... `max_tool_calls`,
    `workspace`, `profile`) and its `status` select the sessions, with the listing's semantics: each
    stored row is judged on its own, as the listing does with `include_children=true`, and archived
    sessions are exported too. `jsonl` (default): the line format of `GET /export.jsonl`, byte for byte.
    `md`: one Markdown document (the agent's `render_sessions_export`), or with `layout=files` one
    verified file per session (the agent's `hermes sessions export --format md` files: front matter,
    messages, and a closing SHA-256 of the file). `qmd`: the same files for Quarto. `html`: one self-
    contained page, a sidebar when there are several sessions. `trace`: Claude Code JSONL traces (the
    Hugging Face agent trace viewer's format), one line per turn, sessions one after another.

    `only=user-prompts` keeps the user prompts alone: one record per line with `format=jsonl`
    (`session_id, index, created_at, role, text, message_id, event_id`), numbered sections with
    `format=md`. `redact=true` masks secrets (API keys, bearer and other tokens, private keys, passwords
    in connection strings, JWTs, phone numbers) as the agent's `--redact` does, and beyond it: any URL's
    password, secret query parameters, `key = value` of any case, JSON members by a secret-like name
    (tool-call arguments, `reasoning_details`, `model_config`), in every message and in the session's
    own text (title, model, system prompt, cwd, branch); it is on by default for `trace` and off
    otherwise, as in the agent. With `layout=files` and a `session_id`, the answer is that session's
    file: `Content-Disposition` names it as the agent would, `X-Hermes-Message-Count` is the number of
    messages it holds and `X-Hermes-Lineage-Session-Ids` the segments it covers (space-separated, root
    to tip; `lineage=logical` exports the whole compression lineage as one file).

    Args:
        older_than (None | str | Unset): started before a duration ago (`30m`, `5h`, `2d`, `1w`,
            long unit names too; a bare number is days) or an ISO date / date-time (no zone: UTC)
        newer_than (None | str | Unset): started at or after a duration ago (`30m`, `5h`, `2d`,
            `1w`, long unit names too; a bare number is days) or an ISO date / date-time (no zone:
            UTC)
        before (None | str | Unset): started before a duration ago (`30m`, `5h`, `2d`, `1w`, long
            unit names too; a bare number is days) or an ISO date / date-time (no zone: UTC); with
            older_than the tighter bound wins
        after (None | str | Unset): started at or after a duration ago (`30m`, `5h`, `2d`, `1w`,
            long unit names too; a bare number is days) or an ISO date / date-time (no zone: UTC);
            with newer_than the tighter bound wins
        title (None | str | Unset): title contains this (case-insensitive)
        end_reason (None | str | Unset): ended with this reason (exact)
        cwd (None | str | Unset): working directory is this path or under it
        min_messages (int | None | Unset): at least this many messages
        max_messages (int | None | Unset): at most this many messages
        model (None | str | Unset): model contains this (case-insensitive)
        provider (None | str | Unset): billing provider is this (case-insensitive, exact)
        user (None | str | Unset): user_id is this (exact)
        chat_id (None | str | Unset): chat/channel id is this (exact)
        chat_type (None | str | Unset): chat type is this (exact, e.g. dm, group)
        branch (None | str | Unset): git branch contains this (case-insensitive)
        min_tokens (int | None | Unset): at least this many input+output tokens
        max_tokens (int | None | Unset): at most this many input+output tokens
        min_cost (float | None | Unset): costs at least this many USD (actual, else estimated)
        max_cost (float | None | Unset): costs at most this many USD (actual, else estimated)
        min_tool_calls (int | None | Unset): at least this many tool calls
        max_tool_calls (int | None | Unset): at most this many tool calls
        workspace (None | str | Unset): git repository root (else working directory) contains this
            (case-insensitive); the agent's `sessions list --workspace`
        profile (None | str | Unset): agent profile_name is this (exact)
        home (None | str | Unset): synced from the home with this label (exact; `hermes sessions
            sync`)
        format_ (ExportSessionsFormattedFormat | Unset): the export format Default:
            ExportSessionsFormattedFormat.JSONL.
        only (Literal['user-prompts'] | None | Unset): keep only the user prompts
        redact (bool | None | Unset): mask secrets in messages and sessions' own text (default: on
            for trace, off otherwise)
        layout (ExportSessionsFormattedLayoutType0 | None | Unset): md: one `document` (default)
            or verified `files`, one per session; qmd: files
        lineage (ExportSessionsFormattedLineage | Unset): `logical`: the compression lineage
            through `session_id` as one session (jsonl, html, or md/qmd files) Default:
            ExportSessionsFormattedLineage.SINGLE.
        source (None | str | Unset): only sessions of this source
        session_id (None | str | Unset): only this session (404 if missing)
        since (float | None | Unset): only sessions active (last message, else start) at or after
            this epoch time
        status (ExportSessionsFormattedStatus | Unset): as in `GET /sessions`: active (not ended),
            ended (any end_reason) or all; `hermes sessions export` asks for ended sessions when a
            filter is given, as the agent Default: ExportSessionsFormattedStatus.ALL.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        older_than=older_than,
        newer_than=newer_than,
        before=before,
        after=after,
        title=title,
        end_reason=end_reason,
        cwd=cwd,
        min_messages=min_messages,
        max_messages=max_messages,
        model=model,
        provider=provider,
        user=user,
        chat_id=chat_id,
        chat_type=chat_type,
        branch=branch,
        min_tokens=min_tokens,
        max_tokens=max_tokens,
        min_cost=min_cost,
        max_cost=max_cost,
        min_tool_calls=min_tool_calls,
        max_tool_calls=max_tool_calls,
        workspace=workspace,
        profile=profile,
        home=home,
        format_=format_,
        only=only,
        redact=redact,
        layout=layout,
        lineage=lineage,
        source=source,
        session_id=session_id,
        since=since,
        status=status,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    older_than: None | str | Unset = UNSET,
    newer_than: None | str | Unset = UNSET,
    before: None | str | Unset = UNSET,
    after: None | str | Unset = UNSET,
    title: None | str | Unset = UNSET,
    end_reason: None | str | Unset = UNSET,
    cwd: None | str | Unset = UNSET,
    min_messages: int | None | Unset = UNSET,
    max_messages: int | None | Unset = UNSET,
    model: None | str | Unset = UNSET,
    provider: None | str | Unset = UNSET,
    user: None | str | Unset = UNSET,
    chat_id: None | str | Unset = UNSET,
    chat_type: None | str | Unset = UNSET,
    branch: None | str | Unset = UNSET,
    min_tokens: int | None | Unset = UNSET,
    max_tokens: int | None | Unset = UNSET,
    min_cost: float | None | Unset = UNSET,
    max_cost: float | None | Unset = UNSET,
    min_tool_calls: int | None | Unset = UNSET,
    max_tool_calls: int | None | Unset = UNSET,
    workspace: None | str | Unset = UNSET,
    profile: None | str | Unset = UNSET,
    home: None | str | Unset = UNSET,
    format_: ExportSessionsFormattedFormat | Unset = ExportSessionsFormattedFormat.JSONL,
    only: Literal["user-prompts"] | None | Unset = UNSET,
    redact: bool | None | Unset = UNSET,
    layout: ExportSessionsFormattedLayoutType0 | None | Unset = UNSET,
    lineage: ExportSessionsFormattedLineage | Unset = ExportSessionsFormattedLineage.SINGLE,
    source: None | str | Unset = UNSET,
    session_id: None | str | Unset = UNSET,
    since: float | None | Unset = UNSET,
    status: ExportSessionsFormattedStatus | Unset = ExportSessionsFormattedStatus.ALL,
) -> Problem | str | None:
    """Export sessions as JSONL, Markdown, Quarto, HTML or traces (streamed)

     Every format streams with constant memory: sessions and their messages are read a page at a time,
    each page in its own short read transaction. Besides `source`, `session_id` and `since` (those of
    `GET /export.jsonl`), the filter set of `GET /sessions` (`older_than` ... `max_tool_calls`,
    `workspace`, `profile`) and its `status` select the sessions, with the listing's semantics: each
    stored row is judged on its own, as the listing does with `include_children=true`, and archived
    sessions are exported too. `jsonl` (default): the line format of `GET /export.jsonl`, byte for byte.
    `md`: one Markdown document (the agent's `render_sessions_export`), or with `layout=files` one
    verified file per session (the agent's `hermes sessions export --format md` files: front matter,
    messages, and a closing SHA-256 of the file). `qmd`: the same files for Quarto. `html`: one self-
    contained page, a sidebar when there are several sessions. `trace`: Claude Code JSONL traces (the
    Hugging Face agent trace viewer's format), one line per turn, sessions one after another.

    `only=user-prompts` keeps the user prompts alone: one record per line with `format=jsonl`
    (`session_id, index, created_at, role, text, message_id, event_id`), numbered sections with
    `format=md`. `redact=true` masks secrets (API keys, bearer and other tokens, private keys, passwords
    in connection strings, JWTs, phone numbers) as the agent's `--redact` does, and beyond it: any URL's
    password, secret query parameters, `key = value` of any case, JSON members by a secret-like name
    (tool-call arguments, `reasoning_details`, `model_config`), in every message and in the session's
    own text (title, model, system prompt, cwd, branch); it is on by default for `trace` and off
    otherwise, as in the agent. With `layout=files` and a `session_id`, the answer is that session's
    file: `Content-Disposition` names it as the agent would, `X-Hermes-Message-Count` is the number of
    messages it holds and `X-Hermes-Lineage-Session-Ids` the segments it covers (space-separated, root
    to tip; `lineage=logical` exports the whole compression lineage as one file).

    Args:
        older_than (None | str | Unset): started before a duration ago (`30m`, `5h`, `2d`, `1w`,
            long unit names too; a bare number is days) or an ISO date / date-time (no zone: UTC)
        newer_than (None | str | Unset): started at or after a duration ago (`30m`, `5h`, `2d`,
            `1w`, long unit names too; a bare number is days) or an ISO date / date-time (no zone:
            UTC)
        before (None | str | Unset): started before a duration ago (`30m`, `5h`, `2d`, `1w`, long
            unit names too; a bare number is days) or an ISO date / date-time (no zone: UTC); with
            older_than the tighter bound wins
        after (None | str | Unset): started at or after a duration ago (`30m`, `5h`, `2d`, `1w`,
            long unit names too; a bare number is days) or an ISO date / date-time (no zone: UTC);
            with newer_than the tighter bound wins
        title (None | str | Unset): title contains this (case-insensitive)
        end_reason (None | str | Unset): ended with this reason (exact)
        cwd (None | str | Unset): working directory is this path or under it
        min_messages (int | None | Unset): at least this many messages
        max_messages (int | None | Unset): at most this many messages
        model (None | str | Unset): model contains this (case-insensitive)
        provider (None | str | Unset): billing provider is this (case-insensitive, exact)
        user (None | str | Unset): user_id is this (exact)
        chat_id (None | str | Unset): chat/channel id is this (exact)
        chat_type (None | str | Unset): chat type is this (exact, e.g. dm, group)
        branch (None | str | Unset): git branch contains this (case-insensitive)
        min_tokens (int | None | Unset): at least this many input+output tokens
        max_tokens (int | None | Unset): at most this many input+output tokens
        min_cost (float | None | Unset): costs at least this many USD (actual, else estimated)
        max_cost (float | None | Unset): costs at most this many USD (actual, else estimated)
        min_tool_calls (int | None | Unset): at least this many tool calls
        max_tool_calls (int | None | Unset): at most this many tool calls
        workspace (None | str | Unset): git repository root (else working directory) contains this
            (case-insensitive); the agent's `sessions list --workspace`
        profile (None | str | Unset): agent profile_name is this (exact)
        home (None | str | Unset): synced from the home with this label (exact; `hermes sessions
            sync`)
        format_ (ExportSessionsFormattedFormat | Unset): the export format Default:
            ExportSessionsFormattedFormat.JSONL.
        only (Literal['user-prompts'] | None | Unset): keep only the user prompts
        redact (bool | None | Unset): mask secrets in messages and sessions' own text (default: on
            for trace, off otherwise)
        layout (ExportSessionsFormattedLayoutType0 | None | Unset): md: one `document` (default)
            or verified `files`, one per session; qmd: files
        lineage (ExportSessionsFormattedLineage | Unset): `logical`: the compression lineage
            through `session_id` as one session (jsonl, html, or md/qmd files) Default:
            ExportSessionsFormattedLineage.SINGLE.
        source (None | str | Unset): only sessions of this source
        session_id (None | str | Unset): only this session (404 if missing)
        since (float | None | Unset): only sessions active (last message, else start) at or after
            this epoch time
        status (ExportSessionsFormattedStatus | Unset): as in `GET /sessions`: active (not ended),
            ended (any end_reason) or all; `hermes sessions export` asks for ended sessions when a
            filter is given, as the agent Default: ExportSessionsFormattedStatus.ALL.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return sync_detailed(
        client=client,
        older_than=older_than,
        newer_than=newer_than,
        before=before,
        after=after,
        title=title,
        end_reason=end_reason,
        cwd=cwd,
        min_messages=min_messages,
        max_messages=max_messages,
        model=model,
        provider=provider,
        user=user,
        chat_id=chat_id,
        chat_type=chat_type,
        branch=branch,
        min_tokens=min_tokens,
        max_tokens=max_tokens,
        min_cost=min_cost,
        max_cost=max_cost,
        min_tool_calls=min_tool_calls,
        max_tool_calls=max_tool_calls,
        workspace=workspace,
        profile=profile,
        home=home,
        format_=format_,
        only=only,
        redact=redact,
        layout=layout,
        lineage=lineage,
        source=source,
        session_id=session_id,
        since=since,
        status=status,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    older_than: None | str | Unset = UNSET,
    newer_than: None | str | Unset = UNSET,
    before: None | str | Unset = UNSET,
    after: None | str | Unset = UNSET,
    title: None | str | Unset = UNSET,
    end_reason: None | str | Unset = UNSET,
    cwd: None | str | Unset = UNSET,
    min_messages: int | None | Unset = UNSET,
    max_messages: int | None | Unset = UNSET,
    model: None | str | Unset = UNSET,
    provider: None | str | Unset = UNSET,
    user: None | str | Unset = UNSET,
    chat_id: None | str | Unset = UNSET,
    chat_type: None | str | Unset = UNSET,
    branch: None | str | Unset = UNSET,
    min_tokens: int | None | Unset = UNSET,
    max_tokens: int | None | Unset = UNSET,
    min_cost: float | None | Unset = UNSET,
    max_cost: float | None | Unset = UNSET,
    min_tool_calls: int | None | Unset = UNSET,
    max_tool_calls: int | None | Unset = UNSET,
    workspace: None | str | Unset = UNSET,
    profile: None | str | Unset = UNSET,
    home: None | str | Unset = UNSET,
    format_: ExportSessionsFormattedFormat | Unset = ExportSessionsFormattedFormat.JSONL,
    only: Literal["user-prompts"] | None | Unset = UNSET,
    redact: bool | None | Unset = UNSET,
    layout: ExportSessionsFormattedLayoutType0 | None | Unset = UNSET,
    lineage: ExportSessionsFormattedLineage | Unset = ExportSessionsFormattedLineage.SINGLE,
    source: None | str | Unset = UNSET,
    session_id: None | str | Unset = UNSET,
    since: float | None | Unset = UNSET,
    status: ExportSessionsFormattedStatus | Unset = ExportSessionsFormattedStatus.ALL,
) -> Response[Problem | str]:
    """Export sessions as JSONL, Markdown, Quarto, HTML or traces (streamed)

     Every format streams with constant memory: sessions and their messages are read a page at a time,
    each page in its own short read transaction. Besides `source`, `session_id` and `since` (those of
    `GET /export.jsonl`), the filter set of `GET /sessions` (`older_than` ... `max_tool_calls`,
    `workspace`, `profile`) and its `status` select the sessions, with the listing's semantics: each
    stored row is judged on its own, as the listing does with `include_children=true`, and archived
    sessions are exported too. `jsonl` (default): the line format of `GET /export.jsonl`, byte for byte.
    `md`: one Markdown document (the agent's `render_sessions_export`), or with `layout=files` one
    verified file per session (the agent's `hermes sessions export --format md` files: front matter,
    messages, and a closing SHA-256 of the file). `qmd`: the same files for Quarto. `html`: one self-
    contained page, a sidebar when there are several sessions. `trace`: Claude Code JSONL traces (the
    Hugging Face agent trace viewer's format), one line per turn, sessions one after another.

    `only=user-prompts` keeps the user prompts alone: one record per line with `format=jsonl`
    (`session_id, index, created_at, role, text, message_id, event_id`), numbered sections with
    `format=md`. `redact=true` masks secrets (API keys, bearer and other tokens, private keys, passwords
    in connection strings, JWTs, phone numbers) as the agent's `--redact` does, and beyond it: any URL's
    password, secret query parameters, `key = value` of any case, JSON members by a secret-like name
    (tool-call arguments, `reasoning_details`, `model_config`), in every message and in the session's
    own text (title, model, system prompt, cwd, branch); it is on by default for `trace` and off
    otherwise, as in the agent. With `layout=files` and a `session_id`, the answer is that session's
    file: `Content-Disposition` names it as the agent would, `X-Hermes-Message-Count` is the number of
    messages it holds and `X-Hermes-Lineage-Session-Ids` the segments it covers (space-separated, root
    to tip; `lineage=logical` exports the whole compression lineage as one file).

    Args:
        older_than (None | str | Unset): started before a duration ago (`30m`, `5h`, `2d`, `1w`,
            long unit names too; a bare number is days) or an ISO date / date-time (no zone: UTC)
        newer_than (None | str | Unset): started at or after a duration ago (`30m`, `5h`, `2d`,
            `1w`, long unit names too; a bare number is days) or an ISO date / date-time (no zone:
            UTC)
        before (None | str | Unset): started before a duration ago (`30m`, `5h`, `2d`, `1w`, long
            unit names too; a bare number is days) or an ISO date / date-time (no zone: UTC); with
            older_than the tighter bound wins
        after (None | str | Unset): started at or after a duration ago (`30m`, `5h`, `2d`, `1w`,
            long unit names too; a bare number is days) or an ISO date / date-time (no zone: UTC);
            with newer_than the tighter bound wins
        title (None | str | Unset): title contains this (case-insensitive)
        end_reason (None | str | Unset): ended with this reason (exact)
        cwd (None | str | Unset): working directory is this path or under it
        min_messages (int | None | Unset): at least this many messages
        max_messages (int | None | Unset): at most this many messages
        model (None | str | Unset): model contains this (case-insensitive)
        provider (None | str | Unset): billing provider is this (case-insensitive, exact)
        user (None | str | Unset): user_id is this (exact)
        chat_id (None | str | Unset): chat/channel id is this (exact)
        chat_type (None | str | Unset): chat type is this (exact, e.g. dm, group)
        branch (None | str | Unset): git branch contains this (case-insensitive)
        min_tokens (int | None | Unset): at least this many input+output tokens
        max_tokens (int | None | Unset): at most this many input+output tokens
        min_cost (float | None | Unset): costs at least this many USD (actual, else estimated)
        max_cost (float | None | Unset): costs at most this many USD (actual, else estimated)
        min_tool_calls (int | None | Unset): at least this many tool calls
        max_tool_calls (int | None | Unset): at most this many tool calls
        workspace (None | str | Unset): git repository root (else working directory) contains this
            (case-insensitive); the agent's `sessions list --workspace`
        profile (None | str | Unset): agent profile_name is this (exact)
        home (None | str | Unset): synced from the home with this label (exact; `hermes sessions
            sync`)
        format_ (ExportSessionsFormattedFormat | Unset): the export format Default:
            ExportSessionsFormattedFormat.JSONL.
        only (Literal['user-prompts'] | None | Unset): keep only the user prompts
        redact (bool | None | Unset): mask secrets in messages and sessions' own text (default: on
            for trace, off otherwise)
        layout (ExportSessionsFormattedLayoutType0 | None | Unset): md: one `document` (default)
            or verified `files`, one per session; qmd: files
        lineage (ExportSessionsFormattedLineage | Unset): `logical`: the compression lineage
            through `session_id` as one session (jsonl, html, or md/qmd files) Default:
            ExportSessionsFormattedLineage.SINGLE.
        source (None | str | Unset): only sessions of this source
        session_id (None | str | Unset): only this session (404 if missing)
        since (float | None | Unset): only sessions active (last message, else start) at or after
            this epoch time
        status (ExportSessionsFormattedStatus | Unset): as in `GET /sessions`: active (not ended),
            ended (any end_reason) or all; `hermes sessions export` asks for ended sessions when a
            filter is given, as the agent Default: ExportSessionsFormattedStatus.ALL.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        older_than=older_than,
        newer_than=newer_than,
        before=before,
        after=after,
        title=title,
        end_reason=end_reason,
        cwd=cwd,
        min_messages=min_messages,
        max_messages=max_messages,
        model=model,
        provider=provider,
        user=user,
        chat_id=chat_id,
        chat_type=chat_type,
        branch=branch,
        min_tokens=min_tokens,
        max_tokens=max_tokens,
        min_cost=min_cost,
        max_cost=max_cost,
        min_tool_calls=min_tool_calls,
        max_tool_calls=max_tool_calls,
        workspace=workspace,
        profile=profile,
        home=home,
        format_=format_,
        only=only,
        redact=redact,
        layout=layout,
        lineage=lineage,
        source=source,
        session_id=session_id,
        since=since,
        status=status,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    older_than: None | str | Unset = UNSET,
    newer_than: None | str | Unset = UNSET,
    before: None | str | Unset = UNSET,
    after: None | str | Unset = UNSET,
    title: None | str | Unset = UNSET,
    end_reason: None | str | Unset = UNSET,
    cwd: None | str | Unset = UNSET,
    min_messages: int | None | Unset = UNSET,
    max_messages: int | None | Unset = UNSET,
    model: None | str | Unset = UNSET,
    provider: None | str | Unset = UNSET,
    user: None | str | Unset = UNSET,
    chat_id: None | str | Unset = UNSET,
    chat_type: None | str | Unset = UNSET,
    branch: None | str | Unset = UNSET,
    min_tokens: int | None | Unset = UNSET,
    max_tokens: int | None | Unset = UNSET,
    min_cost: float | None | Unset = UNSET,
    max_cost: float | None | Unset = UNSET,
    min_tool_calls: int | None | Unset = UNSET,
    max_tool_calls: int | None | Unset = UNSET,
    workspace: None | str | Unset = UNSET,
    profile: None | str | Unset = UNSET,
    home: None | str | Unset = UNSET,
    format_: ExportSessionsFormattedFormat | Unset = ExportSessionsFormattedFormat.JSONL,
    only: Literal["user-prompts"] | None | Unset = UNSET,
    redact: bool | None | Unset = UNSET,
    layout: ExportSessionsFormattedLayoutType0 | None | Unset = UNSET,
    lineage: ExportSessionsFormattedLineage | Unset = ExportSessionsFormattedLineage.SINGLE,
    source: None | str | Unset = UNSET,
    session_id: None | str | Unset = UNSET,
    since: float | None | Unset = UNSET,
    status: ExportSessionsFormattedStatus | Unset = ExportSessionsFormattedStatus.ALL,
) -> Problem | str | None:
    """Export sessions as JSONL, Markdown, Quarto, HTML or traces (streamed)

     Every format streams with constant memory: sessions and their messages are read a page at a time,
    each page in its own short read transaction. Besides `source`, `session_id` and `since` (those of
    `GET /export.jsonl`), the filter set of `GET /sessions` (`older_than` ... `max_tool_calls`,
    `workspace`, `profile`) and its `status` select the sessions, with the listing's semantics: each
    stored row is judged on its own, as the listing does with `include_children=true`, and archived
    sessions are exported too. `jsonl` (default): the line format of `GET /export.jsonl`, byte for byte.
    `md`: one Markdown document (the agent's `render_sessions_export`), or with `layout=files` one
    verified file per session (the agent's `hermes sessions export --format md` files: front matter,
    messages, and a closing SHA-256 of the file). `qmd`: the same files for Quarto. `html`: one self-
    contained page, a sidebar when there are several sessions. `trace`: Claude Code JSONL traces (the
    Hugging Face agent trace viewer's format), one line per turn, sessions one after another.

    `only=user-prompts` keeps the user prompts alone: one record per line with `format=jsonl`
    (`session_id, index, created_at, role, text, message_id, event_id`), numbered sections with
    `format=md`. `redact=true` masks secrets (API keys, bearer and other tokens, private keys, passwords
    in connection strings, JWTs, phone numbers) as the agent's `--redact` does, and beyond it: any URL's
    password, secret query parameters, `key = value` of any case, JSON members by a secret-like name
    (tool-call arguments, `reasoning_details`, `model_config`), in every message and in the session's
    own text (title, model, system prompt, cwd, branch); it is on by default for `trace` and off
    otherwise, as in the agent. With `layout=files` and a `session_id`, the answer is that session's
    file: `Content-Disposition` names it as the agent would, `X-Hermes-Message-Count` is the number of
    messages it holds and `X-Hermes-Lineage-Session-Ids` the segments it covers (space-separated, root
    to tip; `lineage=logical` exports the whole compression lineage as one file).

    Args:
        older_than (None | str | Unset): started before a duration ago (`30m`, `5h`, `2d`, `1w`,
            long unit names too; a bare number is days) or an ISO date / date-time (no zone: UTC)
        newer_than (None | str | Unset): started at or after a duration ago (`30m`, `5h`, `2d`,
            `1w`, long unit names too; a bare number is days) or an ISO date / date-time (no zone:
            UTC)
        before (None | str | Unset): started before a duration ago (`30m`, `5h`, `2d`, `1w`, long
            unit names too; a bare number is days) or an ISO date / date-time (no zone: UTC); with
            older_than the tighter bound wins
        after (None | str | Unset): started at or after a duration ago (`30m`, `5h`, `2d`, `1w`,
            long unit names too; a bare number is days) or an ISO date / date-time (no zone: UTC);
            with newer_than the tighter bound wins
        title (None | str | Unset): title contains this (case-insensitive)
        end_reason (None | str | Unset): ended with this reason (exact)
        cwd (None | str | Unset): working directory is this path or under it
        min_messages (int | None | Unset): at least this many messages
        max_messages (int | None | Unset): at most this many messages
        model (None | str | Unset): model contains this (case-insensitive)
        provider (None | str | Unset): billing provider is this (case-insensitive, exact)
        user (None | str | Unset): user_id is this (exact)
        chat_id (None | str | Unset): chat/channel id is this (exact)
        chat_type (None | str | Unset): chat type is this (exact, e.g. dm, group)
        branch (None | str | Unset): git branch contains this (case-insensitive)
        min_tokens (int | None | Unset): at least this many input+output tokens
        max_tokens (int | None | Unset): at most this many input+output tokens
        min_cost (float | None | Unset): costs at least this many USD (actual, else estimated)
        max_cost (float | None | Unset): costs at most this many USD (actual, else estimated)
        min_tool_calls (int | None | Unset): at least this many tool calls
        max_tool_calls (int | None | Unset): at most this many tool calls
        workspace (None | str | Unset): git repository root (else working directory) contains this
            (case-insensitive); the agent's `sessions list --workspace`
        profile (None | str | Unset): agent profile_name is this (exact)
        home (None | str | Unset): synced from the home with this label (exact; `hermes sessions
            sync`)
        format_ (ExportSessionsFormattedFormat | Unset): the export format Default:
            ExportSessionsFormattedFormat.JSONL.
        only (Literal['user-prompts'] | None | Unset): keep only the user prompts
        redact (bool | None | Unset): mask secrets in messages and sessions' own text (default: on
            for trace, off otherwise)
        layout (ExportSessionsFormattedLayoutType0 | None | Unset): md: one `document` (default)
            or verified `files`, one per session; qmd: files
        lineage (ExportSessionsFormattedLineage | Unset): `logical`: the compression lineage
            through `session_id` as one session (jsonl, html, or md/qmd files) Default:
            ExportSessionsFormattedLineage.SINGLE.
        source (None | str | Unset): only sessions of this source
        session_id (None | str | Unset): only this session (404 if missing)
        since (float | None | Unset): only sessions active (last message, else start) at or after
            this epoch time
        status (ExportSessionsFormattedStatus | Unset): as in `GET /sessions`: active (not ended),
            ended (any end_reason) or all; `hermes sessions export` asks for ended sessions when a
            filter is given, as the agent Default: ExportSessionsFormattedStatus.ALL.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return (
        await asyncio_detailed(
            client=client,
            older_than=older_than,
            newer_than=newer_than,
            before=before,
            after=after,
            title=title,
            end_reason=end_reason,
            cwd=cwd,
            min_messages=min_messages,
            max_messages=max_messages,
            model=model,
            provider=provider,
            user=user,
            chat_id=chat_id,
            chat_type=chat_type,
            branch=branch,
            min_tokens=min_tokens,
            max_tokens=max_tokens,
            min_cost=min_cost,
            max_cost=max_cost,
            min_tool_calls=min_tool_calls,
            max_tool_calls=max_tool_calls,
            workspace=workspace,
            profile=profile,
            home=home,
            format_=format_,
            only=only,
            redact=redact,
            layout=layout,
            lineage=lineage,
            source=source,
            session_id=session_id,
            since=since,
            status=status,
        )
    ).parsed
