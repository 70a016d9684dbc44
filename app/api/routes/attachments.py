"""Attachments endpoints: upload for a session, download by id."""

from __future__ import annotations

from typing import Annotated

from fastapi import File, Path, Response, UploadFile
from fastapi.responses import FileResponse

from app.api.deps import DB, AppSettings
from app.api.error_docs import READ, WRITE
from app.api.operations import api_router, operation
from app.api.params import SessionId
from app.api.responses import json_response
from app.api.schemas.messages import AttachmentPublic
from app.errors import (
    AttachmentNotFound,
    AttachmentsDirUnusable,
    SessionNotFound,
    UnreadableForm,
    UnsupportedAttachmentType,
)
from app.services import attachments as svc

router = api_router("attachments")


@router.post(
    "/sessions/{session_id}/attachments",
    **operation(
        "attachments-upload",
        "Upload an attachment",
        AttachmentPublic,
        WRITE,
        UnreadableForm,
        SessionNotFound,
        AttachmentsDirUnusable,
        UnsupportedAttachmentType,
        ok={
            201: {
                "headers": {"Location": {"description": "Where to download it", "schema": {"type": "string"}}}
            }
        },
        status_code=201,
        openapi_extra={
            "requestBody": {
                "description": "A `multipart/form-data` upload with the file's bytes in the `file` field "
                "(binary, so no example), e.g. `curl -F file=@notes.txt`."
            }
        },
    ),
)
async def upload_attachment(
    session_id: SessionId,
    db: DB,
    settings: AppSettings,
    file: Annotated[UploadFile, File(description="The file")],
) -> Response:
    """Upload a file (``multipart/form-data``, field ``file``). Stored once by SHA-256 under
    ``$HERMES_HOME/attachments/``: the same bytes again return the same attachment. Accepted types:
    ``text/*``, ``audio/*``, ``application/json``, ``application/pdf``, ``image/png|jpeg|gif|webp``; an
    untyped (``application/octet-stream``) upload is recognised by its first bytes. Text types get
    ``extracted_text`` (UTF-8, invalid bytes replaced, at most 100 000 characters). Codes: 404
    ``session_not_found``; 409 ``attachments_dir_unusable`` (``$HERMES_HOME/attachments`` is not a
    directory, or resolves outside ``$HERMES_HOME``); 413 ``payload_too_large``; 415
    ``unsupported_media_type``; 507 ``storage_full`` (nothing of the upload is left on disk)."""
    try:
        stored = await svc.upload(
            db,
            settings.home,
            session_id,
            file.file,
            declared_type=file.content_type,
            filename=file.filename,
            max_bytes=settings.max_attachment_bytes,
        )
    finally:
        await file.close()
    return json_response(stored, 201, {"Location": f"/attachments/{stored['id']}"})


@router.get(
    "/attachments/{attachment_id}",
    **operation(
        "attachments-get",
        "Download an attachment",
        None,
        READ,
        AttachmentNotFound,
        ok={
            200: {
                "description": "The stored bytes with their media type (binary, so no example)",
                "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}},
            }
        },
        response_class=FileResponse,
    ),
)
async def download_attachment(
    attachment_id: Annotated[
        str, Path(description="The id from the upload's answer or a message's attachments")
    ],
    db: DB,
    settings: AppSettings,
) -> FileResponse:
    """The attachment's bytes, with its media type and ``Content-Disposition`` naming the file. Codes: 404
    ``attachment_not_found``."""
    row, path = await svc.find(db, settings.home, attachment_id)
    return FileResponse(
        path,
        media_type=row["media_type"],
        filename=row["filename"] or row["id"],
        headers={"X-Content-Type-Options": "nosniff"},
    )
