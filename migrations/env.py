"""Alembic environment: migrations run on the raw sqlite3 connection of the state.db being opened."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

config = context.config
url = config.get_main_option("sqlalchemy.url")
connectable = config.attributes.get("connection")


def run() -> None:
    """Run pending revisions; the caller may hand us an open SQLAlchemy connection."""
    if connectable is not None:
        context.configure(connection=connectable, target_metadata=None)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(url or "sqlite://")
    with engine.connect() as connection:
        context.configure(connection=connection, target_metadata=None)
        with context.begin_transaction():
            context.run_migrations()


run()
