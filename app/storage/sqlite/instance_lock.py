"""One server per state.db unless asked otherwise: an advisory lock held for the life of ``hermes serve``.

Two servers on one file stay correct (SQLite's locking keeps them apart), but each then waits for the other's
write lock and runs its own background jobs, which is almost always a mistake: a second start in another
terminal, or a service manager and a manual start. ``flock`` is released by the kernel when the process
dies, even by kill -9, so a crash never leaves a stale lock behind.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path


class AlreadyServed(Exception):
    """Another live process holds the lock; ``holder`` is its pid as it wrote it (or ``None``)."""

    def __init__(self, lock_path: Path, holder: int | None) -> None:
        super().__init__(f"{lock_path} is held by pid {holder}")
        self.lock_path = lock_path
        self.holder = holder


def lock_path_for(db_path: Path) -> Path:
    """The lock file beside ``db_path`` (``state.db.serve.lock``)."""
    return db_path.with_name(db_path.name + ".serve.lock")


def hold(db_path: Path) -> int:
    """Take the lock for ``db_path`` and return its descriptor (keep it open while serving).

    Raises :class:`AlreadyServed` when another process holds it.
    """
    path = lock_path_for(db_path)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = _read_pid(fd)
        os.close(fd)
        raise AlreadyServed(path, holder) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd


def _read_pid(fd: int) -> int | None:
    with contextlib.suppress(OSError, ValueError):
        return int(os.pread(fd, 32, 0).decode().strip())
    return None
