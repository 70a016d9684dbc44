"""Export chunks rendered in worker processes (``app/storage/sqlite/render_pool.py``): the same bytes as the
reader-thread path, small chunks in order, a dead worker ends only the export that needed it (with an
error record), and no worker outlives the server."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.services import export
from app.settings import Settings
from tests.conftest import ROOT, TOKEN, LiveServer
from tests.lifecycle.test_export_render import _build_store


def _export_bytes(home: Path, workers: int) -> tuple[bytes, list[int]]:
    settings = Settings(home=home, api_token=TOKEN, titles_auto=False, export_workers=workers)
    with TestClient(create_app(settings), headers={"Authorization": f"Bearer {TOKEN}"}) as client:
        response = client.get("/export.jsonl")
        assert response.status_code == 200
        pool = client.app.state.db.render_pool  # type: ignore[attr-defined]
        pids = [] if pool is None else [w.process.pid for w in pool._all]
        return response.content, pids


def _children(pid: int) -> list[int]:
    # Children started from any thread (the renders run on executor threads), not only the main one.
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        out += [int(c) for c in (task / "children").read_text().split()]
    return out


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    with open(f"/proc/{pid}/status") as fh:  # a zombie not yet reaped is gone too
        return "zombie" in fh.read()


def test_a_worker_starts_without_the_web_stack_sqlalchemy_or_an_event_loop() -> None:
    # Every store starts its own workers on its first export (the test suite starts over a hundred): each
    # should load the storage code it renders with, not SQLAlchemy and SQLModel (the schema's classes),
    # pydantic, the web framework or asyncio.
    code = (
        "import sys, app.storage.sqlite.render_worker\n"
        "heavy = ('sqlalchemy', 'sqlmodel', 'pydantic', 'pydantic_core', 'fastapi', 'starlette', 'asyncio',"
        " 'uvicorn', 'httpx')\n"
        "ours = ('app.main', 'app.api', 'app.services', 'app.storage.own_schema')\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in heavy or m.startswith(ours))\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


@pytest.mark.parametrize(("sessions", "messages"), [(64, 2000), (1, 2)])
def test_workers_send_the_same_bytes_as_the_reader_thread(
    home: Path, monkeypatch: pytest.MonkeyPatch, sessions: int, messages: int
) -> None:
    monkeypatch.setattr(export, "EXPORT_CHUNK_SESSIONS", sessions)
    monkeypatch.setattr(export, "EXPORT_CHUNK_MESSAGES", messages)
    _build_store(home)
    threaded, none = _export_bytes(home, 0)
    in_workers, pids = _export_bytes(home, 2)
    assert none == [] and len(pids) >= 1
    assert in_workers == threaded
    assert threaded.count(b"\n") == 5
    assert all(_gone(pid) for pid in pids), "a render worker outlived the server"


def test_a_dead_worker_ends_one_export_with_an_error_record_and_the_next_one_works(home: Path) -> None:
    _build_store(home)
    settings = Settings(home=home, api_token=TOKEN, titles_auto=False, export_workers=1)
    with TestClient(create_app(settings), headers={"Authorization": f"Bearer {TOKEN}"}) as client:
        first = client.get("/export.jsonl").content
        pool = client.app.state.db.render_pool  # type: ignore[attr-defined]
        (worker,) = pool._all
        os.kill(worker.process.pid, signal.SIGKILL)
        worker.process.wait()
        cut = client.get("/export.jsonl")
        assert cut.status_code == 200
        # The stream cannot go on, and says so in its last line rather than ending as if complete.
        record = orjson.loads(cut.content.splitlines()[-1])["_export_error"]
        assert record["stopped_early"] is True and "render worker exited" in record["detail"]
        assert client.get("/export.jsonl").content == first
        assert pool._all[0] is not worker


def test_workers_exit_when_the_server_is_killed(home: Path, live_server: LiveServer) -> None:
    _build_store(home)
    with live_server.client() as http:
        assert http.get("/export.jsonl").status_code == 200
    workers = _children(live_server.process.pid)
    assert workers, "the export ran without render workers"
    live_server.stop(signal.SIGKILL)
    deadline = time.monotonic() + 10
    while not all(_gone(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(_gone(pid) for pid in workers), "a render worker outlived a killed server"
