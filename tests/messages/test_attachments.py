"""Attachments: content-addressed upload with dedupe, text extraction, limits, media types, download,
and messages that reference attachments."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from app.storage.sqlite.driver import sqlite3
from tests.conftest import TOKEN

Raw = Callable[..., list[sqlite3.Row]]
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32


def _upload(
    client: TestClient, sid: str, data: bytes, media_type: str, name: str = "f.bin"
) -> dict[str, Any]:
    r = client.post(f"/sessions/{sid}/attachments", files={"file": (name, data, media_type)})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def test_same_bytes_stored_once(client: TestClient, sid: str, home: Path, raw: Raw) -> None:
    data = "héllo wörld\n".encode()
    first = _upload(client, sid, data, "text/plain; charset=utf-8", "a.txt")
    second = _upload(client, sid, data, "text/plain", "b.txt")
    sha = hashlib.sha256(data).hexdigest()
    assert first["id"] == second["id"] and first["sha256"] == sha and first["size"] == len(data)
    assert first["path"] == f"attachments/{sha[:2]}/{sha}"
    assert (home / first["path"]).read_bytes() == data
    assert [p.name for p in (home / "attachments").rglob("*") if p.is_file()] == [sha]
    assert raw("SELECT COUNT(*) FROM hs_attachments")[0][0] == 1
    assert first["media_type"] == "text/plain" and first["extracted_text"] == "héllo wörld\n"


def test_text_extraction_replaces_bad_bytes(client: TestClient, sid: str) -> None:
    body = _upload(client, sid, b'{"a": "\xff"}', "application/json", "x.json")
    assert body["extracted_text"] == '{"a": "\ufffd"}'
    image = _upload(client, sid, PNG, "image/png", "p.png")
    assert "extracted_text" not in image


def test_media_type_policy(client: TestClient, sid: str) -> None:
    r = client.post(
        f"/sessions/{sid}/attachments", files={"file": ("x.exe", b"MZ\x90\x00", "application/x-msdownload")}
    )
    assert r.status_code == 415 and r.json()["code"] == "unsupported_media_type"
    unknown = client.post(
        f"/sessions/{sid}/attachments", files={"file": ("x", b"\x01\x02", "application/octet-stream")}
    )
    assert unknown.status_code == 415
    sniffed = _upload(client, sid, PNG, "application/octet-stream", "pic")
    assert sniffed["media_type"] == "image/png"
    assert _upload(client, sid, b"RIFF....WAVEfmt ", "audio/wav")["media_type"] == "audio/wav"


def test_upload_needs_session(client: TestClient) -> None:
    r = client.post("/sessions/nope/attachments", files={"file": ("a.txt", b"x", "text/plain")})
    assert r.status_code == 404 and r.json()["code"] == "session_not_found"
    assert client.post("/sessions/nope/attachments").status_code == 422


@pytest.fixture
def small_client(home: Path) -> Iterator[TestClient]:
    settings = Settings(home=home, api_token=TOKEN, max_attachment_bytes=2048)
    with TestClient(create_app(settings), headers={"Authorization": f"Bearer {TOKEN}"}) as c:
        yield c


def test_too_large_leaves_nothing(small_client: TestClient, home: Path) -> None:
    sid = small_client.post("/sessions", json={"source": "cli"}).json()["id"]
    r = small_client.post(
        f"/sessions/{sid}/attachments", files={"file": ("big.txt", b"x" * 4096, "text/plain")}
    )
    assert r.status_code == 413 and r.json()["code"] == "payload_too_large"
    assert not [p for p in (home / "attachments").rglob("*") if p.is_file()]
    assert (
        small_client.post(
            f"/sessions/{sid}/attachments", files={"file": ("ok.txt", b"x" * 2048, "text/plain")}
        ).status_code
        == 201
    )


def test_download(client: TestClient, sid: str) -> None:
    att = _upload(client, sid, PNG, "image/png", "résumé.png")
    r = client.get(f"/attachments/{att['id']}")
    assert r.status_code == 200 and r.content == PNG
    assert r.headers["content-type"] == "image/png"
    assert "attachment;" in r.headers["content-disposition"]
    missing = client.get("/attachments/att_nope")
    assert missing.status_code == 404 and missing.json()["code"] == "attachment_not_found"


def test_message_references_attachment(client: TestClient, sid: str, raw: Raw) -> None:
    att = _upload(client, sid, b"notes", "text/markdown", "n.md")
    r = client.post(
        f"/sessions/{sid}/messages", json={"role": "user", "content": "see file", "attachments": [att["id"]]}
    )
    assert r.status_code == 201
    item = r.json()["items"][0]
    ref = {k: att[k] for k in ("id", "media_type", "size", "sha256", "filename")}
    assert item["attachments"] == [ref]
    assert raw("SELECT content FROM messages")[0]["content"] == "see file"  # bytes never enter content
    assert client.get(f"/sessions/{sid}/messages").json()["items"][0]["attachments"] == [ref]
    assert client.get(f"/sessions/{sid}/messages/{item['id']}").json()["attachments"] == [ref]
    unknown = client.post(f"/sessions/{sid}/messages", json={"role": "user", "attachments": ["att_x"]})
    assert unknown.status_code == 422 and unknown.json()["code"] == "unknown_attachment"
