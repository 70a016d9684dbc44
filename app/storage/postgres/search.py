"""Search on PostgreSQL: our query language compiled to ``tsquery`` and ``pg_trgm`` conditions.

The same user text means the same thing as on SQLite (:mod:`app.domain.fts_query` plans it):

* words (English, German, French, Vietnamese, code, one- and two-letter words): the sanitised query is
  parsed as FTS5 parses it (:mod:`app.domain.query_tree`; a query FTS5 rejects falls back to every term as
  a literal phrase, as on SQLite) and rendered as a ``tsquery`` over ``messages.search_vector``: implicit and
  explicit ``AND`` become ``&``, ``OR`` ``|``, ``a NOT b`` ``a & !b``, a phrase ``<->`` and a prefix ``:*``.
* substrings (CJK, symbols): every term an ``ILIKE`` on the indexed document (case folded, as FTS5's trigram
  tokenizer folds). When each ``OR`` group holds a term of three characters or more, the ``pg_trgm`` index
  answers; otherwise (one- and two-character terms only) a bounded scan over id ranges, newest first, as
  on SQLite (:func:`app.storage.repos.search.scan_windows`, ``scan_capped`` when the cap is reached).

Order: ``relevance`` ranks word matches with ``ts_rank`` within tiers of the newest
:attr:`HitBudget.rank_tier` matches (SQLite ranks by bm25 in the same tiers, so the order of equally
matching sessions may differ); substring matches have no rank on either side worth keeping and come
newest first. ``newest``/``oldest`` walk ids. Snippets are computed only for the hits returned:
``ts_headline`` for words, the literal cut of :func:`app.domain.fts_query.message_snippet` for substrings.
"""

from __future__ import annotations

import contextlib
import functools
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, cast

import psycopg
from psycopg.rows import dict_row

from app.domain.fts_query import Clause, Engine, message_snippet, plan, word_snippet
from app.domain.query_tree import AllOf, AnyOf, Node, Phrase, parse, wanted_words
from app.domain.titles import like_escape
from app.storage.postgres.dialect import POSTGRES
from app.storage.postgres.list_stats import list_stats
from app.storage.postgres.search_schema import (
    CJK_ROWS,
    LIST_INDEXED_ROWS,
    LIST_PREVIEW_ROWS,
    LIST_PREVIEW_TEXT,
    LIST_SESSION_TEXT,
    LIST_TEXT,
    MAX_WORD_CHARS,
    PENDING,
    READY,
    TS_CONFIG,
    has_cjk,
)
from app.storage.postgres.search_tricks import TRICKS
from app.storage.repos.fts_backlog import PENDING_SQL
from app.storage.repos.list_index import (
    MAX_CANDIDATES,
    MIN_TERM,
    WITH_ANCESTORS_SQL,
    SearchFilter,
    scan_filter,
)
from app.storage.repos.search import cron_clauses, place_clauses, scan_windows
from app.storage.rows import Hit, HitBudget, HitContext, HitDetails, HitFilter, SessionMetaRow

Conn = psycopg.Connection[Any]

_NO_ID_LIMIT = 2**63 - 1
_TRIGRAM_MIN = 3
_DOC = "hs_search_doc(m.content, m.tool_name, m.tool_calls)"
_TSQUERY = f"to_tsquery('{TS_CONFIG}', %s)"
# Rewound rows (taken back by the user) are never found; compaction-archived rows are (agent's rule).
_VISIBLE = "(m.active = 1 OR m.compacted = 1)"
_SUMMARY_PREFIXES = ("[CONTEXT COMPACTION", "[CONTEXT SUMMARY]:")
_HIT_COLUMNS = "m.id, m.session_id, m.role, s.source, m.compacted, s.parent_session_id"
# What a relevance tier reads of each row it walks.
_TIER_COLUMNS = "m.id, m.session_id, m.role, m.active, m.compacted, m.search_vector"
# A hit's session in a scan step or an id-ordered chunk. Under a filter keeping most sessions (the default
# one only hides a few sources), looked up by primary key for each matching row: joined as a table, the
# planner (which cannot tell how few rows a substring or a chunk keeps) hashed the whole sessions table
# into every step, which cost more than the step's own scan. Under one choosing sessions (a home, sources,
# cron only), joined: the planner hashes the few sessions chosen, where a lookup for every match would
# read them all.
_SESSION_OF_HIT = (
    "JOIN LATERAL (SELECT s.id, s.source, s.parent_session_id FROM sessions s WHERE s.id = m.session_id"
    " LIMIT 1) s ON true"
)
_SESSIONS_OF_HITS = "JOIN sessions s ON s.id = m.session_id"
# The first batch of a tier's rows whose sessions are looked up: a discover page usually takes a few.
_FIRST_FILTER_BATCH = 16
_METAS_SQL = "SELECT id, title, source, model, started_at, parent_session_id FROM sessions WHERE id = ANY(%s)"
_MESSAGE_COLUMNS = "id, role, content, timestamp, tool_name, tool_calls, tool_call_id"
# Hit queries are planned for each term: a rare and a common term want different plans (the GIN index
# against a walk of the primary key), and a prepared statement's generic plan would serve both with one.
_PLAN_PER_TERM = False
# A listing term longer than this is asked of the trigram indexes as its head and its tail of this many
# characters, not whole: each of its trigrams is one more posting list to read.
_PATTERN_CHARS = 24
# Rows a term's candidate statement is estimated to find beyond which it is not run. Candidate statements
# are prepared (their planning cost more than their execution): the generic plan reads the indexes, the
# right plan for the terms that get this far.
_BROAD_ROWS = MAX_CANDIDATES
_HEADLINE_OPTIONS = "StartSel=>>>, StopSel=<<<, MaxWords=35, MinWords=15, ShortWord=0, MaxFragments=1"
# The listing's preview: the first active user message, newlines blanked, cut (SQLite's PREVIEW_RAW_SQL).
PREVIEW_RAW_SQL = (
    "COALESCE((SELECT hs_list_preview(m.content) FROM messages m WHERE m.session_id = {a}.id"
    " AND m.active = 1 AND m.role = 'user' AND m.content IS NOT NULL ORDER BY m.timestamp, m.id LIMIT 1), '')"
)
LAST_ACTIVE_SQL = (
    "COALESCE((SELECT MAX(m2.timestamp) FROM messages m2 WHERE m2.session_id = {a}.id), {a}.started_at)"
)


def _operand(word: str, prefix: bool) -> str:
    # Words hold letters and digits only (query_tree.words), so quoting cannot be broken out of.
    return f"'{word}'" + (":*" if prefix else "")


def tsquery_text(node: Node) -> str:
    """``node`` as ``to_tsquery`` input (the configuration's dictionaries then fold case and accents)."""
    if isinstance(node, Phrase):
        last = len(node.words) - 1
        return (
            "(" + " <-> ".join(_operand(w, node.prefix and i == last) for i, w in enumerate(node.words)) + ")"
        )
    if isinstance(node, AllOf):
        return "(" + " & ".join(tsquery_text(part) for part in node.parts) + ")"
    if isinstance(node, AnyOf):
        return "(" + " | ".join(tsquery_text(part) for part in node.parts) + ")"
    return f"({tsquery_text(node.keep)} & !{tsquery_text(node.drop)})"


def word_tree(match: str, fallback: str) -> Node | None:
    """The tree of a word query: ``match`` as FTS5 reads it, else the all-literal ``fallback`` (where FTS5
    rejects ``match``); ``None`` when nothing can match."""
    for candidate in (match, fallback):
        parsed = parse(candidate) if candidate else None
        if parsed is not None:
            return parsed.tree
    return None


def compile_words(match: str, fallback: str) -> str | None:
    """The ``tsquery`` text of a word query (see :func:`word_tree`); ``None`` when nothing can match."""
    tree = word_tree(match, fallback)
    return None if tree is None else tsquery_text(tree)


# Characters lowering can change or produce (cased letters, modifier letters, marks): a term without any
# is found in ``lower(doc)`` exactly where it is found in ``doc``.
_CASE_CATEGORIES = frozenset({"Lu", "Ll", "Lt", "Lm", "Mn", "Mc", "Me"})
# ``IS TRUE``: a NULL column (no tool name) answers NULL, which a NOT would keep NULL and drop the row.
_COLUMNS_HOLDING = (
    "(strpos(m.content, %s) > 0 OR strpos(m.tool_name, %s) > 0 OR strpos(m.tool_calls, %s) > 0) IS TRUE"
)


def _scan_test(term: str) -> tuple[str, list[str]]:
    """The unindexed substring condition of one term, cheapest first: a caseless term without a space
    (CJK, digits, symbols) is looked for in each column as it is, since it cannot span the spaces that join
    the document; any other term in the case-folded document."""
    if " " not in term and not any(unicodedata.category(c) in _CASE_CATEGORIES for c in term):
        return _COLUMNS_HOLDING, [term] * 3
    return f"strpos(lower({_DOC}), lower(%s)) > 0", [term]


def _substring_sql(clauses: Sequence[Clause], indexed: bool) -> tuple[str, list[Any]]:
    """OR of AND groups of substring conditions on the document (excluded terms negated).

    ``indexed``: ``ILIKE``, which the trigram index answers. Otherwise the same case folding with
    ``strpos`` (:func:`_scan_test`), which the planner cannot send to that index: for a pattern shorter
    than a trigram it would read the whole index, where the id-range scan reads a bounded slice of the
    table."""
    groups: list[str] = []
    params: list[Any] = []
    for clause in clauses:
        # PostgreSQL text cannot hold NUL, so a term containing one occurs nowhere.
        if any("\x00" in term for term in clause.include):
            continue
        exclude = [term for term in clause.exclude if "\x00" not in term]
        parts: list[str] = []
        for term, negated in [*((t, False) for t in clause.include), *((t, True) for t in exclude)]:
            test, values = (f"{_DOC} ILIKE %s", [f"%{like_escape(term)}%"]) if indexed else _scan_test(term)
            parts.append(f"NOT {test}" if negated else test)
            params += values
        groups.append("(" + " AND ".join(parts) + ")")
    if not groups:
        return "FALSE", []
    return "(" + " OR ".join(groups) + ")", params


def _session_sql(filt: HitFilter) -> tuple[list[str], list[Any]]:
    """The hit filter's conditions on the session (alias ``s``): sources, home, directory, workspace, cron."""
    parts: list[str] = []
    params: list[Any] = []
    if filt.sources is not None:
        parts.append("s.source = ANY(%s)")
        params.append(list(filt.sources))
    if filt.exclude_sources:
        parts.append("COALESCE(s.source, '') <> ALL(%s)")
        params.append(list(filt.exclude_sources))
    by_place, place_params = place_clauses(POSTGRES, filt)
    parts.extend(by_place)
    params.extend(place_params)
    parts.extend(cron_clauses(filt.cron))
    return parts, params


def _message_sql(filt: HitFilter) -> tuple[list[str], list[Any]]:
    """The hit filter's conditions on the message (alias ``m``): visible, and of the wanted roles."""
    if not filt.roles:
        return [_VISIBLE], []
    return [_VISIBLE, "m.role = ANY(%s)"], [list(filt.roles)]


def _filter_sql(filt: HitFilter) -> tuple[str, list[Any]]:
    """The hit filter's WHERE fragment (starting with AND) on aliases ``m`` and ``s``."""
    by_message, message_params = _message_sql(filt)
    by_session, session_params = _session_sql(filt)
    return " AND " + " AND ".join([*by_message, *by_session]), [*message_params, *session_params]


def _sessions_join(filt: HitFilter) -> str:
    """How a scan step or an id-ordered chunk reaches its hits' sessions (see :data:`_SESSION_OF_HIT`)."""
    choosing = (
        filt.home is not None
        or filt.cwd is not None
        or filt.workspace is not None
        or filt.sources is not None
        or filt.cron is True
    )
    return _SESSIONS_OF_HITS if choosing or not TRICKS.session_lookup else _SESSION_OF_HIT


def _hits(rows: Sequence[Sequence[Any]]) -> list[Hit]:
    return [Hit(int(r[0]), str(r[1]), str(r[2]), r[3], bool(r[4]), r[5] or None) for r in rows]


class PgHits:
    """The hits of one query on PostgreSQL, produced lazily in bounded chunks (see the module docstring)."""

    def __init__(self, conn: Conn, query: str, order: str, budget: HitBudget) -> None:
        self.conn = conn
        self.order = order
        self.budget = budget
        self.plan = plan(query)
        self.scan_capped = False
        self.tsquery: str | None = None
        self.words: list[tuple[str, bool]] = []
        self.condition = "FALSE"
        self.params: list[Any] = []
        self.indexed = True
        if self.plan.engine is Engine.fts:
            tree = word_tree(self.plan.match, self.plan.fallback)
            if tree is not None:
                self.tsquery, self.words = tsquery_text(tree), wanted_words(tree)
                self.condition, self.params = f"m.{READY} AND m.search_vector @@ {_TSQUERY}", [self.tsquery]
        elif self.plan.engine in (Engine.trigram, Engine.scan):
            # A trigram index finds a group only through one of its terms of three characters or more.
            self.indexed = all(
                any(len(term) >= _TRIGRAM_MIN for term in clause.include) for clause in self.plan.clauses
            )
            self.condition, self.params = _substring_sql(self.plan.clauses, self.indexed)
            if self.indexed and self.condition != "FALSE":
                # The trigram index holds only indexed rows (its predicate must be implied to be used).
                self.condition = f"m.{READY} AND {self.condition}"
            elif (
                TRICKS.cjk_rows
                and self.condition != "FALSE"
                and all(any(has_cjk(term) for term in clause.include) for clause in self.plan.clauses)
            ):
                # Every group needs a CJK character: the scan reads only the rows holding one.
                self.condition = f"{CJK_ROWS} AND {self.condition}"

    @property
    def empty(self) -> bool:
        """Whether nothing can match (an empty query, or words that all fold away)."""
        return self.condition == "FALSE"

    def hits(self, filt: HitFilter) -> Iterator[Hit]:
        """Hits passing ``filt`` in the request's order."""
        if self.empty:
            return iter(())
        if not self.indexed:
            return self._scan(filt)
        if self.order == "relevance" and self.tsquery is not None:
            return self._ranked(filt)
        return self._ordered(filt)

    def details(self, hits: Sequence[Hit], session_ids: Sequence[str], window: int, count: int) -> HitDetails:
        """The sessions' fields, each hit's context (:meth:`PgSearch.contexts`) and its snippet
        (``ts_headline`` around the words, or the literal cut around the first substring term), and the
        indexer's backlog, every statement sent in one pipeline: one round trip in all."""
        ids = [hit.id for hit in hits]
        with contextlib.ExitStack() as cursors:
            with self.conn.pipeline():
                metas = cursors.enter_context(self.conn.cursor(row_factory=dict_row))
                metas.execute(_METAS_SQL, (session_ids,))
                contexts = send_contexts(
                    self.conn, cursors, [(h.session_id, h.id) for h in hits], window, count
                )
                texts = cursors.enter_context(self.conn.cursor())
                if self.tsquery is not None:
                    texts.execute(
                        f"SELECT m.id, ts_headline('{TS_CONFIG}', left({_DOC}, {MAX_WORD_CHARS}), {_TSQUERY},"
                        f" %s), {_DOC} FROM messages m WHERE m.id = ANY(%s)",
                        (self.tsquery, _HEADLINE_OPTIONS, ids),
                    )
                else:
                    texts.execute(
                        "SELECT id, content, tool_name, tool_calls FROM messages WHERE id = ANY(%s)",
                        (ids,),
                    )
                pending = cursors.enter_context(self.conn.cursor())
                pending.execute(PENDING_SQL)
            return HitDetails(
                {str(row["id"]): cast(SessionMetaRow, row) for row in metas.fetchall()},
                [_context(cur.fetchall()) for cur in contexts],
                self._snippets(ids, texts.fetchall()),
                int(cast(tuple[int], pending.fetchone())[0]),
            )

    def _snippets(self, ids: list[int], rows: list[tuple[Any, ...]]) -> list[str]:
        if self.tsquery is not None:
            headlines = {int(r[0]): (str(r[1] or "").strip(), str(r[2] or "")) for r in rows}
            return [self._word_snippet(*headlines[i]) if i in headlines else "" for i in ids]
        texts = {int(r[0]): (_text(r[1]), _text(r[2]), _text(r[3])) for r in rows}
        return [message_snippet(*texts.get(i, ("", "", "")), self.plan.terms) for i in ids]

    def _word_snippet(self, headline: str, document: str) -> str:
        # The index cut the document as unicode61 does, but ts_headline's parser keeps a host name, path or
        # e-mail (docker.io) whole, so a word found inside one goes unmarked: mark it as the index saw it.
        if ">>>" in headline:
            return headline
        return word_snippet(document, self.words) or headline

    def _ranked(self, filt: HitFilter) -> Iterator[Hit]:
        """Tiers of the newest matches, each found, ranked and ordered in one query; sessions looked up in
        growing batches as the caller consumes the rows (a discover page takes a few of a thousand).

        The rank and the message filter are computed on the rows the tier query has already read (reading
        them again by id cost more than finding them); only the rows passing it are ranked and returned,
        after one row carrying the tier's size and lowest id, so the next tier starts below it. The
        session filter waits for the rows consumed: looked up with the tier, a session per row cost more
        than the rest of the tier."""
        by_message, message_params = _message_sql(filt)
        by_session, session_params = _session_sql(filt)
        sessions_sql = (
            "SELECT s.id, s.source, s.parent_session_id FROM sessions s WHERE s.id = ANY(%s)"
            + "".join(f" AND {part}" for part in by_session)
        )
        below = _NO_ID_LIMIT
        tier = self.budget.rank_tier
        batch = self.budget.filter_batch
        while True:
            # The first row is the tier's size and lowest id (as text: the column holds session ids after).
            cursor = self.conn.execute(
                "WITH t AS MATERIALIZED (SELECT m.id, m.session_id, m.role, m.compacted,"
                f" CASE WHEN {' AND '.join(by_message)} THEN ts_rank(m.search_vector, {_TSQUERY}) END AS rank"
                f" FROM (SELECT {_TIER_COLUMNS} FROM messages m WHERE {self.condition} AND m.id < %s"
                " ORDER BY m.id DESC LIMIT %s) m)"
                " SELECT count(*), min(id)::text, NULL, NULL FROM t"
                " UNION ALL (SELECT id, session_id, role, compacted FROM t WHERE rank IS NOT NULL"
                " ORDER BY rank DESC, id DESC)",
                (*message_params, self.tsquery, *self.params, below, tier),
                prepare=_PLAN_PER_TERM,
            )
            tier_rows, floor, _, _ = cast(tuple[int, str | None, None, None], cursor.fetchone())
            size = min(batch, _FIRST_FILTER_BATCH)
            while rows := cursor.fetchmany(size):
                yield from self._in_sessions(rows, sessions_sql, session_params)
                size = min(batch, size * 4)
            if tier_rows < tier or floor is None:
                return
            below = int(floor)

    def _in_sessions(
        self, rows: Sequence[Sequence[Any]], sessions_sql: str, params: Sequence[Any]
    ) -> Iterator[Hit]:
        """The hits among ``rows`` (id, session id, role, compacted) whose session passes, in order."""
        found = self.conn.execute(sessions_sql, (list({str(r[1]) for r in rows}), *params)).fetchall()
        sessions = {str(sid): (source, parent) for sid, source, parent in found}
        for message_id, session_id, role, compacted in rows:
            session = sessions.get(session_id)
            if session is not None:
                yield Hit(int(message_id), session_id, role, session[0], bool(compacted), session[1] or None)

    def _ordered(self, filt: HitFilter) -> Iterator[Hit]:
        newest = self.order != "oldest"
        op, direction = ("<", "DESC") if newest else (">", "ASC")
        after = _NO_ID_LIMIT if newest else -1
        size = self.budget.ordered_chunk
        filter_sql, filter_params = _filter_sql(filt)
        sessions = _sessions_join(filt)
        while True:
            rows = self.conn.execute(
                f"SELECT {_HIT_COLUMNS} FROM messages m {sessions}"
                f" WHERE {self.condition} AND m.id {op} %s{filter_sql} ORDER BY m.id {direction} LIMIT %s",
                (*self.params, after, *filter_params, size),
                prepare=_PLAN_PER_TERM,
            ).fetchall()
            yield from _hits(rows)
            if len(rows) < size:
                return
            after = int(rows[-1][0])

    def _scan(self, filt: HitFilter) -> Iterator[Hit]:
        low, high = id_bounds(self.conn)
        newest = self.order != "oldest"
        direction = "DESC" if newest else "ASC"
        filter_sql, filter_params = _filter_sql(filt)
        sessions = _sessions_join(filt)
        for window in scan_windows(low, high, newest, self.budget):
            if window is None:
                self.scan_capped = True
                return
            rows = self.conn.execute(
                f"SELECT {_HIT_COLUMNS} FROM messages m {sessions}"
                f" WHERE m.id >= %s AND m.id < %s AND {self.condition}{filter_sql} ORDER BY m.id {direction}",
                (*window, *self.params, *filter_params),
                prepare=_PLAN_PER_TERM,
            ).fetchall()
            yield from _hits(rows)


def id_bounds(conn: Conn) -> tuple[int, int]:
    """Smallest and largest message id (0, 0 when there are none)."""
    row = conn.execute("SELECT MIN(id), MAX(id) FROM messages").fetchone()
    return (0, 0) if row is None else (int(row[0] or 0), int(row[1] or 0))


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _by_id(row: dict[str, Any]) -> int:
    return int(row["id"])


_SUMMARY_SQL = " AND ".join(f"left(content, {len(p)}) <> %(p{i})s" for i, p in enumerate(_SUMMARY_PREFIXES))
_BOOKEND_SQL = (
    f"SELECT '{{side}}', {_MESSAGE_COLUMNS} FROM messages m, edges WHERE session_id = %(sid)s"
    f" AND role IN ('user', 'assistant') AND length(content) > 0 AND {_VISIBLE} AND {_SUMMARY_SQL}"
)
# The window around an anchor and the bookends outside it (see PgSearch.contexts).
_CONTEXT_SQL = (
    f"WITH b AS (SELECT {_MESSAGE_COLUMNS} FROM messages m WHERE session_id = %(sid)s"
    f" AND id <= %(anchor)s AND (id = %(anchor)s OR {_VISIBLE}) ORDER BY id DESC LIMIT %(before)s),"
    f" a AS (SELECT {_MESSAGE_COLUMNS} FROM messages m WHERE session_id = %(sid)s AND id > %(anchor)s"
    f" AND {_VISIBLE} ORDER BY id ASC LIMIT %(window)s),"
    " edges AS (SELECT (SELECT min(id) FROM b) AS lo,"
    " COALESCE((SELECT max(id) FROM a), (SELECT max(id) FROM b)) AS hi)"
    " SELECT 'before' AS side, * FROM b UNION ALL SELECT 'after', * FROM a"
    f" UNION ALL ({_BOOKEND_SQL.format(side='start')} AND id < edges.lo ORDER BY id ASC LIMIT %(count)s)"
    f" UNION ALL ({_BOOKEND_SQL.format(side='end')} AND id > edges.hi ORDER BY id DESC LIMIT %(count)s)"
)


def _context(rows: list[dict[str, Any]]) -> HitContext:
    sides: dict[str, list[dict[str, Any]]] = {"before": [], "after": [], "start": [], "end": []}
    for row in rows:
        sides[row.pop("side")].append(row)
    before = sorted(sides["before"], key=_by_id)
    return HitContext(
        [*before, *sides["after"]],
        max(0, len(before) - 1),
        len(sides["after"]),
        sorted(sides["start"], key=_by_id),
        sorted(sides["end"], key=_by_id),
    )


def send_contexts(
    conn: Conn, cursors: contextlib.ExitStack, anchors: Sequence[tuple[str, int]], window: int, count: int
) -> list[psycopg.Cursor[dict[str, Any]]]:
    """Send the statement of each anchor's window and bookends, one per anchor (the bookends start and stop
    at the window's edges, which the statement computes from the window itself; with ``count`` 0 only the
    window); the caller reads each cursor, after its pipeline if it opened one."""
    fixed = {
        "before": window + 1,
        "window": window,
        "count": count,
        **{f"p{i}": p for i, p in enumerate(_SUMMARY_PREFIXES)},
    }
    sent = []
    for session_id, anchor in anchors:
        cur = cursors.enter_context(conn.cursor(row_factory=dict_row))
        cur.execute(_CONTEXT_SQL, {"sid": session_id, "anchor": anchor, **fixed})
        sent.append(cur)
    return sent


class PgSearch:
    """SearchRepo over one psycopg connection."""

    __slots__ = ("conn",)

    def __init__(self, conn: Conn) -> None:
        self.conn = conn

    def message_hits(self, query: str, order: str, budget: HitBudget) -> PgHits:
        """The hits of a user query, compiled to ``tsquery`` or trigram conditions (module docstring)."""
        return PgHits(self.conn, query, order, budget)

    def _rows(self, sql: str, params: Sequence[Any] | Mapping[str, Any]) -> list[dict[str, Any]]:
        with self.conn.cursor(row_factory=dict_row) as cur:
            return cur.execute(sql, params).fetchall()

    def parent_of(self, session_id: str) -> str | None:
        """``parent_session_id`` of a session (``None`` for a root or a missing session)."""
        row = self.conn.execute(
            "SELECT parent_session_id FROM sessions WHERE id = %s", (session_id,)
        ).fetchone()
        return None if row is None or not row[0] else str(row[0])

    def session_meta(self, session_id: str) -> SessionMetaRow | None:
        """The session fields search shows, or ``None`` when the session does not exist."""
        rows = self._rows(
            "SELECT id, title, source, model, started_at, parent_session_id FROM sessions WHERE id = %s",
            (session_id,),
        )
        return cast(SessionMetaRow, rows[0]) if rows else None

    def session_metas(self, session_ids: Sequence[str]) -> dict[str, SessionMetaRow]:
        """:meth:`session_meta` of each session that exists, by id, in one statement."""
        rows = self._rows(_METAS_SQL, (session_ids,))
        return {str(row["id"]): cast(SessionMetaRow, row) for row in rows}

    def session_of_message(self, message_id: int) -> str | None:
        """The session owning a message id, or ``None``."""
        row = self.conn.execute("SELECT session_id FROM messages WHERE id = %s", (message_id,)).fetchone()
        return None if row is None else str(row[0])

    def around(self, session_id: str, anchor: int, window: int) -> tuple[list[dict[str, Any]], int, int]:
        """Up to ``window`` visible messages before the anchor, the anchor, up to ``window`` after (id order),
        plus how many of those windows' neighbours exist beyond it on each side (the agent's counts)."""
        (found,) = self.contexts([(session_id, anchor)], window, 0)
        return list(found.rows), found.before, found.after

    def contexts(self, anchors: Sequence[tuple[str, int]], window: int, count: int) -> list[HitContext]:
        """:meth:`around` each anchor and the bookends outside that window (:func:`send_contexts`), all
        sent in one pipeline: one round trip in all."""
        with contextlib.ExitStack() as cursors:
            with self.conn.pipeline():
                sent = send_contexts(self.conn, cursors, anchors, window, count)
            return [_context(cur.fetchall()) for cur in sent]

    def head_and_tail(self, session_id: str, head: int, tail: int) -> tuple[int, list[dict[str, Any]]]:
        """How many active messages a session has, and all of them when at most ``head + tail``, else the
        first ``head`` and the last ``tail`` (id order), without loading the middle of a long session."""
        base = f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE session_id = %s AND active = 1"
        row = self.conn.execute(
            "SELECT COUNT(*) FROM messages WHERE session_id = %s AND active = 1", (session_id,)
        ).fetchone()
        total = int(row[0]) if row else 0
        if total <= head + tail:
            return total, self._rows(f"{base} ORDER BY id", (session_id,))
        first = self._rows(f"{base} ORDER BY id LIMIT %s", (session_id, head))
        last = self._rows(f"{base} ORDER BY id DESC LIMIT %s", (session_id, tail))
        return total, [*first, *reversed(last)]

    def browse(self, limit: int, skip: Sequence[str], filt: HitFilter) -> list[dict[str, Any]]:
        """Most recently active root sessions (children are never browsed), minus ``skip``."""
        by_session, params = _session_sql(filt)
        where = "".join(f" AND {part}" for part in by_session)
        # Order and limit first (last activity only), then build previews for the few rows returned.
        return self._rows(
            "SELECT s.id, s.title, s.source, s.started_at, t.last_active, s.message_count,"
            f" {PREVIEW_RAW_SQL.format(a='s')} AS preview_raw"
            f" FROM (SELECT s.id AS id, {LAST_ACTIVE_SQL.format(a='s')} AS last_active FROM sessions s"
            f" WHERE s.parent_session_id IS NULL AND s.id <> ALL(%s){where}"
            " ORDER BY last_active DESC, s.id DESC LIMIT %s) t"
            " JOIN sessions s ON s.id = t.id ORDER BY t.last_active DESC, s.id DESC",
            (list(skip), *params, limit),
        )


def _all_pieces(test: str, pieces: int) -> str:
    return "(" + " AND ".join([test] * pieces) + ")"


def _list_pieces(term: str) -> list[str]:
    """What of ``term`` the listing's indexes are asked for, mapped as ``hs_list_text`` maps: the whole
    term, or its head and tail when it is long. Every trigram of a piece is looked up, so the ones that
    span a space or a mark (``L is`` in ``PyYAML is``), the rarest, narrow too: asked for pieces at every
    third position instead, ``PyYAML is`` read every row holding ``PyYAML`` to find the few holding both
    (docs/search.md)."""
    text = term.translate(LIST_TEXT)
    if len(text) <= _PATTERN_CHARS:
        return [text]
    return [text[:_PATTERN_CHARS], text[-_PATTERN_CHARS:]]


def _list_patterns(term: str) -> list[str]:
    return [f"%{like_escape(piece)}%" for piece in _list_pieces(term)]


# How many times :func:`_found_sql` binds its patterns.
_FOUND_PATTERNS = 3


def _found_sql(n: int, mark: str) -> str:
    """The rows whose indexed text holds ``n`` patterns (bound :data:`_FOUND_PATTERNS` times, then the
    limit; ``mark`` is the placeholder): session ids from the sessions, then from the indexed user messages,
    then from those still waiting for the indexer (read through the backlog's runs, as SQLite adds its
    sessions awaiting their documents). The runs drive that last branch (``OFFSET 0`` keeps the planner
    from turning it around): no run, nothing read. Planned from statistics taken while a big batch waited,
    the join started from every user message once the batch was indexed, and probed the empty runs for
    each."""
    held = _all_pieces(f"{LIST_PREVIEW_TEXT} ILIKE {mark}", n)
    return (
        f"SELECT id FROM sessions WHERE {_all_pieces(f'{LIST_SESSION_TEXT} ILIKE {mark}', n)}"
        f" UNION ALL SELECT session_id FROM messages WHERE {LIST_INDEXED_ROWS} AND {held}"
        " UNION ALL SELECT w.session_id FROM hs_fts_backlog b CROSS JOIN LATERAL (SELECT m.session_id"
        f" FROM messages m WHERE m.id BETWEEN b.first_id AND b.last_id AND {PENDING} AND {LIST_PREVIEW_ROWS}"
        f" AND {held} OFFSET 0) w LIMIT {mark}"
    )


def list_candidates(conn: Conn, term: str, projecting: bool) -> list[str] | None:
    """Sessions whose id, title or a user message's preview-sized head may contain ``term`` (case folded)
    and, when ``projecting``, their compression ancestors; ``None`` when more than :data:`MAX_CANDIDATES`
    rows match.

    The trigram indexes (on ``hs_list_text`` of the texts, so that spaces and punctuation count) are asked
    for the term's :func:`_list_pieces` (a superset: the listing checks each row exactly). ``UNION ALL``
    under the limit stops reading as soon as a broad term has passed it (a session with several matching
    messages counts more than once, which only sends a borderline term to the scan earlier)."""
    pieces = _list_patterns(term)
    n = len(pieces)
    found = _found_sql(n, "%s")
    # Too many rows found: only their count comes back (the ids, and their ancestors' walk, are skipped by a
    # one-time filter), so a broad term costs one small row rather than a thousand ids thrown away.
    kept = "SELECT id FROM found WHERE (SELECT count(*) FROM found) <= %s"
    listed = WITH_ANCESTORS_SQL.format(candidates=kept) if projecting else kept
    rows = conn.execute(
        f"WITH found AS MATERIALIZED ({found})"
        f" SELECT count(*), NULL FROM found UNION ALL SELECT NULL, id FROM ({listed}) l",
        (*pieces * _FOUND_PATTERNS, MAX_CANDIDATES + 1, MAX_CANDIDATES),
        prepare=True,
    ).fetchall()
    if next(int(count) for count, sid in rows if sid is None) > MAX_CANDIDATES:
        return None
    return sorted({str(sid) for _, sid in rows if sid is not None})


# The scan's pattern is bound through a scalar subquery, which the planner cannot see into. A custom plan
# then costs what the generic one does, so the prepared listing keeps its generic plan. With the pattern
# visible, a term in most rows made every custom plan look cheaper, and the listing was planned again on
# each call, which cost more than running it.
_OPAQUE_PATTERN = "(SELECT CAST(%s AS TEXT))"


def _scan(term: str, projecting: bool) -> SearchFilter:
    return scan_filter(POSTGRES, term, projecting, bind=_OPAQUE_PATTERN if TRICKS.opaque_pattern else None)


def _broad(conn: Conn, term: str) -> bool:
    """Whether the statistics say the candidate statement would find more than :data:`_BROAD_ROWS`."""
    stats = list_stats(conn) if TRICKS.broad_terms else None
    return stats is not None and stats.matches(_list_pieces(term), _BROAD_ROWS) > _BROAD_ROWS


def list_search_filter(conn: Conn, term: str, projecting: bool) -> SearchFilter:
    """The listing's search filter on PostgreSQL (SQLite's ``list_index.search_filter``), in psycopg's
    placeholders: the candidates from the trigram indexes when the term has :data:`MIN_TERM`
    characters and few sessions hold it, else the row-by-row scan (a term the statistics say is in many
    is not looked up at all: :mod:`app.storage.postgres.list_stats`). Either way a superset the listing's
    exact check narrows (``ILIKE`` folds all of Unicode where SQLite's ``LIKE`` folds ASCII)."""
    if "\x00" in term:
        # PostgreSQL text cannot hold NUL, so no id, title or preview contains one.
        return SearchFilter("FALSE", [])
    if len(term) < MIN_TERM or _broad(conn, term):
        return _scan(term, projecting)
    # The candidates are found in the listing's own statement, one round trip: an array of their start
    # times, NULL when there are too many, which admits no row; the listing then settles it in two.
    patterns = _list_patterns(term)
    kept = "SELECT id FROM found"
    listed = WITH_ANCESTORS_SQL.format(candidates=kept) if projecting else kept
    clause = (
        f"s.started_at = ANY((WITH found AS MATERIALIZED ({_found_sql(len(patterns), '%s')})"
        " SELECT CASE WHEN (SELECT count(*) FROM found) <= %s THEN"
        f" (SELECT array_agg(c.started_at) FROM sessions c WHERE c.id IN ({listed})) END)"
        "::double precision[])"
    )
    return SearchFilter(
        clause,
        [*patterns * _FOUND_PATTERNS, MAX_CANDIDATES + 1, MAX_CANDIDATES],
        indexed=True,
        settle=functools.partial(_settled_filter, conn, term, projecting),
    )


def _settled_filter(conn: Conn, term: str, projecting: bool) -> SearchFilter:
    """The filter when the listing's own candidates admitted no row: the scan if there are too many, else
    the candidates found in a statement of their own (none, or rows other filters dropped)."""
    found = list_candidates(conn, term, projecting)
    if found is None:
        return _scan(term, projecting)
    if not found:
        return SearchFilter("FALSE", [], indexed=True)
    # An array parameter, not a set-returning function: the planner looks each id up by key. Walking the
    # listing at the candidates' start times keeps its order (no sort).
    return SearchFilter(
        "s.started_at IN (SELECT c.started_at FROM sessions c WHERE c.id = ANY(%s))",
        [found],
        indexed=True,
    )
