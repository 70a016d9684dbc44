"""Our own tables are described once (app.storage.own_schema): a migrated file matches the metadata."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, Index, create_engine
from sqlalchemy.dialects import sqlite
from sqlalchemy.schema import CreateIndex

from app.storage import own_schema
from app.storage.sqlite.driver import sqlite3
from app.storage.sqlite.read_only import shadow_missing_own_tables
from tests.compat.legacy import adopt_file


@pytest.fixture
def migrated(home: Path) -> Iterator[Connection]:
    """A SQLAlchemy connection to a state.db the server has just created and migrated to head."""
    adopt_file(home)
    engine = create_engine(f"sqlite:///{home / 'state.db'}")
    try:
        with engine.connect() as conn:
            yield conn
    finally:
        engine.dispose()


def test_migrated_file_matches_the_metadata(migrated: Connection) -> None:
    context = MigrationContext.configure(
        migrated,
        opts={
            "include_object": own_schema.include_object,
            "compare_type": True,
            "compare_server_default": True,
        },
    )
    assert compare_metadata(context, own_schema.metadata) == []


def test_comparison_sees_our_tables_and_skips_the_agents(migrated: Connection) -> None:
    """Without the filter the agent's tables would be reported; with it, a table we drop is reported."""
    context = MigrationContext.configure(migrated, opts={"include_object": own_schema.include_object})
    migrated.exec_driver_sql("DROP TABLE hs_fts_backlog")
    diff = compare_metadata(context, own_schema.metadata)
    assert [(op[0], op[1].name) for op in diff] == [("add_table", "hs_fts_backlog")]


def test_foreign_keys_match(migrated: Connection) -> None:
    """Foreign keys, with their ON DELETE, from SQLite itself (the Alembic comparison skips them)."""
    for table in own_schema.own_tables():
        rows = migrated.exec_driver_sql(f"PRAGMA foreign_key_list({table.name})").all()
        stored = {(r.table, r[3], r[4], r.on_delete) for r in rows}
        declared = {
            (fk.column.table.name, fk.parent.name, fk.column.name, fk.ondelete or "NO ACTION")
            for fk in table.foreign_keys
        }
        assert stored == declared, table.name


def _normalized(sql: str) -> str:
    return "".join(sql.replace("IF NOT EXISTS", "").replace('"', "").split()).lower()


def _our_indexes_on_agent_tables() -> list[Index]:
    return [
        index
        for table in own_schema.metadata.tables.values()
        if table.info.get("agent")
        for index in sorted(table.indexes, key=lambda i: str(i.name))
    ]


def test_our_indexes_on_the_agents_tables_match(migrated: Connection) -> None:
    """Alembic compares no index of a table it skips, so ours on the agent's tables are checked here."""
    indexes = _our_indexes_on_agent_tables()
    assert {i.name for i in indexes} == {
        "idx_hs_sessions_started_id",
        "idx_hs_messages_session_id",
        "idx_hs_sessions_title_nocase",
    }
    for index in indexes:
        stored = migrated.exec_driver_sql(
            "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?", (index.name,)
        ).scalar_one()
        expected = str(CreateIndex(index).compile(dialect=sqlite.dialect()))
        assert _normalized(stored) == _normalized(expected)


def test_read_only_shadows_are_the_metadatas_tables(tmp_path: Path) -> None:
    """A file without our tables gets TEMP stand-ins of every table the metadata declares as ours."""
    conn = sqlite3.connect(tmp_path / "bare.db")
    try:
        created = shadow_missing_own_tables(conn)
        assert set(created) == {t.name for t in own_schema.own_tables()}
        for table in own_schema.own_tables():
            columns = [r[1] for r in conn.execute(f"PRAGMA temp.table_info({table.name})")]
            assert columns == [c.name for c in table.columns]
    finally:
        conn.close()
