"""PostgreSQL: ``hs_window_matches`` goes. A relevance tier walks the primary key newest first, as the
planner chooses; the window the word statistics chose, read with plain index scans switched off inside the
function, cost as much CPU as the walk on the ablation bench (``bench/pg_search_ablation.py``). Nothing
changes on SQLite.

Revision ID: 0026_pg_no_window_matches
Revises: 0025_sync_file_generations
"""

from alembic import op

from app.storage.postgres.migrate import run_on_postgresql

revision = "0026_pg_no_window_matches"
down_revision = "0025_sync_file_generations"
branch_labels = None
depends_on = None

# Frozen as history: revision 0016's function, as it was.
_ROWS = "SELECT m.id, m.session_id, m.role, m.active, m.compacted, m.search_vector FROM messages m"
_WINDOW_MATCHES = f"""CREATE OR REPLACE FUNCTION hs_window_matches(
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


def upgrade() -> None:
    """Drop the window function."""
    run_on_postgresql(
        op.get_bind(), ("DROP FUNCTION IF EXISTS hs_window_matches(tsquery, bigint, bigint, integer)",)
    )


def downgrade() -> None:
    """Put revision 0016's function back."""
    run_on_postgresql(op.get_bind(), (_WINDOW_MATCHES,))
