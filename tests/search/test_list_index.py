"""The listing's search index answers ``GET /sessions?q=`` exactly like the substring rule it replaces.

Differential: for generated stores (ASCII of both cases, CJK, Vietnamese, LIKE wildcards, quotes, newlines,
compression lineages) and terms cut from their text with random case, every listing with ``q`` equals the
plain listing filtered by "the shown id, title or preview contains the term, ASCII letters folded" — while
everything is still dirty, once indexed, after edits the triggers catch, and once those are re-indexed.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.settings import Settings
from app.storage.commit_notice import Changes
from app.storage.dialect import dialect_of
from app.storage.repos import list_index
from app.storage.repos.list_index import ListIndex
from app.storage.repos.sessions_repo import Sessions
from app.storage.rows import ListPage, ListQuery, SessionRow
from app.storage.sqlite.driver import sqlite3
from app.storage.sqlite.store import Database
from tests.search.conftest import add_session

ALPHABET = "aAbBcCzZ 0_%\\\"'\n.-/(#ꀀꀁ中文日本語ひらがなカタカナTiếngViệtđĐươ"
text = st.text(alphabet=ALPHABET, min_size=0, max_size=80)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty state.db at our migration head (copied per example: migrating is the slow part)."""
    home = tmp_path_factory.mktemp("template")
    Database(Settings(home=home, api_token="t")).open().close()
    return home / "state.db"


@pytest.fixture
def store(template: Path, tmp_path: Path) -> Iterator[sqlite3.Connection]:
    """A fresh copy of the template, autocommit."""
    path = tmp_path / "state.db"
    shutil.copyfile(template, path)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.row_factory = sqlite3.Row
    try:
        yield conn
    finally:
        conn.close()


def _fold(value: str) -> str:
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in value)


def _shown_contains(item: SessionRow, term: str) -> bool:
    preview = item["preview"]
    if preview.endswith("...") and len(preview) > 60:
        preview = preview[:-3]
    return any(_fold(term) in _fold(field or "") for field in (item["id"], item["title"], preview))


def _list(conn: sqlite3.Connection, query: ListQuery) -> ListPage:
    return Sessions(conn, Changes()).list_sessions(query)


def _listing(conn: sqlite3.Connection, **kwargs: Any) -> list[str]:
    conn.execute("BEGIN")
    try:
        return [item["id"] for item in _list(conn, ListQuery(limit=500, **kwargs)).items]
    finally:
        conn.execute("ROLLBACK")


def _expected(conn: sqlite3.Connection, term: str, **kwargs: Any) -> list[str]:
    conn.execute("BEGIN")
    try:
        items = _list(conn, ListQuery(limit=500, **kwargs)).items
    finally:
        conn.execute("ROLLBACK")
    return [item["id"] for item in items if _shown_contains(item, term)]


def _index_all(conn: sqlite3.Connection) -> None:
    conn.execute("BEGIN IMMEDIATE")
    while ListIndex(conn, Changes()).index_dirty() is not None:
        pass
    conn.execute("COMMIT")


def _indexed(conn: sqlite3.Connection, term: str) -> bool:
    return list_index.search_filter(conn, term, projecting=True).indexed


def _check(conn: sqlite3.Connection, terms: list[str]) -> None:
    for term in terms:
        for kwargs in ({}, {"include_children": True}, {"order": "last_active"}):
            assert _listing(conn, search=term, **kwargs) == _expected(conn, term, **kwargs), (term, kwargs)


session_rows = st.lists(
    st.tuples(st.text(alphabet="abcXYZ-中1", min_size=1, max_size=12), st.one_of(st.none(), text), text),
    min_size=1,
    max_size=12,
    unique_by=lambda row: row[0],
)


def _cut(draw: st.DrawFn, rows: list[tuple[str, str | None, str]]) -> str:
    """A substring (of 1 to 8 characters) of some field, with ASCII case randomly flipped."""
    sources = [s for row in rows for s in (row[0], row[1] or "", row[2]) if s]
    source = draw(st.sampled_from(sources))
    start = draw(st.integers(0, len(source) - 1))
    piece = source[start : start + draw(st.integers(1, 8))]
    return "".join(c.swapcase() if c.isascii() and draw(st.booleans()) else c for c in piece)


@st.composite
def stores(draw: st.DrawFn) -> tuple[list[tuple[str, str | None, str]], list[str], list[bool]]:
    rows = draw(session_rows)
    terms = [_cut(draw, rows) for _ in range(6)] + draw(st.lists(text.filter(bool), max_size=3))
    compressed = [draw(st.booleans()) for _ in rows]
    return rows, terms, compressed


def _insert(
    conn: sqlite3.Connection, rows: list[tuple[str, str | None, str]], compressed: list[bool]
) -> None:
    d = dialect_of(conn)
    titles: set[str] = set()
    previous: str | None = None
    for index, ((sid, title, first), ended) in enumerate(zip(rows, compressed, strict=True)):
        if title is not None and title in titles:
            title = None
        if title is not None:
            titles.add(title)
        # A compression-ended predecessor makes this session its continuation (shown through its root).
        parent = previous if index and compressed[index - 1] else None
        conn.execute(
            "INSERT INTO sessions (id, source, started_at, title, parent_session_id, end_reason, ended_at) "
            f"VALUES ({d.p}, 'cli', {d.p}, {d.p}, {d.p}, {d.p}, {d.p})",
            (sid, 1000.0 + index, title, parent, "compression" if ended else None, 2000.0 if ended else None),
        )
        conn.execute(
            f"INSERT INTO messages (session_id, role, content, timestamp) VALUES ({d.p}, 'assistant',"
            f" 'zebra', {d.p})",
            (sid, 1000.0 + index),
        )
        conn.execute(
            f"INSERT INTO messages (session_id, role, content, timestamp) VALUES ({d.p}, 'user', {d.p},"
            f" {d.p})",
            (sid, first, 1000.5 + index),
        )
        previous = sid


def _edit(conn: sqlite3.Connection, rows: list[tuple[str, str | None, str]], terms: list[str]) -> None:
    """Edits a listing's search must follow: a retitle, an earlier user message, a rewind, a deletion."""
    d = dialect_of(conn)
    first = rows[0][0]
    conn.execute(f"UPDATE sessions SET title = {d.p} WHERE id = {d.p}", (terms[0] + " retitled", first))
    conn.execute(
        f"INSERT INTO messages (session_id, role, content, timestamp) VALUES ({d.p}, 'user', {d.p}, 1.0)",
        (rows[-1][0], terms[1]),
    )
    conn.execute(f"UPDATE messages SET active = 0 WHERE session_id = {d.p} AND role = 'user'", (first,))
    if len(rows) > 2:
        conn.execute(f"DELETE FROM messages WHERE session_id = {d.p}", (rows[1][0],))
        conn.execute(
            f"UPDATE sessions SET parent_session_id = NULL WHERE parent_session_id = {d.p}", (rows[1][0],)
        )
        conn.execute(f"DELETE FROM sessions WHERE id = {d.p}", (rows[1][0],))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=stores())
def test_index_answers_equal_the_substring_rule(
    template: Path, tmp_path_factory: pytest.TempPathFactory, data: Any
) -> None:
    rows, terms, compressed = data
    path = tmp_path_factory.mktemp("store") / "state.db"
    shutil.copyfile(template, path)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.row_factory = sqlite3.Row
    try:
        _insert(conn, rows, compressed)
        _check(conn, terms)  # nothing indexed yet: every session is a dirty candidate
        _index_all(conn)
        assert list_index.dirty_count(conn) == 0
        assert all(_indexed(conn, t) for t in terms if len(t) >= list_index.MIN_TERM)
        _check(conn, terms)
        _edit(conn, rows, terms)
        _check(conn, terms)
        _index_all(conn)
        _check(conn, terms)
    finally:
        conn.close()


def test_a_later_user_message_marks_nothing(store: sqlite3.Connection) -> None:
    _insert(store, [("s1", "Title", "first words")], [False])
    _index_all(store)
    store.execute(
        "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('s1', 'user', 'x', 5000)"
    )
    store.execute("INSERT INTO messages (session_id, role, content, timestamp) VALUES ('s1', 'tool', 'x', 1)")
    assert list_index.dirty_count(store) == 0
    store.execute("INSERT INTO messages (session_id, role, content, timestamp) VALUES ('s1', 'user', 'y', 1)")
    assert list_index.dirty_count(store) == 1


def test_short_and_broad_terms_keep_the_scan(store: sqlite3.Connection) -> None:
    _insert(
        store,
        [(f"s{i}", None, "common words") for i in range(list_index.MAX_CANDIDATES + 1)],
        [False] * (list_index.MAX_CANDIDATES + 1),
    )
    assert not _indexed(store, "common")  # every session is dirty: the index cannot narrow yet
    _index_all(store)
    assert not _indexed(store, "co")
    assert not _indexed(store, "common")  # matches too many sessions
    assert _indexed(store, "s1000")
    assert _listing(store, search="s1000") == ["s1000"]


def test_a_file_without_the_index_is_scanned(store: sqlite3.Connection) -> None:
    _insert(store, [("s1", "Budget review", "hello")], [False])
    store.execute("DROP TABLE hs_list_search")
    assert not _indexed(store, "budget")
    assert _listing(store, search="budget") == ["s1"]


@pytest.mark.usefixtures("sqlite_only")
def test_writes_by_the_agent_are_found(client: TestClient, agent: Any) -> None:
    add_session(agent, "agent-1", [("user", "remind me to water the plants at 7pm")])
    agent.set_session_title("agent-1", "Garden chores")
    db = client.app.state.db  # type: ignore[attr-defined]
    assert db.read_sync(lambda tx: list_index.dirty_count(tx.conn)) == 1
    found = client.get("/sessions", params={"q": "plants"}).json()["items"]
    assert [item["id"] for item in found] == ["agent-1"]
    db.write_sync(lambda tx: tx.indexing.index_dirty())
    assert db.read_sync(lambda tx: list_index.dirty_count(tx.conn)) == 0
    assert db.read_sync(lambda tx: list_index.search_filter(tx.conn, "garden", True).indexed)
    for q in ("plants", "GARDEN", "agent-1"):
        assert [i["id"] for i in client.get("/sessions", params={"q": q}).json()["items"]] == ["agent-1"]
    agent.set_session_title("agent-1", "Watering")
    assert client.get("/sessions", params={"q": "garden"}).json()["items"] == []
    agent.delete_session("agent-1")
    assert client.get("/sessions", params={"q": "plants"}).json()["items"] == []


def test_the_indexer_builds_the_index_of_an_adopted_file(tmp_path: Path) -> None:
    from hermes_state import SessionDB

    home = tmp_path / "home"
    home.mkdir()
    agent = SessionDB(db_path=home / "state.db")
    for index in range(3):
        add_session(agent, f"old-{index}", [("user", f"pre-existing conversation {index}")])
    agent.close()
    from app.main import create_app
    from tests.conftest import TOKEN

    settings_ = Settings(home=home, api_token=TOKEN, titles_auto=False)
    with TestClient(create_app(settings_), headers={"Authorization": f"Bearer {TOKEN}"}) as client:
        db = client.app.state.db  # type: ignore[attr-defined]
        indexer = client.app.state.fts_indexer  # type: ignore[attr-defined]
        client.portal.call(indexer.drain)  # type: ignore[union-attr]
        assert db.read_sync(lambda tx: list_index.dirty_count(tx.conn)) == 0
        assert db.read_sync(lambda tx: list_index.search_filter(tx.conn, "conversation 1", True).indexed)
        found = client.get("/sessions", params={"q": "conversation 1"}).json()["items"]
        assert [item["id"] for item in found] == ["old-1"]


def test_lost_triggers_are_restored_and_everything_requeued(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    db = Database(Settings(home=home, api_token="t")).open()
    db.write_sync(lambda tx: tx.indexing.index_dirty())
    db.close()
    conn = sqlite3.connect(home / "state.db", isolation_level=None)
    conn.execute("INSERT INTO sessions (id, source, started_at) VALUES ('kept', 'cli', 1)")
    conn.execute("DELETE FROM hs_list_search_dirty")
    conn.execute("DROP TRIGGER hs_list_search_session_title")
    conn.close()
    db = Database(Settings(home=home, api_token="t")).open()
    try:
        assert not db.read_sync(lambda tx: list_index.triggers_missing(tx.conn))
        assert db.read_sync(lambda tx: list_index.dirty_count(tx.conn)) == 1
    finally:
        db.close()


@given(st.text())
def test_ascii_lower_folds_only_ascii_letters(text: str) -> None:
    # SQLite's LIKE folds A-Z and nothing else; the listing's exact check must fold exactly that.
    expected = "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in text)
    assert list_index.ascii_lower(text) == expected
