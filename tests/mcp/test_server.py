"""Building the MCP server inside the app: it leaves the process's logging as the server configured it."""

from __future__ import annotations

import logging

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings


def test_the_sdk_gives_the_root_logger_no_handler(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As under `hermes serve`, whose logging configuration gives the root logger no handler (pytest's own
    # would make the SDK's logging.basicConfig a no-op).
    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", [])
    monkeypatch.setattr(root, "level", logging.WARNING)
    with TestClient(create_app(settings)) as client:
        assert client.get("/healthz").status_code == 200
    assert root.handlers == []
    assert root.level == logging.WARNING
