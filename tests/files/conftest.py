"""Fixtures for the file-system tests: a real small file system (tmpfs) to fill up."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest


def _mount_tmpfs(where: Path, size: str) -> str | None:
    """Mount a tmpfs of ``size`` at ``where``; the reason it could not, or ``None``."""
    if os.geteuid() != 0:
        return "mounting a tmpfs needs root"
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(where)],
        capture_output=True,
        text=True,
        check=False,
    )
    return None if done.returncode == 0 else f"mount -t tmpfs refused: {done.stderr.strip()}"


@pytest.fixture
def small_fs(tmp_path: Path) -> Iterator[Callable[[Path, str], Path]]:
    """``mount(dir, size)``: a real tmpfs of ``size`` mounted on ``dir`` (created), unmounted at teardown.

    Skips the test with the reason when this process may not mount (not root, or no CAP_SYS_ADMIN).
    """
    mounted: list[Path] = []

    def mount(where: Path, size: str) -> Path:
        where.mkdir(parents=True, exist_ok=True)
        reason = _mount_tmpfs(where, size)
        if reason is not None:
            pytest.skip(reason)
        mounted.append(where)
        return where

    try:
        yield mount
    finally:
        for where in reversed(mounted):
            # A lazy unmount still detaches it when a test left a file open there (a failed server, say).
            subprocess.run(["umount", "-l", str(where)], check=False)


def fill(directory: Path) -> Path:
    """Write one file in ``directory`` until its file system is full; the file (delete it to free space)."""
    filler = directory / "filler.bin"
    block = b"\xa5" * 65536
    with filler.open("wb", buffering=0) as fh:
        try:
            while True:
                fh.write(block)
        except OSError:
            pass
        small = b"\xa5" * 512
        try:
            while True:
                fh.write(small)
        except OSError:
            pass
    return filler
