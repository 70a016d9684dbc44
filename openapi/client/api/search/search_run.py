from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.browse_response import BrowseResponse
from ...models.discover_response import DiscoverResponse
from ...models.problem import Problem
from ...models.read_response import ReadResponse
from ...models.scroll_response import ScrollResponse
from ...models.search_run_detail import SearchRunDetail
from ...models.search_run_sort import SearchRunSort
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    q: None | str | Unset = UNSET,
    session_id: None | str | Unset = UNSET,
    around_message_id: int | None | Unset = UNSET,
    window: int | Unset = 5,
    limit: int | Unset = 3,
    sort: SearchRunSort | Unset = SearchRunSort.RELEVANCE,
    role: list[str] | None | Unset = UNSET,
    source: list[str] | None | Unset = UNSET,
    exclude_source: list[str] | None | Unset = UNSET,
    home: None | str | Unset = UNSET,
    cwd: None | str | Unset = UNSET,
    workspace: None | str | Unset = UNSET,
    current_session_id: None | str | Unset = UNSET,
    detail: SearchRunDetail | Unset = SearchRunDetail.ADAPTIVE,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_q: None | str | Unset
    if isinstance(q, Unset):
        json_q = UNSET
    else:
        json_q = q
    params["q"] = json_q

    json_session_id: None | str | Unset
    if isinstance(session_id, Unset):
        json_session_id = UNSET
    else:
        json_session_id = session_id
    params["session_id"] = json_session_id

    json_around_message_id: int | None | Unset
    if isinstance(around_message_id, Unset):
        json_around_message_id = UNSET
    else:
        json_around_message_id = around_message_id
    params["around_message_id"] = json_around_message_id

    params["window"] = window

    params["limit"] = limit

    json_sort: str | Unset = UNSET
    if not isinstance(sort, Unset):
        json_sort = sort.value

    params["sort"] = json_sort

    json_role: list[str] | None | Unset
    if isinstance(role, Unset):
        json_role = UNSET
    elif isinstance(role, list):
        json_role = role

    else:
        json_role = role
    params["role"] = json_role

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

    json_home: None | str | Unset
    if isinstance(home, Unset):
        json_home = UNSET
    else:
        json_home = home
    params["home"] = json_home

    json_cwd: None | str | Unset
    if isinstance(cwd, Unset):
        json_cwd = UNSET
    else:
        json_cwd = cwd
    params["cwd"] = json_cwd

    json_workspace: None | str | Unset
    if isinstance(workspace, Unset):
        json_workspace = UNSET
    else:
        json_workspace = workspace
    params["workspace"] = json_workspace

    json_current_session_id: None | str | Unset
    if isinstance(current_session_id, Unset):
        json_current_session_id = UNSET
    else:
        json_current_session_id = current_session_id
    params["current_session_id"] = json_current_session_id

    json_detail: str | Unset = UNSET
    if not isinstance(detail, Unset):
        json_detail = detail.value

    params["detail"] = json_detail

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/search",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> BrowseResponse | DiscoverResponse | ReadResponse | ScrollResponse | Problem | None:
    if response.status_code == 200:

        def _parse_response_200(
            data: object,
        ) -> BrowseResponse | DiscoverResponse | ReadResponse | ScrollResponse:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_200_type_0 = DiscoverResponse.from_dict(data)

                return response_200_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_200_type_1 = ScrollResponse.from_dict(data)

                return response_200_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_200_type_2 = ReadResponse.from_dict(data)

                return response_200_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_200_type_3 = BrowseResponse.from_dict(data)

            return response_200_type_3

        response_200 = _parse_response_200(response.json())

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
) -> Response[BrowseResponse | DiscoverResponse | ReadResponse | ScrollResponse | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    q: None | str | Unset = UNSET,
    session_id: None | str | Unset = UNSET,
    around_message_id: int | None | Unset = UNSET,
    window: int | Unset = 5,
    limit: int | Unset = 3,
    sort: SearchRunSort | Unset = SearchRunSort.RELEVANCE,
    role: list[str] | None | Unset = UNSET,
    source: list[str] | None | Unset = UNSET,
    exclude_source: list[str] | None | Unset = UNSET,
    home: None | str | Unset = UNSET,
    cwd: None | str | Unset = UNSET,
    workspace: None | str | Unset = UNSET,
    current_session_id: None | str | Unset = UNSET,
    detail: SearchRunDetail | Unset = SearchRunDetail.ADAPTIVE,
) -> Response[BrowseResponse | DiscoverResponse | ReadResponse | ScrollResponse | Problem]:
    """Search past sessions

     The shape follows from the arguments: `session_id` + `around_message_id` → scroll; `session_id` →
    read; `q` → discover; nothing (or a blank `q`) → browse. `q` accepts FTS5 syntax (implicit AND,
    `"phrases"`, `OR`, `NOT`, `prefix*`); anything else is made safe. Errors: 404 `session_not_found`,
    404 `message_not_in_session`, 409 `anchor_in_current_lineage` (scroll inside the caller's own
    lineage), 422 `invalid_role`.

    Args:
        q (None | str | Unset): FTS5 query; selects discover
        session_id (None | str | Unset): Selects read, or scroll with an anchor
        around_message_id (int | None | Unset): Anchor message id; selects scroll
        window (int | Unset): Messages each side of the anchor (clamped to 1-20) Default: 5.
        limit (int | Unset): Sessions for discover/browse (clamped to 1-50) Default: 3.
        sort (SearchRunSort | Unset): discover: rank matching messages by best match, newest first
            or oldest first Default: SearchRunSort.RELEVANCE.
        role (list[str] | None | Unset): Roles searched (comma-separated or repeated)
        source (list[str] | None | Unset): Only these sources
        exclude_source (list[str] | None | Unset): Not these sources
        home (None | str | Unset): Only sessions synced from the home with this label (`hermes
            sessions sync`)
        cwd (None | str | Unset): Only sessions whose working directory is this path or under it:
            the listing's `cwd`
        workspace (None | str | Unset): Only sessions whose workspace (git repository root, else
            working directory) contains this, case-insensitively: the listing's `workspace` filter
        current_session_id (None | str | Unset): Caller's session: its live lineage is excluded
        detail (SearchRunDetail | Unset): adaptive: long messages cut to fit (content_truncated);
            full: whole messages Default: SearchRunDetail.ADAPTIVE.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BrowseResponse | DiscoverResponse | ReadResponse | ScrollResponse | Problem]
    """

    kwargs = _get_kwargs(
        q=q,
        session_id=session_id,
        around_message_id=around_message_id,
        window=window,
        limit=limit,
        sort=sort,
        role=role,
        source=source,
        exclude_source=exclude_source,
        home=home,
        cwd=cwd,
        workspace=workspace,
        current_session_id=current_session_id,
        detail=detail,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    q: None | str | Unset = UNSET,
    session_id: None | str | Unset = UNSET,
    around_message_id: int | None | Unset = UNSET,
    window: int | Unset = 5,
    limit: int | Unset = 3,
    sort: SearchRunSort | Unset = SearchRunSort.RELEVANCE,
    role: list[str] | None | Unset = UNSET,
    source: list[str] | None | Unset = UNSET,
    exclude_source: list[str] | None | Unset = UNSET,
    home: None | str | Unset = UNSET,
    cwd: None | str | Unset = UNSET,
    workspace: None | str | Unset = UNSET,
    current_session_id: None | str | Unset = UNSET,
    detail: SearchRunDetail | Unset = SearchRunDetail.ADAPTIVE,
) -> BrowseResponse | DiscoverResponse | ReadResponse | ScrollResponse | Problem | None:
    """Search past sessions

     The shape follows from the arguments: `session_id` + `around_message_id` → scroll; `session_id` →
    read; `q` → discover; nothing (or a blank `q`) → browse. `q` accepts FTS5 syntax (implicit AND,
    `"phrases"`, `OR`, `NOT`, `prefix*`); anything else is made safe. Errors: 404 `session_not_found`,
    404 `message_not_in_session`, 409 `anchor_in_current_lineage` (scroll inside the caller's own
    lineage), 422 `invalid_role`.

    Args:
        q (None | str | Unset): FTS5 query; selects discover
        session_id (None | str | Unset): Selects read, or scroll with an anchor
        around_message_id (int | None | Unset): Anchor message id; selects scroll
        window (int | Unset): Messages each side of the anchor (clamped to 1-20) Default: 5.
        limit (int | Unset): Sessions for discover/browse (clamped to 1-50) Default: 3.
        sort (SearchRunSort | Unset): discover: rank matching messages by best match, newest first
            or oldest first Default: SearchRunSort.RELEVANCE.
        role (list[str] | None | Unset): Roles searched (comma-separated or repeated)
        source (list[str] | None | Unset): Only these sources
        exclude_source (list[str] | None | Unset): Not these sources
        home (None | str | Unset): Only sessions synced from the home with this label (`hermes
            sessions sync`)
        cwd (None | str | Unset): Only sessions whose working directory is this path or under it:
            the listing's `cwd`
        workspace (None | str | Unset): Only sessions whose workspace (git repository root, else
            working directory) contains this, case-insensitively: the listing's `workspace` filter
        current_session_id (None | str | Unset): Caller's session: its live lineage is excluded
        detail (SearchRunDetail | Unset): adaptive: long messages cut to fit (content_truncated);
            full: whole messages Default: SearchRunDetail.ADAPTIVE.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BrowseResponse | DiscoverResponse | ReadResponse | ScrollResponse | Problem
    """

    return sync_detailed(
        client=client,
        q=q,
        session_id=session_id,
        around_message_id=around_message_id,
        window=window,
        limit=limit,
        sort=sort,
        role=role,
        source=source,
        exclude_source=exclude_source,
        home=home,
        cwd=cwd,
        workspace=workspace,
        current_session_id=current_session_id,
        detail=detail,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    q: None | str | Unset = UNSET,
    session_id: None | str | Unset = UNSET,
    around_message_id: int | None | Unset = UNSET,
    window: int | Unset = 5,
    limit: int | Unset = 3,
    sort: SearchRunSort | Unset = SearchRunSort.RELEVANCE,
    role: list[str] | None | Unset = UNSET,
    source: list[str] | None | Unset = UNSET,
    exclude_source: list[str] | None | Unset = UNSET,
    home: None | str | Unset = UNSET,
    cwd: None | str | Unset = UNSET,
    workspace: None | str | Unset = UNSET,
    current_session_id: None | str | Unset = UNSET,
    detail: SearchRunDetail | Unset = SearchRunDetail.ADAPTIVE,
) -> Response[BrowseResponse | DiscoverResponse | ReadResponse | ScrollResponse | Problem]:
    """Search past sessions

     The shape follows from the arguments: `session_id` + `around_message_id` → scroll; `session_id` →
    read; `q` → discover; nothing (or a blank `q`) → browse. `q` accepts FTS5 syntax (implicit AND,
    `"phrases"`, `OR`, `NOT`, `prefix*`); anything else is made safe. Errors: 404 `session_not_found`,
    404 `message_not_in_session`, 409 `anchor_in_current_lineage` (scroll inside the caller's own
    lineage), 422 `invalid_role`.

    Args:
        q (None | str | Unset): FTS5 query; selects discover
        session_id (None | str | Unset): Selects read, or scroll with an anchor
        around_message_id (int | None | Unset): Anchor message id; selects scroll
        window (int | Unset): Messages each side of the anchor (clamped to 1-20) Default: 5.
        limit (int | Unset): Sessions for discover/browse (clamped to 1-50) Default: 3.
        sort (SearchRunSort | Unset): discover: rank matching messages by best match, newest first
            or oldest first Default: SearchRunSort.RELEVANCE.
        role (list[str] | None | Unset): Roles searched (comma-separated or repeated)
        source (list[str] | None | Unset): Only these sources
        exclude_source (list[str] | None | Unset): Not these sources
        home (None | str | Unset): Only sessions synced from the home with this label (`hermes
            sessions sync`)
        cwd (None | str | Unset): Only sessions whose working directory is this path or under it:
            the listing's `cwd`
        workspace (None | str | Unset): Only sessions whose workspace (git repository root, else
            working directory) contains this, case-insensitively: the listing's `workspace` filter
        current_session_id (None | str | Unset): Caller's session: its live lineage is excluded
        detail (SearchRunDetail | Unset): adaptive: long messages cut to fit (content_truncated);
            full: whole messages Default: SearchRunDetail.ADAPTIVE.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BrowseResponse | DiscoverResponse | ReadResponse | ScrollResponse | Problem]
    """

    kwargs = _get_kwargs(
        q=q,
        session_id=session_id,
        around_message_id=around_message_id,
        window=window,
        limit=limit,
        sort=sort,
        role=role,
        source=source,
        exclude_source=exclude_source,
        home=home,
        cwd=cwd,
        workspace=workspace,
        current_session_id=current_session_id,
        detail=detail,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    q: None | str | Unset = UNSET,
    session_id: None | str | Unset = UNSET,
    around_message_id: int | None | Unset = UNSET,
    window: int | Unset = 5,
    limit: int | Unset = 3,
    sort: SearchRunSort | Unset = SearchRunSort.RELEVANCE,
    role: list[str] | None | Unset = UNSET,
    source: list[str] | None | Unset = UNSET,
    exclude_source: list[str] | None | Unset = UNSET,
    home: None | str | Unset = UNSET,
    cwd: None | str | Unset = UNSET,
    workspace: None | str | Unset = UNSET,
    current_session_id: None | str | Unset = UNSET,
    detail: SearchRunDetail | Unset = SearchRunDetail.ADAPTIVE,
) -> BrowseResponse | DiscoverResponse | ReadResponse | ScrollResponse | Problem | None:
    """Search past sessions

     The shape follows from the arguments: `session_id` + `around_message_id` → scroll; `session_id` →
    read; `q` → discover; nothing (or a blank `q`) → browse. `q` accepts FTS5 syntax (implicit AND,
    `"phrases"`, `OR`, `NOT`, `prefix*`); anything else is made safe. Errors: 404 `session_not_found`,
    404 `message_not_in_session`, 409 `anchor_in_current_lineage` (scroll inside the caller's own
    lineage), 422 `invalid_role`.

    Args:
        q (None | str | Unset): FTS5 query; selects discover
        session_id (None | str | Unset): Selects read, or scroll with an anchor
        around_message_id (int | None | Unset): Anchor message id; selects scroll
        window (int | Unset): Messages each side of the anchor (clamped to 1-20) Default: 5.
        limit (int | Unset): Sessions for discover/browse (clamped to 1-50) Default: 3.
        sort (SearchRunSort | Unset): discover: rank matching messages by best match, newest first
            or oldest first Default: SearchRunSort.RELEVANCE.
        role (list[str] | None | Unset): Roles searched (comma-separated or repeated)
        source (list[str] | None | Unset): Only these sources
        exclude_source (list[str] | None | Unset): Not these sources
        home (None | str | Unset): Only sessions synced from the home with this label (`hermes
            sessions sync`)
        cwd (None | str | Unset): Only sessions whose working directory is this path or under it:
            the listing's `cwd`
        workspace (None | str | Unset): Only sessions whose workspace (git repository root, else
            working directory) contains this, case-insensitively: the listing's `workspace` filter
        current_session_id (None | str | Unset): Caller's session: its live lineage is excluded
        detail (SearchRunDetail | Unset): adaptive: long messages cut to fit (content_truncated);
            full: whole messages Default: SearchRunDetail.ADAPTIVE.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BrowseResponse | DiscoverResponse | ReadResponse | ScrollResponse | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            q=q,
            session_id=session_id,
            around_message_id=around_message_id,
            window=window,
            limit=limit,
            sort=sort,
            role=role,
            source=source,
            exclude_source=exclude_source,
            home=home,
            cwd=cwd,
            workspace=workspace,
            current_session_id=current_session_id,
            detail=detail,
        )
    ).parsed
