"""Fixtures of the PostgreSQL store's own tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.settings import Settings
from app.storage.postgres import open_postgres_store
from app.storage.postgres.store import PgStore


@pytest.fixture
def store(pg_migrated_url: str, tmp_path: Path) -> Iterator[PgStore]:
    """An open store on a fresh migrated database."""
    opened = open_postgres_store(Settings(home=tmp_path / "home", database_url=pg_migrated_url))
    try:
        yield opened
    finally:
        opened.close()
