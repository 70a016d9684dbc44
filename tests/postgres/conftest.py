"""Fixtures of the PostgreSQL store's own tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.domain.records import NewSession
from app.settings import Settings
from app.storage.postgres.store import PgStore, open_store


def new_session(store: PgStore, session_id: str, **fields: Any) -> None:
    """Insert a session (a CLI one by default) in a transaction of its own."""
    store.write_sync(lambda tx: tx.sessions.insert_session(session_id, NewSession(source="cli", **fields)))


@pytest.fixture
def store(pg_migrated_url: str, tmp_path: Path) -> Iterator[PgStore]:
    """An open store on a fresh migrated database."""
    opened = open_store(Settings(home=tmp_path / "home", database_url=pg_migrated_url))
    try:
        yield opened
    finally:
        opened.close()
