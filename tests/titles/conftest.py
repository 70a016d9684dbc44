"""Every test of this directory that serves runs on both backends."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.settings import Settings
from tests.conftest import BACKENDS, backend_settings


@pytest.fixture(params=BACKENDS)
def settings(request: pytest.FixtureRequest, home: Path) -> Settings:
    """The settings of one backend (the PostgreSQL run skips without a server)."""
    return backend_settings(request, home)
