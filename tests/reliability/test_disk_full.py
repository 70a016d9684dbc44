"""Disk full on a real, small filesystem (tmpfs): every write type answers 507 ``storage_full`` and leaves
nothing behind, and the same writes succeed once space returns."""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

from tests.api.problem_assert import assert_problem
from tests.conftest import LiveServer, start_live_server
from tests.reliability.soundness import assert_sound, connect

# Just above what /readyz wants free (64 MiB), so the server starts and the disk fills quickly.
TMPFS_BYTES = 72 * 1024 * 1024
SIDECARS = ("state.db-wal", "state.db-shm")


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A tmpfs of :data:`TMPFS_BYTES` mounted for this test (skipped where mounting is not permitted)."""
    mnt = tmp_path / "small-disk"
    mnt.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={TMPFS_BYTES},mode=0700", "tmpfs", str(mnt)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip() or done.returncode}); needs root")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def _fill(path: Path) -> None:
    """Write ``path`` until the filesystem has not one byte left."""
    with path.open("wb", buffering=0) as f:
        for chunk in (1 << 20, 1 << 16, 1 << 12, 1):
            block = b"\0" * chunk
            with contextlib.suppress(OSError):
                while True:
                    f.write(block)
    with pytest.raises(OSError) as info, (path.parent / "probe").open("wb", buffering=0) as probe:
        probe.write(b"x" * 4096)
    assert info.value.errno == errno.ENOSPC
    (path.parent / "probe").unlink(missing_ok=True)


def _files(home: Path) -> dict[str, int]:
    """Every file under the home with its size, the WAL and shared-memory sidecars aside."""
    return {
        str(p.relative_to(home)): p.stat().st_size
        for p in home.rglob("*")
        if p.is_file() and p.name not in SIDECARS
    }


def _snapshot(home: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table (the FTS tables' own shadow tables aside: integrity checks cover them)."""
    conn = connect(home / "state.db")
    try:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
                " AND name NOT LIKE 'messages_fts%'"
            )
        ]
        return {t: [tuple(r) for r in conn.execute(f'SELECT * FROM "{t}" ORDER BY 1')] for t in tables}
    finally:
        conn.close()


def _import_body(sid: str) -> bytes:
    line = {"id": sid, "source": "cli", "messages": [{"role": "user", "content": "imported walrus"}]}
    return orjson.dumps(line)


Write = Callable[[httpx.Client], httpx.Response]


def _writes(ids: dict[str, str], attempt: str) -> dict[str, Write]:
    """Every write type, each on its own target so the one before cannot have changed it.

    ``attempt`` makes ids and titles unique, so the same writes can be made again after recovery.
    """
    a, fork, cont = ids["a"], ids["fork"], ids["cont"]
    big = "long text that will not fit " * 200
    return {
        "create session": lambda c: c.post("/sessions", json={"source": "cli", "title": f"new {attempt}"}),
        "append": lambda c: c.post(f"/sessions/{a}/messages", json={"role": "user", "content": big}),
        "batch": lambda c: c.post(
            f"/sessions/{a}/messages", json={"messages": [{"role": "user", "content": big}] * 20}
        ),
        "title": lambda c: c.patch(f"/sessions/{a}", json={"title": f"renamed {attempt}"}),
        "usage": lambda c: c.post(f"/sessions/{a}/usage", json={"input_tokens": 5, "output_tokens": 7}),
        "import": lambda c: c.post(
            "/import", content=_import_body(f"imp-{attempt}"), headers={"Content-Type": "application/jsonl"}
        ),
        "fork": lambda c: c.post(f"/sessions/{fork}/fork", json={}),
        "continuation": lambda c: c.post(f"/sessions/{cont}/continuations", json={}),
        "attachment": lambda c: c.post(
            f"/sessions/{a}/attachments",
            files={"file": (f"notes-{attempt}.txt", os.urandom(256 * 1024).hex().encode(), "text/plain")},
        ),
        "backup": lambda c: c.post("/maintenance/backup"),
        "vacuum": lambda c: c.post("/maintenance/vacuum"),
    }


def _seed(server: LiveServer) -> dict[str, str]:
    ids: dict[str, str] = {}
    with server.client() as c:
        for key in ("a", "fork", "cont"):
            resp = c.post("/sessions", json={"source": "cli", "title": f"seed {key}"})
            assert resp.status_code == 201, resp.text
            ids[key] = resp.json()["id"]
            batch = {"messages": [{"role": "user", "content": f"seed {key} {i}"} for i in range(5)]}
            assert c.post(f"/sessions/{ids[key]}/messages", json=batch).status_code == 201
        # The WAL goes back to zero bytes: any new frame then needs space the disk no longer has.
        ckpt = c.post("/maintenance/optimize")
        assert ckpt.status_code == 200 and ckpt.json()["checkpoint"]["busy"] == 0, ckpt.text
    return ids


def test_every_write_on_a_full_disk_is_507_and_nothing_half_written(small_disk: Path) -> None:
    home = small_disk / "hermes-home"
    home.mkdir()
    server = start_live_server(home)
    try:
        ids = _seed(server)
        before_files, before_rows = _files(home), _snapshot(home)
        filler = small_disk / "filler"
        _fill(filler)
        failures: dict[str, str] = {}
        for name, write in _writes(ids, "full").items():
            # A client each: a failed answer must not reset the connection the next write uses.
            with server.client() as c:
                resp = write(c)
            try:
                assert_problem(resp, 507, "storage_full")
            except AssertionError as exc:
                failures[name] = f"{resp.status_code} {resp.text[:200]} ({exc})"
        assert not failures, failures
        filler.unlink()
        assert_sound(home / "state.db")
        assert _snapshot(home) == before_rows, "a refused write is visible"
        assert _files(home) == before_files, "a refused write left files behind"

        with server.client() as c:
            for name, write in _writes(ids, "later").items():
                resp = write(c)
                assert resp.status_code in (200, 201), (name, resp.status_code, resp.text[:300])
            listed = c.get(f"/sessions/{ids['a']}").json()
        assert listed["title"] == "renamed later"
        assert listed["input_tokens"] == 5
        assert listed["message_count"] == 5 + 1 + 20
        assert len(list((home / "backups").iterdir())) == 1
        assert_sound(home / "state.db")
    finally:
        server.stop()
