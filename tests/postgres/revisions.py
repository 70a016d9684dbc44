"""Moving a test database along the Alembic history (a revision's upgrade and downgrade under test)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from alembic import command
from sqlalchemy import create_engine
from sqlalchemy.pool import NullPool

from app.storage.postgres.migrate import sqlalchemy_url
from tests.postgres.test_deferred_search import _alembic


def _move(url: str, step: Callable[[Any, str], None], revision: str) -> None:
    engine = create_engine(sqlalchemy_url(url), poolclass=NullPool)
    try:
        with engine.connect() as conn:
            step(_alembic(conn), revision)
            conn.commit()
    finally:
        engine.dispose()


def downgrade(url: str, revision: str) -> None:
    """Migrate the database at ``url`` down to ``revision``."""
    _move(url, command.downgrade, revision)


def upgrade(url: str, revision: str) -> None:
    """Migrate the database at ``url`` up to ``revision``."""
    _move(url, command.upgrade, revision)
