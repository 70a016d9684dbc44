"""PostgreSQL baseline: the agent's tables, ours and their indexes, in one step (nothing on SQLite).

Revisions 0001-0011 built the SQLite file step by step and do nothing on PostgreSQL; this one creates the
same schema there at once (``app.storage.postgres.schema``), then the search columns and indexes when that
module exists. From here on, every revision branches on the dialect.

Revision ID: 0012_postgresql_baseline
Revises: 0011_list_search_index
"""

from __future__ import annotations

import importlib

from alembic import op

from app.storage.postgres.schema import baseline_statements

revision = "0012_postgresql_baseline"
down_revision = "0011_list_search_index"
branch_labels = None
depends_on = None


def search_ddl() -> tuple[str, ...]:
    """The search schema's statements (``app.storage.postgres.search_schema.SEARCH_DDL``), or none while
    that module is not part of this build."""
    try:
        module = importlib.import_module("app.storage.postgres.search_schema")
    except ModuleNotFoundError:
        return ()
    return tuple(module.SEARCH_DDL)


def upgrade() -> None:
    """Create the PostgreSQL schema (every statement is idempotent)."""
    if op.get_bind().dialect.name != "postgresql":
        return
    conn = op.get_bind().connection.driver_connection
    for stmt in (*baseline_statements(), *search_ddl()):
        conn.execute(stmt)


def downgrade() -> None:
    """The agent's tables and the history in them are never dropped."""
