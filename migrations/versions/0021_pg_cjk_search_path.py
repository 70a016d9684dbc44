"""PostgreSQL: ``hs_has_cjk``, the predicate of ``idx_messages_cjk``, no longer calls ``hs_cjk_in`` by name.

A plpgsql body resolves the names it calls when it runs, with the caller's ``search_path``. Autovacuum's
``ANALYZE`` and ``pg_restore`` evaluate the index's predicate with an empty one, where ``hs_cjk_in`` is not
found: every automatic analyze of ``messages`` failed (its statistics stayed those of its first rows, or
none, and the planner chose plans for an empty table), and a ``pg_dump`` did not restore. The body now tests
each column with built-in functions only, as ``hs_cjk_in`` did, and ``hs_cjk_in`` is dropped. The function
answers the same, so the index stays as it is. Nothing changes on SQLite.

Revision ID: 0021_pg_cjk_search_path
Revises: 0020_pg_list_index_waits
"""

from alembic import op

from app.storage.postgres.migrate import run_on_postgresql

revision = "0021_pg_cjk_search_path"
down_revision = "0020_pg_list_index_waits"
branch_labels = None
depends_on = None

# Frozen as history: app.storage.postgres.search_schema describes the schema as it is.
_CLASS = "[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\U00020000-\U0003134f]"
_COLUMNS = ("content", "tool_name", "tool_calls")


def _has_cjk(body: str) -> str:
    return (
        "CREATE OR REPLACE FUNCTION hs_has_cjk(content text, tool_name text, tool_calls text)"
        f" RETURNS boolean LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $fn$ BEGIN RETURN {body}; END $fn$"
    )


def upgrade() -> None:
    """Replace the function's body with built-ins, then drop the helper it called."""
    tests = (f"(octet_length({c}) <> length({c}) AND {c} ~ '{_CLASS}') IS TRUE" for c in _COLUMNS)
    run_on_postgresql(
        op.get_bind(), (_has_cjk(" OR ".join(tests)), "DROP FUNCTION IF EXISTS hs_cjk_in(text)")
    )


def downgrade() -> None:
    """Bring back the helper and the body that calls it."""
    run_on_postgresql(
        op.get_bind(),
        (
            "CREATE OR REPLACE FUNCTION hs_cjk_in(t text) RETURNS boolean LANGUAGE sql IMMUTABLE"
            f" PARALLEL SAFE RETURN (octet_length(t) <> length(t) AND t ~ '{_CLASS}') IS TRUE",
            _has_cjk(" OR ".join(f"hs_cjk_in({c})" for c in _COLUMNS)),
        ),
    )
