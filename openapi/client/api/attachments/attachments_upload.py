from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.attachment_public import AttachmentPublic
from ...models.body_attachments_upload import BodyAttachmentsUpload
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    session_id: str,
    *,
    body: BodyAttachmentsUpload,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/sessions/{session_id}/attachments".format(
            session_id=quote(str(session_id), safe=""),
        ),
    }

    _kwargs["files"] = body.to_multipart()

    headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AttachmentPublic | Problem | None:
    if response.status_code == 201:
        response_201 = AttachmentPublic.from_dict(response.json())

        return response_201

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

    if response.status_code == 507:
        response_507 = Problem.from_dict(response.json())

        return response_507

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[AttachmentPublic | Problem]:
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
    body: BodyAttachmentsUpload,
) -> Response[AttachmentPublic | Problem]:
    """Upload an attachment

     Upload a file (``multipart/form-data``, field ``file``). Stored once by SHA-256 under
    ``$HERMES_HOME/attachments/``: the same bytes again return the same attachment. Accepted types:
    ``text/*``, ``audio/*``, ``application/json``, ``application/pdf``, ``image/png|jpeg|gif|webp``; an
    untyped (``application/octet-stream``) upload is recognised by its first bytes. Text types get
    ``extracted_text`` (UTF-8, invalid bytes replaced, at most 100 000 characters). Codes: 404
    ``session_not_found``; 409 ``attachments_dir_unusable`` (``$HERMES_HOME/attachments`` is not a
    directory, or resolves outside ``$HERMES_HOME``); 413 ``payload_too_large``; 415
    ``unsupported_media_type``; 507 ``storage_full`` (nothing of the upload is left on disk).

    Args:
        session_id (str): A session id, exactly as stored (e.g. `20260105_101500_a1b2c3`); `GET
            /sessions/resolve` turns a prefix or a title into one
        body (BodyAttachmentsUpload):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AttachmentPublic | Problem]
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
    client: AuthenticatedClient,
    body: BodyAttachmentsUpload,
) -> AttachmentPublic | Problem | None:
    """Upload an attachment

     Upload a file (``multipart/form-data``, field ``file``). Stored once by SHA-256 under
    ``$HERMES_HOME/attachments/``: the same bytes again return the same attachment. Accepted types:
    ``text/*``, ``audio/*``, ``application/json``, ``application/pdf``, ``image/png|jpeg|gif|webp``; an
    untyped (``application/octet-stream``) upload is recognised by its first bytes. Text types get
    ``extracted_text`` (UTF-8, invalid bytes replaced, at most 100 000 characters). Codes: 404
    ``session_not_found``; 409 ``attachments_dir_unusable`` (``$HERMES_HOME/attachments`` is not a
    directory, or resolves outside ``$HERMES_HOME``); 413 ``payload_too_large``; 415
    ``unsupported_media_type``; 507 ``storage_full`` (nothing of the upload is left on disk).

    Args:
        session_id (str): A session id, exactly as stored (e.g. `20260105_101500_a1b2c3`); `GET
            /sessions/resolve` turns a prefix or a title into one
        body (BodyAttachmentsUpload):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AttachmentPublic | Problem
    """

    return sync_detailed(
        session_id=session_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    session_id: str,
    *,
    client: AuthenticatedClient,
    body: BodyAttachmentsUpload,
) -> Response[AttachmentPublic | Problem]:
    """Upload an attachment

     Upload a file (``multipart/form-data``, field ``file``). Stored once by SHA-256 under
    ``$HERMES_HOME/attachments/``: the same bytes again return the same attachment. Accepted types:
    ``text/*``, ``audio/*``, ``application/json``, ``application/pdf``, ``image/png|jpeg|gif|webp``; an
    untyped (``application/octet-stream``) upload is recognised by its first bytes. Text types get
    ``extracted_text`` (UTF-8, invalid bytes replaced, at most 100 000 characters). Codes: 404
    ``session_not_found``; 409 ``attachments_dir_unusable`` (``$HERMES_HOME/attachments`` is not a
    directory, or resolves outside ``$HERMES_HOME``); 413 ``payload_too_large``; 415
    ``unsupported_media_type``; 507 ``storage_full`` (nothing of the upload is left on disk).

    Args:
        session_id (str): A session id, exactly as stored (e.g. `20260105_101500_a1b2c3`); `GET
            /sessions/resolve` turns a prefix or a title into one
        body (BodyAttachmentsUpload):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AttachmentPublic | Problem]
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
    client: AuthenticatedClient,
    body: BodyAttachmentsUpload,
) -> AttachmentPublic | Problem | None:
    """Upload an attachment

     Upload a file (``multipart/form-data``, field ``file``). Stored once by SHA-256 under
    ``$HERMES_HOME/attachments/``: the same bytes again return the same attachment. Accepted types:
    ``text/*``, ``audio/*``, ``application/json``, ``application/pdf``, ``image/png|jpeg|gif|webp``; an
    untyped (``application/octet-stream``) upload is recognised by its first bytes. Text types get
    ``extracted_text`` (UTF-8, invalid bytes replaced, at most 100 000 characters). Codes: 404
    ``session_not_found``; 409 ``attachments_dir_unusable`` (``$HERMES_HOME/attachments`` is not a
    directory, or resolves outside ``$HERMES_HOME``); 413 ``payload_too_large``; 415
    ``unsupported_media_type``; 507 ``storage_full`` (nothing of the upload is left on disk).

    Args:
        session_id (str): A session id, exactly as stored (e.g. `20260105_101500_a1b2c3`); `GET
            /sessions/resolve` turns a prefix or a title into one
        body (BodyAttachmentsUpload):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AttachmentPublic | Problem
    """

    return (
        await asyncio_detailed(
            session_id=session_id,
            client=client,
            body=body,
        )
    ).parsed
