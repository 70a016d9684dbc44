"""Files and directories under ``$HERMES_HOME``: sizes, private creation, and safe opening.

Modes: what this server creates is private to its user (files 0600, directories 0700); what already exists
(the agent's state.db, a home the user made) keeps its mode. Files are created with ``os.open(...,
0o600)`` rather than under a tightened umask: the umask is process-wide, so changing it would race with
every other thread creating files, and a chmod after creation leaves a window in which the file is
readable by others (a reader that opened it then keeps its descriptor).

Paths: nothing is read or written through a path that resolves outside ``$HERMES_HOME`` (the home itself
may be a link, as ``~/.hermes`` often is: containment is checked against its resolved path). Whoever can
swap a directory inside the home for a link between our check and our use can already replace state.db
itself, so the check plus ``O_NOFOLLOW`` on the final component is the boundary we hold.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO

from app.errors import DirUnusable

# errno values that mean "no space": a full file system, or the user's quota.
_FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})
# Less free space than this is "full" for a write that failed with a vaguer error (SQLite's I/O error).
_NEARLY_FULL_BYTES = 64 * 1024


def file_size(path: Path) -> int:
    """Bytes of ``path``, 0 when it does not exist (a WAL after a TRUNCATE checkpoint, say)."""
    try:
        return path.stat().st_size
    except OSError:
        return 0


def is_disk_full(exc: BaseException) -> bool:
    """True for an OS error that means the file system (or the quota) has no room left."""
    return isinstance(exc, OSError) and exc.errno in _FULL_ERRNOS


def no_space_left(directory: Path) -> bool:
    """True when the file system holding ``directory`` has (next to) no room for an unprivileged write."""
    try:
        usage = os.statvfs(directory)
    except OSError:
        return False
    return usage.f_bavail * usage.f_frsize < _NEARLY_FULL_BYTES


def make_private_dirs(path: Path) -> None:
    """Create ``path`` and its missing parents, each 0700; directories that exist keep their mode."""
    missing: list[Path] = []
    current = path
    while not os.path.lexists(current):
        missing.append(current)
        current = current.parent
    for directory in reversed(missing):
        try:
            os.mkdir(directory, 0o700)
        except FileExistsError:
            continue  # created meanwhile by another thread or process: theirs, with their mode
        # mkdir applies the umask; a umask that strips owner bits must not leave us a directory we
        # cannot use, so the mode is set exactly.
        os.chmod(directory, 0o700)


def create_private_file(path: Path) -> None:
    """Create ``path`` empty with mode 0600; ``FileExistsError`` when anything (even a link) is there."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        os.fchmod(fd, 0o600)  # past a umask that would strip owner bits
    finally:
        os.close(fd)


def fsync_path(path: Path) -> None:
    """Flush ``path`` (a file or a directory) to stable storage."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def resolve_inside(home: Path, path: Path) -> Path | None:
    """``path`` with every link resolved, or ``None`` when that lands outside ``home``."""
    # realpath, not Path.resolve: on Python 3.11 resolve raises RuntimeError for a link loop, where
    # realpath returns the looping link itself, which open_regular then refuses like any link.
    real = Path(os.path.realpath(path))
    return real if real.is_relative_to(os.path.realpath(home)) else None


def private_dir(home: Path, path: Path, unusable: type[DirUnusable]) -> Path:
    """The directory ``path`` under ``home``, created 0700 when missing; its resolved path.

    409 ``unusable`` when it resolves outside ``home`` or is not a directory (a file of that name, say),
    with a sentence naming what to fix.
    """
    if not os.path.lexists(path):
        make_private_dirs(path)
    real = resolve_inside(home, path)
    if real is None:
        raise unusable(path, (os.path.realpath(path), os.path.realpath(home)))
    if not real.is_dir():
        raise unusable(path, None)
    return real


def open_regular(path: Path) -> BinaryIO | None:
    """``path`` opened for reading when it is a regular file (not through a final link), else ``None``.

    The open is non-blocking, so a FIFO or a device cannot stall the caller, and the kind is checked
    again on the descriptor, so a file swapped between the check and the open is caught too.
    """
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # the final component became a link after the lstat
            return None
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        return None
    # Regular files ignore O_NONBLOCK; clearing it keeps later reads ordinary everywhere.
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def describe(path: Path) -> str:
    """What ``path`` is, for a message explaining why it was skipped (``a directory``, ``a FIFO``...)."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return "missing"
    if stat.S_ISLNK(mode):
        with contextlib.suppress(OSError):
            os.stat(path)
            return "a link to something that is not a regular file"
        return "a dangling symbolic link"
    kinds = (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
    )
    return next((name for test, name in kinds if test(mode)), "not a regular file")
