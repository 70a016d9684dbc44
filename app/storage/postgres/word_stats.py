"""How many messages a word query matches, estimated as PostgreSQL's planner estimates ``@@``: from the
statistics ``ANALYZE`` keeps on ``messages.search_vector`` (its most common lexemes, each with the fraction
of rows holding it). Read at most once a minute per database and process (``stats_cache``).

Only the way a relevance tier finds its rows depends on it (:mod:`app.storage.postgres.search`), never a
result: a wrong estimate costs time, not hits.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import psycopg

from app.domain.query_tree import AllOf, AnyOf, Node, Phrase
from app.storage.postgres.stats_cache import per_database

Conn = psycopg.Connection[Any]

# PostgreSQL's own default selectivity of ``@@`` when it knows nothing better (DEFAULT_TS_MATCH_SEL).
_DEFAULT_SELECTIVITY = 0.005


@dataclass(frozen=True, slots=True)
class WordStats:
    """The word statistics of one database: ``common`` lexemes with the fraction of all messages holding
    each, ``unseen`` for any other lexeme, ``rows`` messages, ids from ``first_id`` to ``last_id``."""

    common: Mapping[str, float]
    unseen: float
    rows: float
    first_id: int
    last_id: int

    def matches(self, node: Node) -> float:
        """Messages expected to match ``node``."""
        return self._selectivity(node) * self.rows

    def _selectivity(self, node: Node) -> float:
        if isinstance(node, Phrase):
            last = len(node.words) - 1
            return math.prod(self._word(w, node.prefix and i == last) for i, w in enumerate(node.words))
        if isinstance(node, AllOf):
            return math.prod(self._selectivity(part) for part in node.parts)
        if isinstance(node, AnyOf):
            return 1 - math.prod(1 - self._selectivity(part) for part in node.parts)
        return self._selectivity(node.keep) * (1 - self._selectivity(node.drop))

    def _word(self, word: str, prefix: bool) -> float:
        lexeme = fold(word)
        if not prefix:
            return self.common.get(lexeme, self.unseen)
        return min(1.0, max(self.unseen, sum(f for w, f in self.common.items() if w.startswith(lexeme))))


def fold(word: str) -> str:
    """A word as the ``hs_search`` configuration stores it: accents removed (``unaccent``), lower case."""
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def word_stats(conn: Conn) -> WordStats | None:
    """The statistics of ``conn``'s database (``None`` before its first ``ANALYZE`` or with no messages),
    read again when older than a minute."""
    return per_database(conn, "words", _read)


def _read(conn: Conn) -> WordStats | None:
    row = conn.execute(
        "SELECT s.most_common_elems::text::text[], s.most_common_elem_freqs, s.null_frac, c.reltuples,"
        " (SELECT min(id) FROM messages), (SELECT max(id) FROM messages)"
        " FROM pg_class c LEFT JOIN pg_stats s ON s.schemaname = c.relnamespace::regnamespace::name"
        " AND s.tablename = c.relname AND s.attname = 'search_vector'"
        " WHERE c.oid = 'messages'::regclass"
    ).fetchone()
    if row is None:
        return None
    lexemes, freqs, null_frac, rows, first_id, last_id = row
    if lexemes is None or freqs is None or rows is None or rows <= 0 or first_id is None:
        return None
    # The frequencies are of rows with a vector; the last two entries are their minimum and maximum.
    indexed = 1 - float(null_frac or 0)
    common = {str(w): float(f) * indexed for w, f in zip(lexemes, freqs[: len(lexemes)], strict=True)}
    unseen = min(_DEFAULT_SELECTIVITY, float(freqs[len(lexemes)]) / 2) * indexed
    return WordStats(common, unseen, float(rows), int(first_id), int(last_id))
