from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.detail import Detail
from ...models.session_change import SessionChange
from ...types import Response


def _get_kwargs(
    session_id: str,
    *,
    body: SessionChange,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/sessions/{session_id}".format(
            session_id=quote(str(session_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Detail | None:
    if response.status_code == 200:
        response_200 = response.json()
        return response_200

    if response.status_code == 400:
        response_400 = Detail.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Detail.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Detail.from_dict(response.json())

        return response_404

    if response.status_code == 422:
        response_422 = Detail.from_dict(response.json())

        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Any | Detail]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    session_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: SessionChange,
) -> Response[Any | Detail]:
    """Rename, archive, pin

     Rename (an empty title clears it), archive or restore, pin or unpin. 400 when nothing is asked or
    the title is refused; 404 ``Session not found``.

    Args:
        session_id (str): A session id, or a prefix of exactly one
        body (SessionChange): ``PATCH /api/sessions/{id}``: rename (an empty title clears it),
            archive, pin.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Detail]
    """

    kwargs = _get_kwargs(
        session_id=session_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    session_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: SessionChange,
) -> Any | Detail | None:
    """Rename, archive, pin

     Rename (an empty title clears it), archive or restore, pin or unpin. 400 when nothing is asked or
    the title is refused; 404 ``Session not found``.

    Args:
        session_id (str): A session id, or a prefix of exactly one
        body (SessionChange): ``PATCH /api/sessions/{id}``: rename (an empty title clears it),
            archive, pin.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Detail
    """

    return sync_detailed(
        session_id=session_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    session_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: SessionChange,
) -> Response[Any | Detail]:
    """Rename, archive, pin

     Rename (an empty title clears it), archive or restore, pin or unpin. 400 when nothing is asked or
    the title is refused; 404 ``Session not found``.

    Args:
        session_id (str): A session id, or a prefix of exactly one
        body (SessionChange): ``PATCH /api/sessions/{id}``: rename (an empty title clears it),
            archive, pin.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Detail]
    """

    kwargs = _get_kwargs(
        session_id=session_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    session_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: SessionChange,
) -> Any | Detail | None:
    """Rename, archive, pin

     Rename (an empty title clears it), archive or restore, pin or unpin. 400 when nothing is asked or
    the title is refused; 404 ``Session not found``.

    Args:
        session_id (str): A session id, or a prefix of exactly one
        body (SessionChange): ``PATCH /api/sessions/{id}``: rename (an empty title clears it),
            archive, pin.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Detail
    """

    return (
        await asyncio_detailed(
            session_id=session_id,
            client=client,
            body=body,
        )
    ).parsed
