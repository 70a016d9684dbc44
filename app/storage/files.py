"""Sizes of the files beside the database."""

from __future__ import annotations

from pathlib import Path


def file_size(path: Path) -> int:
    """Bytes of ``path``, 0 when it does not exist (a WAL after a TRUNCATE checkpoint, say)."""
    try:
        return path.stat().st_size
    except OSError:
        return 0
