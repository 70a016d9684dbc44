"""The listing's search index: which sessions may show a term in their id, title or preview.

``GET /sessions?q=`` must present exactly the rows whose *shown* id, title or preview contains the term
(ASCII letters folded, see ``session_list._search_ok``). The scan that checks every row in list order is
cheap when matches are dense (the page fills after a few rows) and reads the whole table when they are
rare. For a term of :data:`MIN_TERM` characters or more the index answers instead, with a superset of the
matching sessions, whenever that superset is small (at most :data:`MAX_CANDIDATES`):

- the sessions whose document (``hs_list_search``, trigram-tokenised, so any substring of three or more
  characters is found; its Unicode case folding only adds candidates) contains the term;
- every session still marked dirty (``hs_list_search_dirty``: changed since its document was written,
  by us or by the agent, see ``own_schema.LIST_SEARCH_INDEX_SQL``), whatever its text;
- when compression lineages are folded, the compression ancestors of those, since a root is shown with its
  tip's id, title and preview.

The listing then walks only the rows starting at those sessions' ``started_at`` values, in its usual order,
and checks each presented row exactly as the scan does, so both give the same pages.

Terms shorter than :data:`MIN_TERM` keep the scan: a trigram index cannot look up fewer than three
characters, and one or two characters (``a``, ``20``) match most sessions, so the page fills early anyway.
The scan is also kept while the index cannot narrow the listing: many matches (dense, so the scan stops
early), a large dirty backlog (a file just adopted, until the indexer has built it), or a file without
the index (served read-only before we ever migrated it).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.domain.fts_query import quote_phrase
from app.domain.titles import like_escape
from app.storage.dialect import SQLITE, Dialect, dialect_of
from app.storage.own_schema import LIST_SEARCH_TRIGGERS, list_search_sql
from app.storage.repos.repository import Repository
from app.storage.repos.sessions import preview_raw_sql
from app.storage.sqlite.connection import split_statements
from app.storage.sqlite.driver import sqlite3

MIN_TERM = 3
MAX_CANDIDATES = 1000
SLICE_SESSIONS = 500

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")

_MATCH_SQL = (
    "SELECT d.session_id FROM hs_list_search f JOIN hs_list_search_docs d ON d.doc = f.rowid"
    " WHERE hs_list_search MATCH ? LIMIT ?"
)
_BROAD_SQL = (
    "SELECT EXISTS (SELECT 1 FROM hs_list_search WHERE hs_list_search MATCH ?"
    " ORDER BY rowid LIMIT 1 OFFSET ?)"
)
_CANDIDATES_SQL = "SELECT value FROM json_each(?)"
# The sessions of ``candidates`` (a one-column SELECT) and their compression ancestors, through
# compression-ended parents (the edge the tip walk follows down); UNION makes a cyclic chain terminate.
WITH_ANCESTORS_SQL = """
    WITH RECURSIVE hit(id) AS (
        {candidates}
        UNION
        SELECT p.id FROM hit JOIN sessions c ON c.id = hit.id
        JOIN sessions p ON p.id = c.parent_session_id AND p.end_reason = 'compression'
    )
    SELECT id FROM hit"""


def ascii_lower(text: str) -> str:
    """``text`` with only ASCII letters lowered: the case folding of SQLite's ``LIKE``."""
    # ``lower`` is the same fold on ASCII text and much cheaper than ``translate``; listings fold every row.
    return text.lower() if text.isascii() else text.translate(_ASCII_LOWER)


@dataclass(frozen=True)
class SearchFilter:
    """A WHERE clause (on alias ``s``) admitting a superset of the sessions that may match the term.

    ``settle``, when set, gives the filter to use instead if the clause admits no row at all: a clause
    that decides for itself whether its narrowing applies (PostgreSQL's candidates, found in the listing's
    own statement) admits nothing when it does not, which the listing cannot tell from no match."""

    clause: str
    params: list[Any] = field(default_factory=list)
    indexed: bool = False
    settle: Callable[[], SearchFilter] | None = None


def scan_filter(d: Dialect, term: str, projecting: bool, *, bind: str | None = None) -> SearchFilter:
    """The row-by-row filter: a ``LIKE`` on id, title and the SQL-cut preview.

    ``LIKE`` folds ASCII case only, as the presented check does. The preview is cut in SQL to 63 characters
    before stripping, a superset of the displayed one. A compression root is shown as its tip, whose text
    only the walk finds, so with projection it always passes here. ``bind`` is the SQL the pattern is bound
    through (one placeholder; the dialect's by default).
    """
    pattern = f"%{like_escape(ascii_lower(term))}%"
    like, bind = d.casefold_like, bind or d.p
    match = " OR ".join(
        f"{expr} {like} {bind} ESCAPE '\\'" for expr in ("s.id", "s.title", preview_raw_sql(d).format(a="s"))
    )
    clause = f"({match} OR s.end_reason = 'compression')" if projecting else f"({match})"
    return SearchFilter(clause, [pattern] * 3)


def spaced_trigrams(term: str) -> list[str]:
    """The three-character pieces of ``term`` at every third position (and the last one): every text
    containing ``term`` contains them all, and looking up only these keeps an index from reading the long
    posting lists of the common pieces in between (``202`` in every id)."""
    starts = sorted({*range(0, len(term) - 2, 3), len(term) - 3})
    return [term[i : i + 3] for i in starts]


def trigram_query(term: str) -> str:
    """An FTS5 query every document containing ``term`` matches: its :func:`spaced_trigrams`, each a quoted
    phrase, joined by AND.

    A superset of the phrase query (the positions are not checked), and much cheaper: a phrase reads the
    positions of every one of its trigrams. Candidates are checked exactly afterwards.
    """
    return " AND ".join(quote_phrase(piece) for piece in spaced_trigrams(term))


def _candidates(conn: sqlite3.Connection, term: str) -> set[str] | None:
    """The sessions that may match ``term``, or ``None`` when more than :data:`MAX_CANDIDATES` may."""
    d = dialect_of(conn)
    query = trigram_query(term)
    try:
        # Counting first, without the join: a broad term stops here, having read only rowids.
        (broad,) = conn.execute(_BROAD_SQL, (query, MAX_CANDIDATES)).fetchone()
        if broad:
            return None
        matched = conn.execute(_MATCH_SQL, (query, MAX_CANDIDATES + 1)).fetchall()
        dirty = conn.execute(
            f"SELECT session_id FROM hs_list_search_dirty LIMIT {d.p}", (MAX_CANDIDATES + 1,)
        ).fetchall()
    except sqlite3.OperationalError as exc:
        if "no such table" not in str(exc):
            raise
        return None
    found = {r[0] for r in matched} | {r[0] for r in dirty}
    return None if len(found) > MAX_CANDIDATES else found


def search_filter(conn: sqlite3.Connection, term: str, projecting: bool) -> SearchFilter:
    """The cheapest filter for ``term`` on this file: the index when it narrows the listing, else the scan."""
    found = _candidates(conn, term) if len(term) >= MIN_TERM else None
    if found is None:
        return scan_filter(SQLITE, term, projecting)
    # Walking the listing index at the candidates' start times keeps its order (no sort) and its keyset;
    # rows sharing a start time with a candidate are dropped by the exact check afterwards.
    sessions = WITH_ANCESTORS_SQL.format(candidates=_CANDIDATES_SQL) if projecting else _CANDIDATES_SQL
    clause = f"s.started_at IN (SELECT c.started_at FROM sessions c WHERE c.id IN ({sessions}))"
    return SearchFilter(clause, [json.dumps(sorted(found))], indexed=True)


def dirty_count(conn: sqlite3.Connection) -> int:
    """How many sessions await (re-)indexing."""
    (count,) = conn.execute("SELECT COUNT(*) FROM hs_list_search_dirty").fetchone()
    return int(count)


_CURRENT_SQL = f"""
    SELECT COALESCE(s.title, ''), {preview_raw_sql(SQLITE).format(a="s")},
        (SELECT m.timestamp FROM messages m WHERE m.session_id = s.id AND m.active = 1 AND m.role = 'user'
         AND m.content IS NOT NULL ORDER BY m.timestamp, m.id LIMIT 1)
    FROM sessions s WHERE s.id = ?"""


def _unindex(conn: sqlite3.Connection, doc: int, session_id: str, title: str, preview: str) -> None:
    d = dialect_of(conn)
    conn.execute(
        "INSERT INTO hs_list_search (hs_list_search, rowid, session_id, title, preview) "
        f"VALUES ('delete', {d.p}, {d.p}, {d.p}, {d.p})",
        (doc, session_id, title, preview),
    )


def _reindex(conn: sqlite3.Connection, session_id: str) -> None:
    d = dialect_of(conn)
    current = conn.execute(_CURRENT_SQL, (session_id,)).fetchone()
    stored = conn.execute(
        f"SELECT doc, title, preview FROM hs_list_search_docs WHERE session_id = {d.p}", (session_id,)
    ).fetchone()
    if stored is not None:
        doc, title, preview = stored
        if current is not None and (current[0], current[1]) == (title, preview):
            conn.execute(
                f"UPDATE hs_list_search_docs SET first_ts = {d.p} WHERE doc = {d.p}", (current[2], doc)
            )
            return
        _unindex(conn, doc, session_id, title, preview)
        conn.execute(f"DELETE FROM hs_list_search_docs WHERE doc = {d.p}", (doc,))
    if current is None:
        return
    doc = conn.execute(
        f"INSERT INTO hs_list_search_docs (session_id, title, preview, first_ts) VALUES ({d.p}, {d.p}, {d.p},"
        f" {d.p})",
        (session_id, *current),
    ).lastrowid
    conn.execute(
        f"INSERT INTO hs_list_search (rowid, session_id, title, preview) VALUES ({d.p}, {d.p}, {d.p}, {d.p})",
        (doc, session_id, current[0], current[1]),
    )


def install(conn: sqlite3.Connection) -> None:
    """Create the index, its dirty set and its triggers, and queue every session (idempotent)."""
    for sql in list_search_sql():
        for stmt in split_statements(sql):
            conn.execute(stmt)
    conn.execute("INSERT OR IGNORE INTO hs_list_search_dirty (session_id) SELECT id FROM sessions")


def triggers_missing(conn: sqlite3.Connection) -> bool:
    """Whether any of our triggers is gone (the agent rebuilt ``sessions`` or ``messages``, say)."""
    d = dialect_of(conn)
    marks = ",".join([d.p] * len(LIST_SEARCH_TRIGGERS))
    (found,) = conn.execute(
        f"SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger' AND name IN ({marks})",
        LIST_SEARCH_TRIGGERS,
    ).fetchone()
    return int(found) < len(LIST_SEARCH_TRIGGERS)


class ListIndex(Repository):
    """The listing's search documents: the sessions waiting to be (re-)indexed and their indexing."""

    __slots__ = ()

    def has_dirty(self) -> bool:
        """Whether any session awaits (re-)indexing."""
        return self.conn.execute("SELECT 1 FROM hs_list_search_dirty LIMIT 1").fetchone() is not None

    def index_dirty(self, max_sessions: int = SLICE_SESSIONS) -> int | None:
        """Re-derive the documents of up to ``max_sessions`` dirty sessions in the caller's transaction.

        Returns how many left the dirty set, ``None`` when it was empty.
        """
        dirty = [
            r[0]
            for r in self.conn.execute(
                f"SELECT session_id FROM hs_list_search_dirty LIMIT {self.d.p}", (max_sessions,)
            )
        ]
        if not dirty:
            return None
        for session_id in dirty:
            _reindex(self.conn, session_id)
        self.conn.executemany(
            f"DELETE FROM hs_list_search_dirty WHERE session_id = {self.d.p}", [(sid,) for sid in dirty]
        )
        return len(dirty)
