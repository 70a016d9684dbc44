"""The message hits of one discover request on SQLite, and the search repository over them: the query planned
onto FTS5's two tables.

The word index answers plain queries; the trigram index answers CJK text and symbols. Ranked hits come
in rowid tiers of :attr:`HitBudget.rank_tier` (newest first), ranked by bm25 within a tier: bm25 costs per
matching row, so ranking every match of a common term before the limit is what made broad queries slow.
``newest``/``oldest`` walk the matches in id order. On the inline FTS layout two-character terms (most CJK
words) are expanded into the indexed trigrams that start with them (``hs_trigram_vocab``); one-character
terms, two-character terms expanding to more than :attr:`HitBudget.max_expansion` trigrams, and short terms
on a newer agent's layout are a bounded substring scan.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from app.domain.fts_query import Engine, Plan, expand_short_terms, message_snippet, plan, short_terms
from app.storage.agent_shape import shape_of
from app.storage.hermes_ddl import FTS_TABLE, FTS_TRIGRAM_TABLE
from app.storage.repos import search
from app.storage.repos.indexing import Indexing
from app.storage.repos.search import SearchRows, scan_windows
from app.storage.rows import Hit, HitBudget, HitDetails, HitFilter
from app.storage.sqlite.driver import sqlite3

_NO_ROWID_LIMIT = 2**63 - 1


def _index_plan(conn: sqlite3.Connection, scan: Plan, budget: HitBudget) -> Plan:
    """Serve two-character terms from the trigram index when their expansion is small; otherwise (and for
    one-character terms) keep the bounded scan."""
    if scan.engine is not Engine.scan:
        return scan
    if shape_of(conn).fts != "inline":
        # A newer agent's trigram index holds content and tool name as separate columns (a term ending the
        # content starts no trigram), and leaves out tool rows and, from schema 29, whole sessions: only
        # the scan finds every occurrence of a short term there.
        return scan
    expansions: dict[str, list[str]] = {}
    terms = short_terms(scan.clauses)
    # A single character at the very end of a tool name (no tool calls after it) starts no trigram, so
    # one-character terms keep the scan; two-character terms always start one (see expand_short_terms).
    if any(len(term) < 2 for term in terms):
        return scan
    for term in terms:
        trigrams = search.trigrams_starting_with(conn, term.lower(), budget.max_expansion)
        if trigrams is None:
            return scan
        expansions[term] = trigrams
    return expand_short_terms(scan, expansions)


class SqliteHits:
    """The hits of one query, produced lazily in bounded chunks (see the module docstring)."""

    def __init__(self, rows: SearchRows, query: str, order: str, budget: HitBudget) -> None:
        self.rows = rows
        self.conn = rows.conn
        self.order = order
        self.budget = budget
        self.plan = _index_plan(self.conn, plan(query), budget)
        self.table = FTS_TRIGRAM_TABLE if self.plan.engine is Engine.trigram else FTS_TABLE
        self.match = ""
        self.broken = False
        self.scan_capped = False

    def hits(self, filt: HitFilter) -> Iterator[Hit]:
        """Hits passing ``filt`` in the request's order."""
        if self.plan.engine is Engine.empty:
            return iter(())
        if self.plan.engine is Engine.scan:
            return self._scan(filt)
        if not self._choose_match():
            return iter(())
        return self._ranked(filt) if self.order == "relevance" else self._ordered(filt)

    def details(self, hits: Sequence[Hit], session_ids: Sequence[str], window: int, count: int) -> HitDetails:
        """The sessions' fields, each hit's context and text around the match (marked ``>>>``/``<<<``), and
        the indexer's backlog; in process, so one lookup after another."""
        return HitDetails(
            self.rows.session_metas(session_ids),
            self.rows.contexts([(hit.session_id, hit.id) for hit in hits], window, count),
            [self._snippet(hit) for hit in hits],
            Indexing(self.conn, self.rows.changes).pending_messages(),
        )

    def _snippet(self, hit: Hit) -> str:
        if self.plan.engine is Engine.scan or self.plan.literal_snippets:
            return message_snippet(*search.message_text(self.conn, hit.id), self.plan.terms)
        return (search.fts_snippet(self.conn, self.table, self.match, hit.id) or "").strip()

    def _choose_match(self) -> bool:
        """Use the sanitised query, or the all-literal fallback when FTS5 still rejects its syntax."""
        if self.match or self.broken:
            return not self.broken
        for candidate in (self.plan.match, self.plan.fallback):
            if candidate and search.accepts_match(self.conn, self.table, candidate):
                self.match = candidate
                return True
        self.broken = True
        return False

    def _ranked(self, filt: HitFilter) -> Iterator[Hit]:
        below = _NO_ROWID_LIMIT
        batch = self.budget.filter_batch
        while True:
            floor = search.window_floor(self.conn, self.table, self.match, below, self.budget.rank_tier)
            ranked = search.ranked_rowids(self.conn, self.table, self.match, floor, below)
            for start in range(0, len(ranked), batch):
                yield from search.hits_for(self.conn, ranked[start : start + batch], filt)
            if floor == 0:
                return
            below = floor

    def _ordered(self, filt: HitFilter) -> Iterator[Hit]:
        newest = self.order == "newest"
        after: int | None = _NO_ROWID_LIMIT if newest else -1
        while after is not None:
            hits, after = search.ordered_chunk(
                self.conn, self.table, self.match, after, newest, self.budget.ordered_chunk, filt
            )
            yield from hits

    def _scan(self, filt: HitFilter) -> Iterator[Hit]:
        low, high = search.id_bounds(self.conn)
        newest = self.order != "oldest"
        for window in scan_windows(low, high, newest, self.budget):
            if window is None:
                self.scan_capped = True
                return
            yield from search.scan_chunk(self.conn, self.plan.clauses, *window, newest, filt)


class SqliteSearch(SearchRows):
    """The search repository (``SearchRepo``) on SQLite: the hits planned onto the agent's FTS5 tables."""

    __slots__ = ()

    def message_hits(self, query: str, order: str, budget: HitBudget) -> SqliteHits:
        """The hits of a user query, planned onto the FTS5 tables (:class:`SqliteHits`)."""
        return SqliteHits(self, query, order, budget)
