"""The suite's temporary files in memory (``/dev/shm``) where the machine has room for them.

Every test home is a new SQLite file, and opening one runs the migrations in hundreds of small commits,
each waiting on the disk's fsync; on a tmpfs an fsync returns at once. No test checks what survives a
power cut (the crash tests kill processes, whose writes the kernel keeps either way), so what the tests
prove is the same on either. The folder is removed when the run ends; ``--basetemp`` chooses a place
explicitly (and keeps it for a look afterwards); a machine whose ``/dev/shm`` is
missing or small (a container's default 64 MB) keeps the default on disk. Loaded by ``-p tests.ram_tmp``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

SHM = Path("/dev/shm")
MIN_FREE_BYTES = 4 << 30
"""Room the run needs: passing tests' directories are removed as they end (``tmp_path_retention_policy``),
but the large imports, the exports and the PostgreSQL cluster stay for a test or a module."""

PREFIX = "hermes-sessions-tests-"
_ROOT = pytest.StashKey[Path]()


def _remove_abandoned() -> None:
    """Folders of runs that were killed before they could remove their own (the run's pid is in the name)."""
    for folder in SHM.glob(f"{PREFIX}*"):
        pid = folder.name.removeprefix(PREFIX).split("-", 1)[0]
        if not pid.isdigit():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)
        except OSError:
            pass  # alive, another user's


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """On the controller (xdist's workers get their own folder of its basetemp): the run's folder in
    memory, with ``TMPDIR`` inside it for what the tests and their processes make with :mod:`tempfile`."""
    if config.option.basetemp is not None or hasattr(config, "workerinput"):
        return
    try:
        if shutil.disk_usage(SHM).free < MIN_FREE_BYTES:
            return
        _remove_abandoned()
        root = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-", dir=SHM))
    except OSError:
        return
    config.option.basetemp = str(root / "basetemp")
    tmp = root / "tmp"
    tmp.mkdir()
    # Open to every user as /tmp is: the PostgreSQL cluster runs as an unprivileged user under a root suite.
    root.chmod(0o755)
    tmp.chmod(0o1777)
    os.environ["TMPDIR"] = str(tmp)
    tempfile.tempdir = None  # gettempdir() reads TMPDIR again
    config.stash[_ROOT] = root


def pytest_unconfigure(config: pytest.Config) -> None:
    """Give the memory back: the run's folder goes with the run."""
    root = config.stash.get(_ROOT, None)
    if root is not None:
        shutil.rmtree(root, ignore_errors=True)
