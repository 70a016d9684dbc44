"""Disk full on a real small file system (tmpfs): attachment uploads and backups answer 507
``storage_full``, leave nothing half-written behind, and work again once space returns."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import hermes_state
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from app.storage.sqlite.driver import sqlite3
from tests.api.problem_assert import assert_problem
from tests.conftest import TOKEN
from tests.files.conftest import fill

Mount = Callable[[Path, str], Path]


def _files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if not p.is_dir())


def test_attachment_upload_on_full_disk_is_507_and_leaves_nothing(tmp_path: Path, small_fs: Mount) -> None:
    home = small_fs(tmp_path / "hermes-home", "4m")
    settings = Settings(home=home, api_token=TOKEN, titles_auto=False)
    payload = os.urandom(300_000)
    with TestClient(create_app(settings), headers={"Authorization": f"Bearer {TOKEN}"}) as client:
        sid = client.post("/sessions", json={"source": "cli"}).json()["id"]
        # One small upload first, so the attachments directories already exist when the disk fills.
        first = client.post(
            f"/sessions/{sid}/attachments", files={"file": ("a.txt", b"first\n", "text/plain")}
        )
        assert first.status_code == 201, first.text
        before = _files(home / "attachments")
        filler = fill(home / "attachments")
        r = client.post(f"/sessions/{sid}/attachments", files={"file": ("big.txt", payload, "text/plain")})
        assert_problem(r, 507, "storage_full")
        assert _files(home / "attachments") == sorted([*before, "filler.bin"])
        filler.unlink()
        again = client.post(
            f"/sessions/{sid}/attachments", files={"file": ("big.txt", payload, "text/plain")}
        )
        assert again.status_code == 201, again.text
        assert (home / again.json()["path"]).read_bytes() == payload
    conn = sqlite3.connect(home / "state.db")
    try:
        assert conn.execute("SELECT COUNT(*) FROM hs_attachments").fetchone()[0] == 2
    finally:
        conn.close()


def test_backup_on_full_disk_is_507_and_leaves_nothing(home: Path, small_fs: Mount) -> None:
    agent = hermes_state.SessionDB(db_path=home / "state.db")
    agent.create_session("big", "cli")
    for i in range(300):
        agent.append_message("big", "user", f"{i} " + os.urandom(4000).hex())
    agent.close()
    assert (home / "state.db").stat().st_size > 2_000_000
    backups = small_fs(home / "backups", "1m")  # a mount point inside the home, smaller than the copy
    settings = Settings(home=home, api_token=TOKEN, titles_auto=False)
    with TestClient(create_app(settings), headers={"Authorization": f"Bearer {TOKEN}"}) as client:
        r = client.post("/maintenance/backup")
        assert_problem(r, 507, "storage_full")
        assert os.listdir(backups) == []
        # Space returns: the next backup succeeds.
        roomy = small_fs(home / "backups", "64m")
        ok = client.post("/maintenance/backup")
        assert ok.status_code == 200, ok.text
        assert os.listdir(roomy) == [ok.json()["name"]]


def test_upload_whose_row_cannot_be_written_leaves_no_blob(client: TestClient, home: Path) -> None:
    sid = client.post("/sessions", json={"source": "cli"}).json()["id"]
    database = client.app.state.db  # type: ignore[attr-defined]

    def pin(conn: sqlite3.Connection) -> None:
        # The file may not grow by a page: what a full disk does to state.db, with the blob already stored.
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count={pages}")

    database.write_sync(lambda tx: pin(tx.conn))
    text = ("a line of text that ends up in extracted_text\n" * 5000).encode()
    r = client.post(f"/sessions/{sid}/attachments", files={"file": ("t.txt", text, "text/plain")})
    assert_problem(r, 507, "storage_full")
    assert _files(home / "attachments") == []
