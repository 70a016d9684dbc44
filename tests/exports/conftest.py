"""Every export test that serves runs on both backends: the real agent writes ``$HERMES_HOME/state.db``,
which on PostgreSQL is mirrored into the database before each request (``tests/agent_mirror.py``), so the
agent's own exporters stay the oracle."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.settings import Settings
from tests.agent_mirror import mirrored_client
from tests.conftest import BACKENDS, TOKEN, backend_settings


@pytest.fixture(params=BACKENDS)
def settings(request: pytest.FixtureRequest, home: Path) -> Settings:
    """The settings of one backend (the PostgreSQL run skips without a server)."""
    return backend_settings(request, home)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    """The app in-process; on PostgreSQL each request first mirrors the agent's file into the database."""
    with mirrored_client(settings, TOKEN) as c:
        yield c
