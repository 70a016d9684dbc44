"""Alembic environment: migrations run on the raw sqlite3 connection of the state.db being opened.

``target_metadata`` is our own tables (app.storage.own_schema); ``include_object`` keeps the agent's out of
every comparison, so ``alembic revision --autogenerate`` drafts only changes to ours.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from app.storage.own_schema import include_object, metadata

config = context.config
url = config.get_main_option("sqlalchemy.url")
connectable = config.attributes.get("connection")


def _migrate(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=metadata, include_object=include_object)
    with context.begin_transaction():
        context.run_migrations()


def run() -> None:
    """Run pending revisions; the caller may hand us an open SQLAlchemy connection."""
    if connectable is not None:
        _migrate(connectable)
        return
    engine = create_engine(url or "sqlite://")
    with engine.connect() as connection:
        _migrate(connection)


run()
