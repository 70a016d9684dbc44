"""Create or adopt the agent's schema in place: the same steps the agent takes when it opens a file.

``adopt`` is idempotent and runs on every start (and from the Alembic baseline), so a file written by any
agent version, older or current, is brought to schema 22 without losing a row, and a file that already is
at 22 is left untouched.
"""

from __future__ import annotations

import logging
from functools import cache

from app.storage import hermes_ddl as ddl
from app.storage.sqlite.connection import split_statements
from app.storage.sqlite.driver import sqlite3

log = logging.getLogger(__name__)


@cache
def declared_columns() -> dict[str, dict[str, str]]:
    """Column name -> ``ALTER TABLE`` type clause for every table the agent declares."""
    ref = sqlite3.connect(":memory:")
    try:
        ref.executescript(ddl.SCHEMA_SQL)
        tables: dict[str, dict[str, str]] = {}
        for (table,) in ref.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'"
        ).fetchall():
            cols: dict[str, str] = {}
            for _cid, name, ctype, notnull, default, pk in ref.execute(f'PRAGMA table_info("{table}")'):
                parts = [ctype] if ctype else []
                if notnull and not pk:
                    parts.append("NOT NULL")
                if default is not None:
                    parts.append(f"DEFAULT {default}")
                cols[name] = " ".join(parts)
            tables[table] = cols
        return tables
    finally:
        ref.close()


def _execute_script(conn: sqlite3.Connection, script: str) -> None:
    for stmt in split_statements(script):
        conn.execute(stmt)


def _reconcile_columns(conn: sqlite3.Connection) -> list[str]:
    added: list[str] = []
    for table, cols in declared_columns().items():
        live = {row[1] for row in conn.execute(f'PRAGMA table_info("{table}")')}
        for name, clause in cols.items():
            if name not in live:
                conn.execute(f'ALTER TABLE "{table}" ADD COLUMN "{name}" {clause}')
                added.append(f"{table}.{name}")
    return added


def _table_sql(conn: sqlite3.Connection, name: str) -> str | None:
    row = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (name,)).fetchone()
    return None if row is None else str(row[0])


def _fts_trigger_count(conn: sqlite3.Connection) -> int:
    marks = ",".join("?" for _ in ddl.FTS_TRIGGERS)
    row = conn.execute(
        f"SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger' AND name IN ({marks})", ddl.FTS_TRIGGERS
    ).fetchone()
    return int(row[0])


def _ensure_fts(conn: sqlite3.Connection, *, stored_version: int | None) -> None:
    """Inline FTS5 + trigram tables and their triggers, rebuilt wherever the agent would rebuild them."""
    legacy = _table_sql(conn, ddl.FTS_TABLE)
    external = legacy is not None and "content=" in legacy.replace(" ", "")
    # Agent schema <= 10 used an external-content index that did not cover tool names or tool calls; the
    # agent's v11 step drops both tables and re-indexes every message, and so do we.
    if external or (stored_version is not None and stored_version < 11):
        for trigger in ddl.FTS_TRIGGERS:
            conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
        conn.execute(f"DROP TABLE IF EXISTS {ddl.FTS_TABLE}")
        conn.execute(f"DROP TABLE IF EXISTS {ddl.FTS_TRIGRAM_TABLE}")
    # Missing triggers mean messages were written without being indexed (a runtime without FTS5 drops
    # them); the agent re-indexes everything in that case.
    stale = _fts_trigger_count(conn) < len(ddl.FTS_TRIGGERS)
    for table, script in ((ddl.FTS_TABLE, ddl.FTS_SQL), (ddl.FTS_TRIGRAM_TABLE, ddl.FTS_TRIGRAM_SQL)):
        created = _table_sql(conn, table) is None
        _execute_script(conn, script)
        if created or stale:
            conn.execute(f"DELETE FROM {table}")
            conn.execute(
                f"INSERT INTO {table}(rowid, content) SELECT id, {ddl.FTS_DOCUMENT_SQL} FROM messages"
            )


def _ensure_title_index(conn: sqlite3.Connection) -> None:
    try:
        conn.execute(ddl.TITLE_INDEX_SQL)
    except sqlite3.IntegrityError:
        # Same repair as the agent: the newest holder of a duplicated title keeps it.
        cleared = conn.execute(
            """UPDATE sessions AS older SET title = NULL
               WHERE title IS NOT NULL AND EXISTS (
                   SELECT 1 FROM sessions AS newer
                   WHERE newer.title = older.title AND newer.rowid > older.rowid)"""
        ).rowcount
        log.warning("Cleared %d duplicate session title(s) to restore the unique index", cleared)
        conn.execute(ddl.TITLE_INDEX_SQL)


def stored_version(conn: sqlite3.Connection) -> int | None:
    """The agent schema version stamped in the file; ``None`` when it has none (a new file)."""
    try:
        row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
    except sqlite3.OperationalError:
        return None
    return None if row[0] is None else int(row[0])


def needs_adoption(conn: sqlite3.Connection) -> bool:
    """Cheap check: is anything missing that ``adopt`` would add?"""
    try:
        row = conn.execute("SELECT version FROM schema_version LIMIT 1").fetchone()
    except sqlite3.OperationalError:
        return True
    if row is None or row[0] < ddl.SCHEMA_VERSION:
        return True
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    required = {*ddl.FTS_TABLES, "idx_sessions_title_unique", *ddl.FTS_TRIGGERS}
    if not required <= names:
        return True
    for table, cols in declared_columns().items():
        live = {r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')}
        if not set(cols) <= live:
            return True
    return False


def _tag_delegate_children(conn: sqlite3.Connection) -> None:
    """Agent v16: mark subagent runs with ``_delegate_from`` so pickers stay clean once parents go."""
    branch = (
        "json_extract(COALESCE(sessions.model_config, '{}'), '$._branched_from') IS NOT NULL"
        " OR EXISTS (SELECT 1 FROM sessions p WHERE p.id = sessions.parent_session_id"
        " AND p.end_reason = 'branched' AND sessions.started_at >= p.ended_at)"
    )
    compression = (
        "EXISTS (SELECT 1 FROM sessions p WHERE p.id = sessions.parent_session_id"
        " AND p.end_reason = 'compression')"
    )
    conn.execute(
        "UPDATE sessions SET model_config = json_set("
        "COALESCE(model_config, '{}'), '$._delegate_from', parent_session_id) "
        "WHERE parent_session_id IS NOT NULL "
        "AND json_extract(COALESCE(model_config, '{}'), '$._delegate_from') IS NULL "
        f"AND (sessions.parent_session_id IS NOT NULL AND NOT ({branch}) AND NOT ({compression}))"
    )
    conn.execute(
        "UPDATE sessions SET model_config = json_set("
        "COALESCE(model_config, '{}'), '$._delegate_from', '__orphaned__') "
        "WHERE parent_session_id IS NULL "
        "AND json_extract(COALESCE(model_config, '{}'), '$._delegate_from') IS NULL "
        "AND json_extract(COALESCE(model_config, '{}'), '$._branched_from') IS NULL "
        "AND title IS NULL "
        "AND message_count <= 25 "
        "AND EXISTS (SELECT 1 FROM messages m WHERE m.session_id = sessions.id AND m.role = 'tool') "
        "AND NOT EXISTS (SELECT 1 FROM sessions ch WHERE ch.parent_session_id = sessions.id)"
    )


def _seed_model_usage(conn: sqlite3.Connection) -> None:
    """Agent v20: one ``session_model_usage`` row per historical session from its aggregate totals."""
    conn.execute(
        """INSERT OR IGNORE INTO session_model_usage (
               session_id, model, billing_provider, billing_base_url, billing_mode,
               api_call_count, input_tokens, output_tokens, cache_read_tokens,
               cache_write_tokens, reasoning_tokens, estimated_cost_usd, actual_cost_usd,
               cost_status, cost_source, first_seen, last_seen
           )
           SELECT id, COALESCE(model, 'unknown'), COALESCE(billing_provider, ''),
                  COALESCE(billing_base_url, ''), COALESCE(billing_mode, ''),
                  COALESCE(api_call_count, 0), COALESCE(input_tokens, 0), COALESCE(output_tokens, 0),
                  COALESCE(cache_read_tokens, 0), COALESCE(cache_write_tokens, 0),
                  COALESCE(reasoning_tokens, 0), COALESCE(estimated_cost_usd, 0),
                  COALESCE(actual_cost_usd, 0), cost_status, cost_source,
                  started_at, COALESCE(ended_at, started_at)
           FROM sessions
           WHERE COALESCE(input_tokens, 0) + COALESCE(output_tokens, 0) + COALESCE(cache_read_tokens, 0)
                 + COALESCE(cache_write_tokens, 0) + COALESCE(reasoning_tokens, 0) > 0"""
    )


_USAGE_COLUMNS = (
    "session_id, model, billing_provider, billing_base_url, billing_mode, task, api_call_count, "
    "input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, "
    "estimated_cost_usd, actual_cost_usd, cost_status, cost_source, first_seen, last_seen"
)


_MAIN_TASK = " '',"


def _rebuild_model_usage_with_task(conn: sqlite3.Connection) -> None:
    """Agent v22: ``task`` joins the primary key; SQLite cannot alter a key, so rebuild the table."""
    in_pk = conn.execute(
        "SELECT COUNT(*) FROM pragma_table_info('session_model_usage') WHERE name = 'task' AND pk > 0"
    ).fetchone()[0]
    if in_pk:
        return
    conn.execute("ALTER TABLE session_model_usage RENAME TO session_model_usage_v21")
    # The renamed table keeps its index names; drop them so the agent's DDL recreates them on the new one.
    conn.execute("DROP INDEX IF EXISTS idx_session_model_usage_session")
    conn.execute("DROP INDEX IF EXISTS idx_session_model_usage_model")
    usage_ddl = next(
        s for s in split_statements(ddl.SCHEMA_SQL) if "TABLE IF NOT EXISTS session_model_usage" in s
    )
    conn.execute(usage_ddl)
    # Rows from before v22 are main-loop accounting by definition: task = ''.
    conn.execute(
        f"INSERT INTO session_model_usage ({_USAGE_COLUMNS}) "
        f"SELECT {_USAGE_COLUMNS.replace(' task,', _MAIN_TASK)} FROM session_model_usage_v21"
    )
    conn.execute("DROP TABLE session_model_usage_v21")
    conn.execute(
        "CREATE INDEX IF NOT EXISTS idx_session_model_usage_session ON session_model_usage(session_id)"
    )
    conn.execute("CREATE INDEX IF NOT EXISTS idx_session_model_usage_model ON session_model_usage(model)")


def _migrate_data(conn: sqlite3.Connection, stored_version: int) -> None:
    """The agent's version-gated row migrations, each run only when the file predates its gate.

    Like the agent, a step that fails is logged and skipped rather than refusing to open the file; unlike
    the agent, each step runs in its own savepoint so a failure never leaves it half-applied.
    """
    steps = (
        (16, _tag_delegate_children),
        (20, _seed_model_usage),
        (22, _rebuild_model_usage_with_task),
    )
    for gate, step in steps:
        if stored_version >= gate:
            continue
        conn.execute("SAVEPOINT hermes_data_migration")
        try:
            step(conn)
        except sqlite3.OperationalError as exc:
            conn.execute("ROLLBACK TO hermes_data_migration")
            log.warning("Agent v%d data migration skipped: %s", gate, exc)
        conn.execute("RELEASE hermes_data_migration")


def adopt(conn: sqlite3.Connection) -> None:
    """Bring the file to the agent's schema 22 inside the caller's transaction. Never drops data."""
    _execute_script(conn, ddl.SCHEMA_SQL)
    added = _reconcile_columns(conn)
    if added:
        log.info("Added missing columns: %s", ", ".join(added))
    conn.execute(ddl.PLATFORM_MSG_INDEX_SQL)
    _execute_script(conn, ddl.DEFERRED_INDEX_SQL)
    conn.execute("UPDATE messages SET active = 1 WHERE active IS NULL")
    row = conn.execute("SELECT version FROM schema_version LIMIT 1").fetchone()
    # Like the agent, a file without a version row is treated as new: stamped, no data migrations.
    stored_version = None if row is None else int(row[0])
    if stored_version is not None and stored_version < ddl.SCHEMA_VERSION:
        _migrate_data(conn, stored_version)
    _ensure_fts(conn, stored_version=stored_version)
    _ensure_title_index(conn)
    if stored_version is None:
        conn.execute("INSERT INTO schema_version (version) VALUES (?)", (ddl.SCHEMA_VERSION,))
    elif stored_version < ddl.SCHEMA_VERSION:
        conn.execute("UPDATE schema_version SET version = ?", (ddl.SCHEMA_VERSION,))
