"""PostgreSQL: the imitations of SQLite's JSON functions (``json_valid``, ``json_extract``, ``json_type``,
``json_array_length``, from the baseline) go. The shared SQL asks its dialect for JSON predicates
(``app.storage.dialect``); on PostgreSQL they are ``jsonb`` casts and operators, and the one test a cast
cannot make, whether text parses as JSON, is ``hs_json_or_null``. Nothing changes on SQLite.

Revision ID: 0027_pg_json_or_null
Revises: 0026_pg_no_window_matches
"""

from alembic import op

from app.storage.postgres.migrate import run_on_postgresql

revision = "0027_pg_json_or_null"
down_revision = "0026_pg_no_window_matches"
branch_labels = None
depends_on = None

_JSON_OR_NULL = """CREATE OR REPLACE FUNCTION hs_json_or_null(doc text) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    RETURN doc::jsonb;
EXCEPTION WHEN others THEN
    RETURN NULL;
END
$$"""

# Frozen as history: the baseline's functions, as they were.
_SQLITE_IMITATIONS = (
    """CREATE OR REPLACE FUNCTION json_valid(doc text) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    IF doc IS NULL THEN
        RETURN NULL;
    END IF;
    PERFORM doc::jsonb;
    RETURN true;
EXCEPTION WHEN others THEN
    RETURN false;
END
$$""",
    """CREATE OR REPLACE FUNCTION json_extract(doc text, path text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT doc::jsonb #>> string_to_array(substr(path, 3), '.')
$$""",
    """CREATE OR REPLACE FUNCTION json_type(doc text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT jsonb_typeof(doc::jsonb)
$$""",
    """CREATE OR REPLACE FUNCTION json_array_length(doc text) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
    SELECT jsonb_array_length(doc::jsonb)
$$""",
)


def upgrade() -> None:
    """Add ``hs_json_or_null``; drop the imitations."""
    run_on_postgresql(
        op.get_bind(),
        (
            _JSON_OR_NULL,
            "DROP FUNCTION IF EXISTS json_valid(text)",
            "DROP FUNCTION IF EXISTS json_extract(text, text)",
            "DROP FUNCTION IF EXISTS json_type(text)",
            "DROP FUNCTION IF EXISTS json_array_length(text)",
        ),
    )


def downgrade() -> None:
    """Put the baseline's imitations back; drop ``hs_json_or_null``."""
    run_on_postgresql(op.get_bind(), (*_SQLITE_IMITATIONS, "DROP FUNCTION IF EXISTS hs_json_or_null(text)"))
