"""How many rows a listing's term finds, estimated from the sample ``ANALYZE`` keeps of the indexed texts.

The listing's search asks the trigram indexes for its candidates, and gives up for the row scan when they
find more than ``MAX_CANDIDATES``. For a term in most sessions (``2026`` in every id) that first statement
reads a thousand rows to learn only that the scan is the way. ``ANALYZE`` keeps, for each expression index,
the most common values and a histogram of the rest: a sample of the indexed texts, each standing for a
share of the rows. The share of the sample holding every piece of a term, times the rows, is an estimate
of the rows the candidate statement would find, as the planner makes for ``LIKE`` (``patternsel``). A
wrong estimate costs time, never rows: both ways give the same listing.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import psycopg

from app.storage.postgres.stats_cache import per_database

Conn = psycopg.Connection[Any]

SESSIONS_INDEX = "idx_sessions_list_text_trgm"
PREVIEWS_INDEX = "idx_messages_list_text_trgm"


class TextSample:
    """``ANALYZE``'s sample of one index's texts: each (case folded) with the share of the rows it stands
    for, and the rows the index holds."""

    __slots__ = ("_joined", "_shares", "_starts", "_texts", "rows")

    def __init__(self, texts: Sequence[tuple[str, float]], rows: float) -> None:
        self._texts = [text for text, _ in texts]
        self._shares = [share for _, share in texts]
        self.rows = rows
        # All texts in one string (NUL, which no PostgreSQL text holds, between them), so that a piece is
        # looked for in all of them by a few calls of ``str.find`` rather than one ``in`` per text.
        self._joined = "\x00".join(self._texts)
        self._starts = list(itertools.accumulate((len(t) + 1 for t in self._texts[:-1]), initial=0))

    def _holding(self, piece: str) -> Iterator[int]:
        """The texts holding ``piece``, each once, in order."""
        at = self._joined.find(piece)
        while at >= 0:
            index = bisect.bisect_right(self._starts, at) - 1
            yield index
            at = self._joined.find(piece, self._starts[index] + len(self._texts[index]) + 1)

    def matches(self, pieces: Sequence[str], beyond: float = math.inf) -> float:
        """Rows expected to hold every one of ``pieces`` (folded as the texts are). The count stops once it
        passes ``beyond``: a term in most texts is then told from a narrow one without visiting them all."""
        held = self._holding(pieces[0]) if pieces else range(len(self._texts))
        share = 0.0
        for index in held:
            if all(piece in self._texts[index] for piece in pieces[1:]):
                share += self._shares[index]
                if self.rows * share > beyond:
                    break
        return self.rows * share


@dataclass(frozen=True, slots=True)
class ListStats:
    """The samples of the listing's two indexes: sessions' ids and titles, user messages' heads."""

    sessions: TextSample
    previews: TextSample

    def matches(self, pieces: Sequence[str], beyond: float = math.inf) -> float:
        """Rows the candidate statement is expected to find for ``pieces`` (mapped as the indexes map),
        counted until past ``beyond``."""
        folded = [piece.lower() for piece in pieces]
        in_sessions = self.sessions.matches(folded, beyond)
        if in_sessions > beyond:
            return in_sessions
        return in_sessions + self.previews.matches(folded, beyond - in_sessions)


def list_stats(conn: Conn) -> ListStats | None:
    """The samples of ``conn``'s database (``None`` until an index is analyzed; an index never analyzed, or
    with nothing in it, has an empty sample), read again when older than a minute."""
    return per_database(conn, "list", _read)


def _read(conn: Conn) -> ListStats | None:
    rows = conn.execute(
        "SELECT c.relname, c.reltuples, s.null_frac, s.most_common_vals::text::text[], s.most_common_freqs,"
        " s.histogram_bounds::text::text[]"
        " FROM pg_class c JOIN pg_stats s ON s.schemaname = c.relnamespace::regnamespace::name"
        " AND s.tablename = c.relname"
        " WHERE c.oid IN (to_regclass(%s), to_regclass(%s))",
        (SESSIONS_INDEX, PREVIEWS_INDEX),
    ).fetchall()
    samples = {str(row[0]): _sample(*row[1:]) for row in rows}
    if not samples:
        return None
    unknown = TextSample([], 0.0)
    return ListStats(samples.get(SESSIONS_INDEX, unknown), samples.get(PREVIEWS_INDEX, unknown))


def _sample(
    rows: float | None,
    null_frac: float | None,
    common: list[str] | None,
    common_freqs: list[float] | None,
    bounds: list[str] | None,
) -> TextSample:
    texts = [(str(t).lower(), float(f)) for t, f in zip(common or [], common_freqs or [], strict=True)]
    rest = max(0.0, 1 - float(null_frac or 0) - sum(f for _, f in texts))
    if bounds:
        texts += [(str(t).lower(), rest / len(bounds)) for t in bounds]
    return TextSample(texts, max(0.0, float(rows or 0)))
