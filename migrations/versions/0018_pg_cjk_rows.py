"""PostgreSQL: ``idx_messages_cjk``, the ids of the messages holding a CJK character, which the scan of a one-
or two-character CJK term reads instead of every row of its windows (see
``app.storage.postgres.search_schema``). A database created at revision 0012 by this version already has
it (0012 applies the search schema as it is). Nothing changes on SQLite.

Revision ID: 0018_pg_cjk_rows
Revises: 0017_pg_list_text
"""

from alembic import op

from app.storage.postgres.migrate import run_on_postgresql

revision = "0018_pg_cjk_rows"
down_revision = "0017_pg_list_text"
branch_labels = None
depends_on = None

# Frozen as history: app.storage.postgres.search_schema describes the schema as it is.
# The code points of CJK scripts: radicals to ideographs, Hangul, compatibility ideographs, full-width
# forms, the supplementary ideographs.
_CLASS = "[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\U00020000-\U0003134f]"
_UP = (
    "CREATE OR REPLACE FUNCTION hs_cjk_in(t text) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE"
    f" RETURN (octet_length(t) <> length(t) AND t ~ '{_CLASS}') IS TRUE",
    "CREATE OR REPLACE FUNCTION hs_has_cjk(content text, tool_name text, tool_calls text)"
    " RETURNS boolean LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $fn$"
    " BEGIN RETURN hs_cjk_in(content) OR hs_cjk_in(tool_name) OR hs_cjk_in(tool_calls); END $fn$",
    "CREATE INDEX IF NOT EXISTS idx_messages_cjk ON messages (id)"
    " WHERE hs_has_cjk(content, tool_name, tool_calls)",
)
_DOWN = (
    "DROP INDEX IF EXISTS idx_messages_cjk",
    "DROP FUNCTION IF EXISTS hs_has_cjk(text, text, text)",
    "DROP FUNCTION IF EXISTS hs_cjk_in(text)",
)


def upgrade() -> None:
    """Create the functions and the partial index."""
    run_on_postgresql(op.get_bind(), _UP)


def downgrade() -> None:
    """Drop the index and the functions."""
    run_on_postgresql(op.get_bind(), _DOWN)
