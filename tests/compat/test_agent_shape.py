"""The shape check: what makes a file writable, what it names when it is not, the rules it hands the
repositories, and the SQLite library under all of it."""

from __future__ import annotations

from pathlib import Path

import hermes_state
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from app.main import create_app
from app.settings import Settings
from app.storage import agent_objects
from app.storage.agent_shape import AgentShape, inspect
from app.storage.sqlite.driver import WAL_RESET_FIXED, has_wal_reset_bug, library_version, sqlite3
from tests.compat.legacy import adopt_file, open_db
from tests.conftest import TOKEN

AUTH = {"Authorization": f"Bearer {TOKEN}"}


def _agent_file(home: Path) -> Path:
    path = home / "state.db"
    db = hermes_state.SessionDB(db_path=path)
    db.create_session("s1", source="cli", model="m")
    db.append_message("s1", role="user", content="the marmalade is in the pantry")
    db.close()
    return path


def _shape(path: Path) -> AgentShape:
    conn = sqlite3.connect(path)
    try:
        return inspect(conn)
    finally:
        conn.close()


def test_the_bundled_library_has_no_wal_reset_bug() -> None:
    version = tuple(int(p) for p in library_version().split("."))
    assert not has_wal_reset_bug(version)
    assert has_wal_reset_bug((3, 40, 1)) and has_wal_reset_bug((3, 51, 2)) and has_wal_reset_bug((3, 7, 0))
    assert not has_wal_reset_bug(WAL_RESET_FIXED) and not has_wal_reset_bug((3, 6, 23))


def test_readyz_shows_the_library_and_the_file(home: Path) -> None:
    _agent_file(home)
    with TestClient(create_app(Settings(home=home, api_token=TOKEN)), headers=AUTH) as c:
        ready = c.get("/readyz").json()
    assert ready["sqlite_version"] == library_version()
    assert ready["agent_file"] == "agent schema 22, inline FTS"
    assert ready["status"] == "ready"


def test_an_adopted_file_is_writable_with_the_schema_22_rules(home: Path) -> None:
    path = _agent_file(home)
    adopt_file(home)
    shape = _shape(path)
    assert shape.writable and shape.own_fts_upkeep and shape.fts == "inline"
    assert not shape.system_prompts and not shape.trigram_reads_sessions


def test_an_unknown_trigger_makes_the_file_read_only_and_is_named(home: Path) -> None:
    path = _agent_file(home)
    adopt_file(home)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE schema_version SET version = 31")
    conn.execute(
        "CREATE TRIGGER messages_fts_projection_dirty_insert AFTER INSERT ON messages BEGIN"
        " UPDATE state_meta SET value = '1' WHERE key = 'fts_projection_dirty'; END"
    )
    conn.commit()
    conn.close()
    shape = _shape(path)
    assert shape.problems == ("trigger messages_fts_projection_dirty_insert",)
    before = path.read_bytes()
    with TestClient(create_app(Settings(home=home, api_token=TOKEN)), headers=AUTH) as c:
        refused = c.post("/sessions", json={"source": "cli"})
        ready = c.get("/readyz").json()
        listed = c.get("/sessions").json()["items"]
    assert refused.status_code == 503 and refused.json()["code"] == "agent_file_read_only"
    assert "messages_fts_projection_dirty_insert" in refused.json()["detail"]
    assert ready["status"] == "read_only" and "messages_fts_projection_dirty_insert" in ready["reason"]
    assert [s["id"] for s in listed] == ["s1"]
    assert path.read_bytes() == before


def test_a_required_column_we_do_not_write_makes_the_file_read_only(home: Path) -> None:
    path = _agent_file(home)
    adopt_file(home)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE schema_version SET version = 27")
    # SQLite only adds a NOT NULL column with a default; a rebuilt table can have one without.
    conn.execute("CREATE TABLE gateway_routing_new AS SELECT * FROM gateway_routing")
    conn.execute("DROP TABLE gateway_routing")
    conn.execute(
        "CREATE TABLE gateway_routing (scope TEXT NOT NULL DEFAULT '', session_key TEXT NOT NULL,"
        " entry_json TEXT NOT NULL, updated_at REAL NOT NULL, tenant TEXT NOT NULL,"
        " PRIMARY KEY (scope, session_key))"
    )
    conn.execute("DROP TABLE gateway_routing_new")
    conn.commit()
    conn.close()
    problems = _shape(path).problems
    assert problems == ("column gateway_routing.tenant (NOT NULL, no default, not one we write)",)


def test_our_tables_hold_no_key_into_the_agents_and_go_with_its_rows(home: Path) -> None:
    path = _agent_file(home)
    with TestClient(create_app(Settings(home=home, api_token=TOKEN)), headers=AUTH) as c:
        assert c.put("/sessions/s1/pin").status_code == 200
        assert c.patch("/sessions/s1", json={"title": "kept by us"}).status_code == 200
    conn = sqlite3.connect(path)
    ours = [
        r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'hs_%'")
    ]
    for table in ours:
        targets = {r[2] for r in conn.execute(f"PRAGMA foreign_key_list({table})")}
        assert not targets & {"sessions", "messages"}, table
    conn.close()
    # The agent deletes with its own connection (foreign keys on): nothing of ours stops it, nothing stays.
    db = hermes_state.SessionDB(db_path=path)
    assert db.delete_session("s1")
    db.close()
    conn = sqlite3.connect(path)
    for table in ("hs_session_pins", "hs_session_titles", "hs_sync_sessions", "hs_handoffs"):
        assert conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] == 0, table
    conn.close()


def test_a_changed_shape_is_read_again_before_the_next_write(home: Path) -> None:
    path = _agent_file(home)
    db = open_db(home)
    try:
        assert db.watch is not None and db.shape is not None and db.shape.writable
        conn = sqlite3.connect(path)
        conn.execute("CREATE TRIGGER stranger AFTER INSERT ON sessions BEGIN SELECT 1; END")
        conn.commit()
        conn.close()
        refused = None
        try:
            db.write_sync(lambda tx: tx.conn.execute("SELECT 1"))
        except Exception as exc:  # the refusal, raised to the caller
            refused = exc
        assert refused is not None and "trigger stranger" in str(refused)
        assert db.read_only
    finally:
        db.close()


@given(st.sampled_from(sorted(agent_objects.known_objects())), st.integers(0, 2**32 - 1))
def test_normalize_ignores_case_and_white_space(key: tuple[str, str], seed: int) -> None:
    _, normalized = key
    # Rebuild a statement with arbitrary white space and case from a known one's text.
    words = [w for w in normalized.replace("(", " ( ").replace(")", " ) ").split() if w]
    pieces = []
    for i, word in enumerate(words):
        flip = (seed >> (i % 32)) & 1
        pieces.append((word.upper() if flip else word) + ("\n  " if (seed >> ((i + 7) % 32)) & 1 else " "))
    assert agent_objects.normalize("".join(pieces)) == normalized
