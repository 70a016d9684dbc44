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
from ...models.search_body import SearchBody
from ...types import Response


def _get_kwargs(
    *,
    body: SearchBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/search",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
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
    body: SearchBody,
) -> Response[BrowseResponse | DiscoverResponse | ReadResponse | ScrollResponse | Problem]:
    """Search past sessions (arguments as a JSON body)

     The shape follows from the arguments: `session_id` + `around_message_id` → scroll; `session_id` →
    read; `q` → discover; nothing (or a blank `q`) → browse. `q` accepts FTS5 syntax (implicit AND,
    `"phrases"`, `OR`, `NOT`, `prefix*`); anything else is made safe. Errors: 404 `session_not_found`,
    404 `message_not_in_session`, 409 `anchor_in_current_lineage` (scroll inside the caller's own
    lineage), 422 `invalid_role`.

    Args:
        body (SearchBody): ``POST /search``: the same fields as the query parameters of ``GET
            /search``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BrowseResponse | DiscoverResponse | ReadResponse | ScrollResponse | Problem]
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
    body: SearchBody,
) -> BrowseResponse | DiscoverResponse | ReadResponse | ScrollResponse | Problem | None:
    """Search past sessions (arguments as a JSON body)

     The shape follows from the arguments: `session_id` + `around_message_id` → scroll; `session_id` →
    read; `q` → discover; nothing (or a blank `q`) → browse. `q` accepts FTS5 syntax (implicit AND,
    `"phrases"`, `OR`, `NOT`, `prefix*`); anything else is made safe. Errors: 404 `session_not_found`,
    404 `message_not_in_session`, 409 `anchor_in_current_lineage` (scroll inside the caller's own
    lineage), 422 `invalid_role`.

    Args:
        body (SearchBody): ``POST /search``: the same fields as the query parameters of ``GET
            /search``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BrowseResponse | DiscoverResponse | ReadResponse | ScrollResponse | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: SearchBody,
) -> Response[BrowseResponse | DiscoverResponse | ReadResponse | ScrollResponse | Problem]:
    """Search past sessions (arguments as a JSON body)

     The shape follows from the arguments: `session_id` + `around_message_id` → scroll; `session_id` →
    read; `q` → discover; nothing (or a blank `q`) → browse. `q` accepts FTS5 syntax (implicit AND,
    `"phrases"`, `OR`, `NOT`, `prefix*`); anything else is made safe. Errors: 404 `session_not_found`,
    404 `message_not_in_session`, 409 `anchor_in_current_lineage` (scroll inside the caller's own
    lineage), 422 `invalid_role`.

    Args:
        body (SearchBody): ``POST /search``: the same fields as the query parameters of ``GET
            /search``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BrowseResponse | DiscoverResponse | ReadResponse | ScrollResponse | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: SearchBody,
) -> BrowseResponse | DiscoverResponse | ReadResponse | ScrollResponse | Problem | None:
    """Search past sessions (arguments as a JSON body)

     The shape follows from the arguments: `session_id` + `around_message_id` → scroll; `session_id` →
    read; `q` → discover; nothing (or a blank `q`) → browse. `q` accepts FTS5 syntax (implicit AND,
    `"phrases"`, `OR`, `NOT`, `prefix*`); anything else is made safe. Errors: 404 `session_not_found`,
    404 `message_not_in_session`, 409 `anchor_in_current_lineage` (scroll inside the caller's own
    lineage), 422 `invalid_role`.

    Args:
        body (SearchBody): ``POST /search``: the same fields as the query parameters of ``GET
            /search``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BrowseResponse | DiscoverResponse | ReadResponse | ScrollResponse | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
