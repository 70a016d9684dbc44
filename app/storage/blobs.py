"""Content-addressed attachment bytes under ``$HERMES_HOME/attachments/<sha[:2]>/<sha>``.

A file is written to a temporary name in the attachments directory (same file system), fsynced and
renamed into place, so a reader never sees a partial file and a crash leaves at most a stray temp file.
The same bytes uploaded twice end up as one file.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from app.errors import PayloadTooLarge, UnsupportedMediaType

_CHUNK = 1024 * 1024
_SNIFF_BYTES = 16


@dataclass(frozen=True)
class StoredBlob:
    """A blob in the store: its hash, size, media type and path relative to ``$HERMES_HOME``."""

    sha256: str
    size: int
    media_type: str
    relative_path: str


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def store(
    home: Path,
    source: BinaryIO,
    *,
    max_bytes: int,
    resolve_media_type: Callable[[bytes], str | None],
    declared_type: str | None,
) -> StoredBlob:
    """Copy ``source`` into the store; 413 ``payload_too_large`` past ``max_bytes``, 415
    ``unsupported_media_type`` when ``resolve_media_type(first_bytes)`` refuses it. Blocking: run it
    on a worker thread."""
    head = source.read(_SNIFF_BYTES)
    media_type = resolve_media_type(head)
    if media_type is None:
        raise UnsupportedMediaType(
            f"Attachments of type '{declared_type or 'unknown'}' are not accepted. Allowed: text/*, "
            "audio/*, application/json, application/pdf, image/png, image/jpeg, image/gif, image/webp.",
            code="unsupported_media_type",
            media_type=declared_type,
        )
    root = home / "attachments"
    root.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    size = 0
    fd, tmp_name = tempfile.mkstemp(prefix=".upload-", dir=root)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as out:
            chunk = head
            while chunk:
                size += len(chunk)
                if size > max_bytes:
                    raise PayloadTooLarge(
                        f"The attachment exceeds the limit of {max_bytes} bytes.",
                        code="payload_too_large",
                        limit=max_bytes,
                    )
                digest.update(chunk)
                out.write(chunk)
                chunk = source.read(_CHUNK)
            out.flush()
            os.fsync(out.fileno())
        sha = digest.hexdigest()
        final_dir = root / sha[:2]
        final_dir.mkdir(exist_ok=True)
        final = final_dir / sha
        if final.exists():
            tmp.unlink()
        else:
            os.replace(tmp, final)
            _fsync_dir(final_dir)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise
    return StoredBlob(sha, size, media_type, f"attachments/{sha[:2]}/{sha}")


def read_head(home: Path, relative_path: str, limit: int) -> bytes:
    """The first ``limit`` bytes of a stored blob."""
    with (home / relative_path).open("rb") as f:
        return f.read(limit)
