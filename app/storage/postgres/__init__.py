"""The PostgreSQL backend (``HERMES_DATABASE_URL=postgresql://...``): the same repository protocols as the
SQLite file, on a psycopg 3 pool."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.settings import Settings
    from app.storage.protocols import Store


def connection_problem(url: str) -> str | None:
    """``HOST:PORT: why`` in one line when a connection to ``url`` cannot be made, else ``None`` (the one
    connection tried is closed at once)."""
    from app.storage.postgres.reachable import connection_problem as problem

    return problem(url)


def open_postgres_store(settings: Settings) -> Store:
    """Migrate the database at ``settings.database_url`` and return the open store."""
    from app.storage.postgres.store import open_store

    return open_store(settings)
