from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.session_page import SessionPage
from ...models.sessions_list_order import SessionsListOrder
from ...models.sessions_list_status import SessionsListStatus
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
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
    source: list[str] | None | Unset = UNSET,
    exclude_source: list[str] | None | Unset = UNSET,
    status: SessionsListStatus | Unset = SessionsListStatus.ALL,
    include_children: bool | Unset = False,
    include_archived: bool | Unset = False,
    order: SessionsListOrder | Unset = SessionsListOrder.STARTED,
    q: None | str | Unset = UNSET,
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

    params["limit"] = limit

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor

    json_source: list[str] | None | Unset
    if isinstance(source, Unset):
        json_source = UNSET
    elif isinstance(source, list):
        json_source = source

    else:
        json_source = source
    params["source"] = json_source

    json_exclude_source: list[str] | None | Unset
    if isinstance(exclude_source, Unset):
        json_exclude_source = UNSET
    elif isinstance(exclude_source, list):
        json_exclude_source = exclude_source

    else:
        json_exclude_source = exclude_source
    params["exclude_source"] = json_exclude_source

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params["include_children"] = include_children

    params["include_archived"] = include_archived

    json_order: str | Unset = UNSET
    if not isinstance(order, Unset):
        json_order = order.value

    params["order"] = json_order

    json_q: None | str | Unset
    if isinstance(q, Unset):
        json_q = UNSET
    else:
        json_q = q
    params["q"] = json_q

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/sessions",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | SessionPage | None:
    if response.status_code == 200:
        response_200 = SessionPage.from_dict(response.json())

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
) -> Response[Problem | SessionPage]:
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
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
    source: list[str] | None | Unset = UNSET,
    exclude_source: list[str] | None | Unset = UNSET,
    status: SessionsListStatus | Unset = SessionsListStatus.ALL,
    include_children: bool | Unset = False,
    include_archived: bool | Unset = False,
    order: SessionsListOrder | Unset = SessionsListOrder.STARTED,
    q: None | str | Unset = UNSET,
) -> Response[Problem | SessionPage]:
    """List sessions

     List sessions, newest first, one row per conversation (compression lineages shown as their tip).

    The agent's filter set (`older_than` ... `max_tool_calls`, as `hermes sessions prune` takes it)
    narrows
    the listing: the time bounds judge the listed row's start, every other criterion the row as shown (a
    compression lineage by its tip). Codes: 400 `invalid_cursor`; 422 `invalid_duration`,
    `empty_time_window`.

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
        limit (int | Unset): Page size 1-200 Default: 20.
        cursor (None | str | Unset): next_cursor of the previous page
        source (list[str] | None | Unset): Only these sources (repeatable)
        exclude_source (list[str] | None | Unset): Hide these sources (repeatable; default tool,
            subagent)
        status (SessionsListStatus | Unset): active: not ended; ended: ended (any end_reason);
            all: both Default: SessionsListStatus.ALL.
        include_children (bool | Unset): Show compression and delegate children instead of folding
            lineages Default: False.
        include_archived (bool | Unset): Also list archived sessions Default: False.
        order (SessionsListOrder | Unset): Newest first by start time, or by last activity (newest
            message, else start) Default: SessionsListOrder.STARTED.
        q (None | str | Unset): Only sessions whose id, title or preview contains this text (1-200
            characters; ASCII letters match either case; % and _ are literal). A compression lineage
            matches by its tip.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SessionPage]
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
        limit=limit,
        cursor=cursor,
        source=source,
        exclude_source=exclude_source,
        status=status,
        include_children=include_children,
        include_archived=include_archived,
        order=order,
        q=q,
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
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
    source: list[str] | None | Unset = UNSET,
    exclude_source: list[str] | None | Unset = UNSET,
    status: SessionsListStatus | Unset = SessionsListStatus.ALL,
    include_children: bool | Unset = False,
    include_archived: bool | Unset = False,
    order: SessionsListOrder | Unset = SessionsListOrder.STARTED,
    q: None | str | Unset = UNSET,
) -> Problem | SessionPage | None:
    """List sessions

     List sessions, newest first, one row per conversation (compression lineages shown as their tip).

    The agent's filter set (`older_than` ... `max_tool_calls`, as `hermes sessions prune` takes it)
    narrows
    the listing: the time bounds judge the listed row's start, every other criterion the row as shown (a
    compression lineage by its tip). Codes: 400 `invalid_cursor`; 422 `invalid_duration`,
    `empty_time_window`.

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
        limit (int | Unset): Page size 1-200 Default: 20.
        cursor (None | str | Unset): next_cursor of the previous page
        source (list[str] | None | Unset): Only these sources (repeatable)
        exclude_source (list[str] | None | Unset): Hide these sources (repeatable; default tool,
            subagent)
        status (SessionsListStatus | Unset): active: not ended; ended: ended (any end_reason);
            all: both Default: SessionsListStatus.ALL.
        include_children (bool | Unset): Show compression and delegate children instead of folding
            lineages Default: False.
        include_archived (bool | Unset): Also list archived sessions Default: False.
        order (SessionsListOrder | Unset): Newest first by start time, or by last activity (newest
            message, else start) Default: SessionsListOrder.STARTED.
        q (None | str | Unset): Only sessions whose id, title or preview contains this text (1-200
            characters; ASCII letters match either case; % and _ are literal). A compression lineage
            matches by its tip.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SessionPage
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
        limit=limit,
        cursor=cursor,
        source=source,
        exclude_source=exclude_source,
        status=status,
        include_children=include_children,
        include_archived=include_archived,
        order=order,
        q=q,
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
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
    source: list[str] | None | Unset = UNSET,
    exclude_source: list[str] | None | Unset = UNSET,
    status: SessionsListStatus | Unset = SessionsListStatus.ALL,
    include_children: bool | Unset = False,
    include_archived: bool | Unset = False,
    order: SessionsListOrder | Unset = SessionsListOrder.STARTED,
    q: None | str | Unset = UNSET,
) -> Response[Problem | SessionPage]:
    """List sessions

     List sessions, newest first, one row per conversation (compression lineages shown as their tip).

    The agent's filter set (`older_than` ... `max_tool_calls`, as `hermes sessions prune` takes it)
    narrows
    the listing: the time bounds judge the listed row's start, every other criterion the row as shown (a
    compression lineage by its tip). Codes: 400 `invalid_cursor`; 422 `invalid_duration`,
    `empty_time_window`.

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
        limit (int | Unset): Page size 1-200 Default: 20.
        cursor (None | str | Unset): next_cursor of the previous page
        source (list[str] | None | Unset): Only these sources (repeatable)
        exclude_source (list[str] | None | Unset): Hide these sources (repeatable; default tool,
            subagent)
        status (SessionsListStatus | Unset): active: not ended; ended: ended (any end_reason);
            all: both Default: SessionsListStatus.ALL.
        include_children (bool | Unset): Show compression and delegate children instead of folding
            lineages Default: False.
        include_archived (bool | Unset): Also list archived sessions Default: False.
        order (SessionsListOrder | Unset): Newest first by start time, or by last activity (newest
            message, else start) Default: SessionsListOrder.STARTED.
        q (None | str | Unset): Only sessions whose id, title or preview contains this text (1-200
            characters; ASCII letters match either case; % and _ are literal). A compression lineage
            matches by its tip.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SessionPage]
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
        limit=limit,
        cursor=cursor,
        source=source,
        exclude_source=exclude_source,
        status=status,
        include_children=include_children,
        include_archived=include_archived,
        order=order,
        q=q,
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
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
    source: list[str] | None | Unset = UNSET,
    exclude_source: list[str] | None | Unset = UNSET,
    status: SessionsListStatus | Unset = SessionsListStatus.ALL,
    include_children: bool | Unset = False,
    include_archived: bool | Unset = False,
    order: SessionsListOrder | Unset = SessionsListOrder.STARTED,
    q: None | str | Unset = UNSET,
) -> Problem | SessionPage | None:
    """List sessions

     List sessions, newest first, one row per conversation (compression lineages shown as their tip).

    The agent's filter set (`older_than` ... `max_tool_calls`, as `hermes sessions prune` takes it)
    narrows
    the listing: the time bounds judge the listed row's start, every other criterion the row as shown (a
    compression lineage by its tip). Codes: 400 `invalid_cursor`; 422 `invalid_duration`,
    `empty_time_window`.

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
        limit (int | Unset): Page size 1-200 Default: 20.
        cursor (None | str | Unset): next_cursor of the previous page
        source (list[str] | None | Unset): Only these sources (repeatable)
        exclude_source (list[str] | None | Unset): Hide these sources (repeatable; default tool,
            subagent)
        status (SessionsListStatus | Unset): active: not ended; ended: ended (any end_reason);
            all: both Default: SessionsListStatus.ALL.
        include_children (bool | Unset): Show compression and delegate children instead of folding
            lineages Default: False.
        include_archived (bool | Unset): Also list archived sessions Default: False.
        order (SessionsListOrder | Unset): Newest first by start time, or by last activity (newest
            message, else start) Default: SessionsListOrder.STARTED.
        q (None | str | Unset): Only sessions whose id, title or preview contains this text (1-200
            characters; ASCII letters match either case; % and _ are literal). A compression lineage
            matches by its tip.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SessionPage
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
            limit=limit,
            cursor=cursor,
            source=source,
            exclude_source=exclude_source,
            status=status,
            include_children=include_children,
            include_archived=include_archived,
            order=order,
            q=q,
        )
    ).parsed
