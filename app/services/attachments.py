"""Attachment use cases: upload (content-addressed, deduplicated, text extracted) and download lookup."""

from __future__ import annotations

import asyncio
import time
import unicodedata
from pathlib import Path
from typing import Any, BinaryIO

from app.domain.messages import MAX_EXTRACTED_CHARS, extract_text, is_text_media, resolve_media_type
from app.domain.records import NewAttachment
from app.errors import AttachmentNotFound, SessionNotFound
from app.storage import blobs
from app.storage.protocols import Store, Tx

_MAX_FILENAME_CHARS = 255


def attachment_id(sha256: str) -> str:
    """Attachment ids derive from the content hash, so the same bytes always get the same id."""
    return f"att_{sha256[:32]}"


def clean_filename(name: str | None) -> str | None:
    """The client's file name without directories, control characters or lone surrogates."""
    if not name:
        return None
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    kept = "".join(
        ch for ch in base if unicodedata.category(ch) not in ("Cc", "Cs") and ch not in "\u2028\u2029"
    )
    return kept[:_MAX_FILENAME_CHARS] or None


async def upload(
    db: Store,
    home: Path,
    session_id: str,
    source: BinaryIO,
    *,
    declared_type: str | None,
    filename: str | None,
    max_bytes: int,
) -> dict[str, Any]:
    """Store an uploaded file for a session; the public attachment (``id, path, sha256, size,
    media_type, filename, extracted_text?``). 404 ``session_not_found``, 409 ``attachments_dir_unusable``,
    413, 415, 507 ``storage_full`` (nothing left behind)."""
    if not await db.read(lambda tx: tx.sessions.session_exists(session_id)):
        raise SessionNotFound(session_id)
    blob = await asyncio.to_thread(
        blobs.store,
        home,
        source,
        max_bytes=max_bytes,
        resolve_media_type=lambda head: resolve_media_type(declared_type, head),
        declared_type=declared_type,
    )
    text = None
    if is_text_media(blob.media_type):
        head = await asyncio.to_thread(blobs.read_head, home, blob.relative_path, MAX_EXTRACTED_CHARS * 4)
        text = extract_text(head)

    def save(tx: Tx) -> dict[str, Any]:
        return tx.attachments.upsert_attachment(
            NewAttachment(
                attachment_id=attachment_id(blob.sha256),
                sha256=blob.sha256,
                size=blob.size,
                media_type=blob.media_type,
                filename=clean_filename(filename),
                path=blob.relative_path,
                extracted_text=text,
                created_at=time.time(),
            )
        )

    try:
        row = await db.write(save)
    except BaseException:
        if blob.created:
            # The row could not be written (a full disk, most often): the file this upload added would
            # be an orphan. A concurrent upload of the same bytes, deduplicated against it, is written by
            # the same serial writer and fails the same way on a full disk.
            await asyncio.to_thread(blobs.discard, home, blob.relative_path)
        raise
    if row["extracted_text"] is None:
        del row["extracted_text"]
    return row


async def find(db: Store, home: Path, attachment_id_: str) -> tuple[dict[str, Any], Path]:
    """An attachment's row and the file to serve; 404 ``attachment_not_found`` also when its file is
    gone, or is not a regular file inside ``home`` (a link swapped in is never followed out)."""
    row = await db.read(lambda tx: tx.attachments.get_attachment(attachment_id_))
    path = None if row is None else await asyncio.to_thread(blobs.stored_file, home, row["path"])
    if row is None or path is None:
        raise AttachmentNotFound(attachment_id_)
    return row, path
