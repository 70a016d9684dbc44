"""Content-addressed attachment bytes under ``$HERMES_HOME/attachments/<sha[:2]>/<sha>``.

A file is written to a temporary name in the attachments directory (same file system), fsynced and
renamed into place, so a reader never sees a partial file and a crash leaves at most a stray temp file.
The same bytes uploaded twice end up as one file.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from app.errors import AttachmentsDirUnusable, PayloadTooLarge, StorageFull, UnsupportedAttachmentType
from app.storage.files import fsync_path, is_disk_full, open_regular, private_dir, resolve_inside

_CHUNK = 1024 * 1024
_SNIFF_BYTES = 16


@dataclass(frozen=True)
class StoredBlob:
    """A blob in the store: its hash, size, media type, path relative to ``$HERMES_HOME``, and whether
    this upload wrote the file (``False``: the same bytes were already stored)."""

    sha256: str
    size: int
    media_type: str
    relative_path: str
    created: bool


def _store_dir(home: Path, relative: str) -> Path:
    return private_dir(home, home / relative, AttachmentsDirUnusable)


def store(
    home: Path,
    source: BinaryIO,
    *,
    max_bytes: int,
    resolve_media_type: Callable[[bytes], str | None],
    declared_type: str | None,
) -> StoredBlob:
    """Copy ``source`` into the store; 413 ``payload_too_large`` past ``max_bytes``, 415
    ``unsupported_media_type`` when ``resolve_media_type(first_bytes)`` refuses it, 409
    ``attachments_dir_unusable`` when the store is not a directory inside ``home``, 507 ``storage_full``
    when the disk fills (the partial file is removed). Blocking: run it on a worker thread."""
    head = source.read(_SNIFF_BYTES)
    media_type = resolve_media_type(head)
    if media_type is None:
        raise UnsupportedAttachmentType(declared_type)
    try:
        return _copy_in(home, source, head, max_bytes, media_type)
    except OSError as exc:
        if is_disk_full(exc):
            raise StorageFull("$HERMES_HOME/attachments") from exc
        raise


def _copy_in(home: Path, source: BinaryIO, head: bytes, max_bytes: int, media_type: str) -> StoredBlob:
    root = _store_dir(home, "attachments")
    digest = hashlib.sha256()
    size = 0
    # mkstemp creates the file 0600 with O_EXCL, in the store's own directory, so the rename is atomic.
    fd, tmp_name = tempfile.mkstemp(prefix=".upload-", dir=root)
    tmp = Path(tmp_name)
    created = False
    try:
        with os.fdopen(fd, "wb") as out:
            chunk = head
            while chunk:
                size += len(chunk)
                if size > max_bytes:
                    raise PayloadTooLarge(max_bytes, what="attachment")
                digest.update(chunk)
                out.write(chunk)
                chunk = source.read(_CHUNK)
            out.flush()
            os.fsync(out.fileno())
        sha = digest.hexdigest()
        final_dir = _store_dir(home, f"attachments/{sha[:2]}")
        final = final_dir / sha
        if _is_regular(final):
            tmp.unlink()
        else:
            # Absent, or something other than our file (a link put there): the rename replaces it.
            os.replace(tmp, final)
            fsync_path(final_dir)
            created = True
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise
    return StoredBlob(sha, size, media_type, f"attachments/{sha[:2]}/{sha}", created)


def _is_regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except FileNotFoundError:
        return False


def discard(home: Path, relative_path: str) -> None:
    """Remove a stored blob (one this upload wrote but could not record); gone already is fine."""
    with contextlib.suppress(FileNotFoundError):
        (home / relative_path).unlink()


def stored_file(home: Path, relative_path: str) -> Path | None:
    """The blob's real path when it is a regular file inside ``home``, else ``None``."""
    real = resolve_inside(home, home / relative_path)
    return real if real is not None and _is_regular(real) else None


def read_head(home: Path, relative_path: str, limit: int) -> bytes:
    """The first ``limit`` bytes of a stored blob (never through a link)."""
    fh = open_regular(home / relative_path)
    if fh is None:
        raise FileNotFoundError(relative_path)
    with fh:
        return fh.read(limit)
