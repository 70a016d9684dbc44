"""Nothing this server reads or writes resolves outside $HERMES_HOME, and only regular files are read:
legacy transcripts, backups and attachments."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from tests.api.problem_assert import assert_problem
from tests.conftest import LiveServer

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32


def _transcript(path: Path, text: str) -> None:
    lines = [{"role": "user", "content": text, "timestamp": 1700000000.0}]
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A directory beside HERMES_HOME, never inside it."""
    path = tmp_path / "outside"
    path.mkdir()
    return path


def _errors_by_file(report: dict[str, object]) -> dict[str, str]:
    errors = report["errors"]
    assert isinstance(errors, list)
    return {e["file"]: e["code"] for e in errors}


def test_transcripts_outside_home_are_skipped_and_reported(
    home: Path, outside: Path, client: TestClient
) -> None:
    sessions = home / "sessions"
    sessions.mkdir()
    _transcript(sessions / "20240101_000000_aaaaaa.jsonl", "inside")
    _transcript(outside / "secret.jsonl", "read from outside")
    (sessions / "20240101_000000_bbbbbb.jsonl").symlink_to(outside / "secret.jsonl")
    # A link that stays inside $HERMES_HOME is an ordinary file of the home.
    (home / "archive").mkdir()
    _transcript(home / "archive" / "kept.jsonl", "linked inside")
    (sessions / "20240101_000000_cccccc.jsonl").symlink_to(home / "archive" / "kept.jsonl")
    r = client.post("/import/transcripts")
    assert r.status_code == 200, r.text
    report = r.json()
    assert report["imported"] == 2 and report["failed"] == 1
    assert _errors_by_file(report) == {"20240101_000000_bbbbbb.jsonl": "outside_home"}
    assert client.get("/sessions/20240101_000000_bbbbbb").status_code == 404
    assert client.get("/sessions/20240101_000000_cccccc").status_code == 200


def test_sessions_dir_linked_outside_home_is_refused(home: Path, outside: Path, client: TestClient) -> None:
    _transcript(outside / "20240101_000000_dddddd.jsonl", "read from outside")
    (home / "sessions").symlink_to(outside, target_is_directory=True)
    r = client.post("/import/transcripts")
    assert r.status_code == 200, r.text
    report = r.json()
    assert report["imported"] == 0 and _errors_by_file(report) == {"sessions": "outside_home"}
    assert client.get("/sessions/20240101_000000_dddddd").status_code == 404


def test_transcript_entries_that_are_not_regular_files_are_skipped(home: Path, client: TestClient) -> None:
    sessions = home / "sessions"
    sessions.mkdir()
    _transcript(sessions / "20240101_000000_aaaaaa.jsonl", "good")
    (sessions / "adir.jsonl").mkdir()
    (sessions / "dangling.jsonl").symlink_to(home / "no-such-file.jsonl")
    r = client.post("/import/transcripts")
    assert r.status_code == 200, r.text
    report = r.json()
    assert report["imported"] == 1 and report["lines"] == 3
    assert _errors_by_file(report) == {
        "adir.jsonl": "not_a_regular_file",
        "dangling.jsonl": "not_a_regular_file",
    }


def test_fifo_transcript_does_not_hang_the_import(live_server: LiveServer, home: Path) -> None:
    sessions = home / "sessions"
    sessions.mkdir()
    _transcript(sessions / "20240101_000000_aaaaaa.jsonl", "good")
    fifo = sessions / "pipe.jsonl"
    os.mkfifo(fifo)
    try:
        with live_server.client() as http:
            r = http.post("/import/transcripts", timeout=httpx.Timeout(20))
        assert r.status_code == 200, r.text
        report = r.json()
        assert report["imported"] == 1 and _errors_by_file(report) == {"pipe.jsonl": "not_a_regular_file"}
    finally:
        # Should a reader be blocked on the FIFO, a writer that opens and closes it lets it finish.
        with contextlib.suppress(OSError):
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))


def test_backups_linked_outside_home_are_refused(home: Path, outside: Path, client: TestClient) -> None:
    (home / "backups").symlink_to(outside, target_is_directory=True)
    r = client.post("/maintenance/backup")
    assert_problem(r, 409, "backup_dir_unusable")
    assert "outside" in r.json()["detail"]
    assert os.listdir(outside) == []


def test_backups_that_is_a_file_is_a_409(home: Path, client: TestClient) -> None:
    (home / "backups").write_text("not a directory")
    r = client.post("/maintenance/backup")
    assert_problem(r, 409, "backup_dir_unusable")
    assert (home / "backups").read_text() == "not a directory"


def test_attachments_dir_linked_outside_home_is_refused(
    home: Path, outside: Path, client: TestClient
) -> None:
    sid = client.post("/sessions", json={"source": "cli"}).json()["id"]
    (home / "attachments").symlink_to(outside, target_is_directory=True)
    r = client.post(f"/sessions/{sid}/attachments", files={"file": ("p.png", PNG, "image/png")})
    assert_problem(r, 409, "attachments_dir_unusable")
    assert list(outside.rglob("*")) == []


def test_attachment_blob_swapped_for_a_link_is_not_served(
    home: Path, outside: Path, client: TestClient
) -> None:
    sid = client.post("/sessions", json={"source": "cli"}).json()["id"]
    r = client.post(f"/sessions/{sid}/attachments", files={"file": ("p.png", PNG, "image/png")})
    assert r.status_code == 201, r.text
    att = r.json()
    secret = outside / "secret"
    secret.write_bytes(b"outside bytes")
    blob = home / att["path"]
    blob.unlink()
    blob.symlink_to(secret)
    assert_problem(
        client.get(f"/attachments/{att['id']}"), 404, "attachment_not_found", extra=("attachment_id",)
    )
    # The same bytes uploaded again replace the link with a real blob.
    again = client.post(f"/sessions/{sid}/attachments", files={"file": ("p.png", PNG, "image/png")})
    assert again.status_code == 201, again.text
    assert not blob.is_symlink() and blob.read_bytes() == PNG
    assert client.get(f"/attachments/{att['id']}").content == PNG
