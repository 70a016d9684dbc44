"""PostgreSQL: ``hs_window_matches``, the function a relevance tier reads its rows through when the word
statistics say a window of ids holds them more cheaply than a walk of the primary key (see
``app.storage.postgres.search_schema``). A database created at revision 0012 by this version already has it
(0012 applies the search schema as it is). Nothing changes on SQLite.

Revision ID: 0016_pg_window_matches
Revises: 0015_pg_deferred_search
"""

from alembic import op

from app.storage.postgres.migrate import run_on_postgresql

revision = "0016_pg_window_matches"
down_revision = "0015_pg_deferred_search"
branch_labels = None
depends_on = None

# Frozen as history: app.storage.postgres.search_schema describes the function as it is.
_ROWS = "SELECT m.id, m.session_id, m.role, m.active, m.compacted, m.search_vector FROM messages m"
_UP = f"""CREATE OR REPLACE FUNCTION hs_window_matches(
    q tsquery, floor_id bigint, below bigint, n integer)
RETURNS TABLE(id bigint, session_id text, role text, active bigint, compacted bigint, search_vector tsvector)
LANGUAGE plpgsql STABLE SET enable_indexscan = on AS $fn$
DECLARE
    got bigint;
BEGIN
    PERFORM set_config('enable_indexscan', 'off', true);
    RETURN QUERY EXECUTE '{_ROWS} WHERE m.hs_search_ready = 1 AND m.search_vector @@ $1'
        ' AND m.id >= $2 AND m.id < $3 ORDER BY m.id DESC LIMIT $4' USING q, floor_id, below, n;
    GET DIAGNOSTICS got = ROW_COUNT;
    IF got < n THEN
        PERFORM set_config('enable_indexscan', 'on', true);
        RETURN QUERY EXECUTE '{_ROWS} WHERE m.hs_search_ready = 1 AND m.search_vector @@ $1'
            ' AND m.id < $2 ORDER BY m.id DESC LIMIT $3' USING q, least(floor_id, below), n - got;
    END IF;
END
$fn$"""
_DOWN = "DROP FUNCTION IF EXISTS hs_window_matches(tsquery, bigint, bigint, integer)"


def upgrade() -> None:
    """Create the window function (or replace it with this definition)."""
    run_on_postgresql(op.get_bind(), (_UP,))


def downgrade() -> None:
    """Drop the window function; tiers of revision 0015 walk the primary key."""
    run_on_postgresql(op.get_bind(), (_DOWN,))
