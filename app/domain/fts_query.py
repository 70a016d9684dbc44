"""Turning what a user types into a safe search plan.

The sanitiser reproduces the agent's ``SessionDB._sanitize_fts5_query`` rule for rule (the reference's
§1.13.1 and the exact outputs of check 93), so the same text means the same FTS5 query in both programs.
On top of it, :func:`plan` picks the engine:

* ``fts``: the word index ``messages_fts`` with the sanitised query (implicit AND, ``"phrases"``, ``OR``,
  ``NOT``, ``prefix*``); :func:`literal_fallback` is the retry when FTS5 still rejects the syntax;
* ``trigram``: the substring index ``messages_fts_trigram`` when the query holds text the word index cannot
  match (see :mod:`app.domain.scripts`) and every term has at least three characters;
* ``scan``: shorter terms (one- and two-character CJK words). The service turns two-character terms back
  into a trigram query with :func:`expand_short_terms`; a bounded substring scan answers the rest.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from app.domain.scripts import needs_substring_search

MAX_QUERY_CHARS = 2048
# Trigram tables match substrings of at least this many characters; shorter terms need the scan.
TRIGRAM_MIN_CHARS = 3
OPERATORS = frozenset({"AND", "OR", "NOT"})

_SPECIAL = re.compile(r'[+{}():"^]')
_STARS = re.compile(r"\*+")
_LEADING_STAR = re.compile(r"(^|\s)\*")
_LEADING_OP = re.compile(r"(?i)^(AND|OR|NOT)\b\s*")
_TRAILING_OP = re.compile(r"(?i)\s+(AND|OR|NOT)\s*$")
_JOINED_WORD = re.compile(r"\b(\w+(?:[._-]\w+)+)\b")
_TOKEN = re.compile(r'"[^"]*"|\S+')
_WORD_CHAR = re.compile(r"\w")


def sanitize(query: str) -> str:
    """The agent's FTS5 sanitiser: keep balanced phrases, drop special characters and dangling operators,
    quote dotted/hyphenated/underscored words. Truncates to :data:`MAX_QUERY_CHARS` first."""
    query = query[:MAX_QUERY_CHARS]
    # Protect balanced "phrases" behind placeholders; a linear scan, so no regex backtracking.
    phrases: list[str] = []
    pieces: list[str] = []
    i = 0
    while i < len(query):
        ch = query[i]
        if ch != '"':
            pieces.append(ch)
            i += 1
            continue
        end = query.find('"', i + 1)
        if end == -1:
            pieces.append(" ")
            i += 1
            continue
        phrases.append(query[i : end + 1])
        pieces.append(f"\x00Q{len(phrases) - 1}\x00")
        i = end + 1
    text = _SPECIAL.sub(" ", "".join(pieces))
    text = _STARS.sub("*", text)
    text = _LEADING_STAR.sub(r"\1", text)
    text = _LEADING_OP.sub("", text.strip())
    text = _TRAILING_OP.sub("", text.strip())
    text = _JOINED_WORD.sub(r'"\1"', text)
    for index, phrase in enumerate(phrases):
        text = text.replace(f"\x00Q{index}\x00", phrase)
    return text.strip()


def quote_phrase(term: str) -> str:
    """``term`` as one FTS5 phrase (a string in double quotes, inner quotes doubled), matched literally."""
    return '"' + term.replace('"', '""') + '"'


def literal_fallback(sanitized: str) -> str:
    """Every term as a quoted phrase, operators dropped: the retry when FTS5 rejects the sanitised syntax
    (``a AND OR b``, stray punctuation). A trailing ``*`` stays a prefix; punctuation-only tokens go."""
    parts: list[str] = []
    for token in _TOKEN.findall(sanitized):
        if token in OPERATORS:
            continue
        prefix = token.endswith("*") and not token.startswith('"')
        body = token.strip('"').rstrip("*")
        if not _WORD_CHAR.search(body):
            continue
        parts.append(quote_phrase(body) + ("*" if prefix else ""))
    return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Clause:
    """Rows containing every ``include`` term and none of the ``exclude`` terms (substring semantics)."""

    include: tuple[str, ...]
    exclude: tuple[str, ...] = ()


class Engine(StrEnum):
    """Which index (or scan) answers a query."""

    empty = "empty"
    fts = "fts"
    trigram = "trigram"
    scan = "scan"


@dataclass(frozen=True, slots=True)
class Plan:
    """How to run one query: the engine, its MATCH text (FTS engines) and the substring clauses (OR-ed).

    ``literal_snippets``: the MATCH highlights whole trigrams, not the user's terms, so snippets are cut
    from the text instead (expanded short terms)."""

    engine: Engine
    match: str = ""
    fallback: str = ""
    clauses: tuple[Clause, ...] = ()
    literal_snippets: bool = False

    @property
    def terms(self) -> tuple[str, ...]:
        """Every positive term, for snippets."""
        return tuple(term for clause in self.clauses for term in clause.include)


def substring_clauses(sanitized: str) -> tuple[Clause, ...]:
    """Parse a sanitised query as ``OR`` of ``AND``-groups with ``NOT`` terms, each term a literal
    substring (quotes and a trailing prefix ``*`` removed). Groups without a positive term are dropped."""
    clauses: list[Clause] = []
    include: list[str] = []
    exclude: list[str] = []
    negate = False
    for token in [*_TOKEN.findall(sanitized), "OR"]:
        if token == "OR":
            if include:
                clauses.append(Clause(tuple(include), tuple(exclude)))
            include, exclude, negate = [], [], False
            continue
        if token == "AND":
            continue
        if token == "NOT":
            negate = True
            continue
        term = token.strip('"').rstrip("*").strip()
        if term:
            (exclude if negate else include).append(term)
        negate = False
    return tuple(clauses)


def short_terms(clauses: tuple[Clause, ...]) -> tuple[str, ...]:
    """Terms too short for a trigram match (each needs :func:`expand_short_terms`)."""
    terms = (term for clause in clauses for term in (*clause.include, *clause.exclude))
    return tuple(dict.fromkeys(t for t in terms if len(t) < TRIGRAM_MIN_CHARS))


def _term_match(term: str, expansions: Mapping[str, Sequence[str]]) -> str | None:
    if term not in expansions:
        return quote_phrase(term)
    trigrams = expansions[term]
    if not trigrams:
        return None
    return "(" + " OR ".join(quote_phrase(t) for t in trigrams) + ")"


def trigram_match(clauses: tuple[Clause, ...], expansions: Mapping[str, Sequence[str]] | None = None) -> str:
    """The clauses as a trigram-table MATCH: ``("a" AND "b" NOT ("c")) OR ("d")``.

    A term listed in ``expansions`` becomes the OR of the indexed trigrams starting with it; with none it
    occurs nowhere, so its clause (or exclusion) is dropped. Empty when no clause can match."""
    expansions = expansions or {}
    groups: list[str] = []
    for clause in clauses:
        include = [_term_match(term, expansions) for term in clause.include]
        if any(part is None for part in include):
            continue
        exclude = [part for part in (_term_match(t, expansions) for t in clause.exclude) if part is not None]
        group = " AND ".join(part for part in include if part is not None)
        if exclude:
            group = f"({group}) NOT ({' OR '.join(exclude)})"
        groups.append(f"({group})")
    return " OR ".join(groups)


def expand_short_terms(scan: Plan, expansions: Mapping[str, Sequence[str]]) -> Plan:
    """A ``scan`` plan answered from the trigram index instead, given every short term's trigrams.

    Complete for two-character terms because the indexed text is ``content || ' ' || tool_name || ' ' ||
    tool_calls`` (tool calls end in JSON punctuation): every occurrence is followed by at least one more
    character, so it starts some trigram. Not for one-character terms: one that ends a tool name of a
    message without tool calls is followed by a single space."""
    match = trigram_match(scan.clauses, expansions)
    if not match:
        return Plan(Engine.empty)
    return Plan(Engine.trigram, match=match, clauses=scan.clauses, literal_snippets=True)


def plan(query: str) -> Plan:
    """Choose the engine for a user query (see the module docstring)."""
    sanitized = sanitize(query)
    if not sanitized:
        return Plan(Engine.empty)
    if not needs_substring_search(sanitized):
        return Plan(Engine.fts, match=sanitized, fallback=literal_fallback(sanitized))
    clauses = substring_clauses(sanitized)
    if not clauses:
        return Plan(Engine.empty)
    terms = [term for clause in clauses for term in (*clause.include, *clause.exclude)]
    if all(len(term) >= TRIGRAM_MIN_CHARS for term in terms):
        return Plan(Engine.trigram, match=trigram_match(clauses), clauses=clauses)
    return Plan(Engine.scan, clauses=clauses)


def _marked(text: str, at: int, end: int, before: int, width: int) -> str:
    """``text[at:end]`` marked ``>>>…<<<`` in a window of about ``width`` characters starting ``before``
    characters ahead of it, with ``...`` where the text was cut."""
    start = max(0, at - before)
    stop = min(len(text), max(end, start + width))
    head = "..." if start > 0 else ""
    tail = "..." if stop < len(text) else ""
    return f"{head}{text[start:at]}>>>{text[at:end]}<<<{text[end:stop]}{tail}"


def literal_snippet(text: str, terms: tuple[str, ...], before: int = 40, width: int = 120) -> str:
    """A snippet around the first term found in ``text``, marked ``>>>term<<<`` like FTS5's ``snippet()``
    (for scan hits, which have no FTS snippet). Falls back to the head of the text."""
    for term in terms:
        at = text.find(term)
        if at >= 0:
            return _marked(text, at, at + len(term), before, width)
    return text[:width] + ("..." if len(text) > width else "")


def message_snippet(content: str, tool_name: str, tool_calls: str, terms: tuple[str, ...]) -> str:
    """:func:`literal_snippet` of the first of a message's searched columns holding a term (the content
    when none does)."""
    text = next((t for t in (content, tool_name, tool_calls) if any(x in t for x in terms)), "")
    return literal_snippet(text or content, terms)


def word_snippet(
    text: str, words: Sequence[tuple[str, bool]], before: int = 40, width: int = 120
) -> str | None:
    """A snippet around the first of ``words`` (each with whether it is a prefix) standing in ``text`` as a
    word of its own, case ignored, marked like :func:`literal_snippet`; ``None`` when none does as written
    (one found only through accent folding, say)."""
    for word, prefix in words:
        # A word starts and (unless a prefix) ends where letters and digits do, as unicode61 cuts text.
        tail = r"[^\W_]*" if prefix else r"(?![^\W_])"
        found = re.search(rf"(?<![^\W_]){re.escape(word)}{tail}", text, re.IGNORECASE)
        if found is not None:
            return _marked(text, found.start(), found.end(), before, width)
    return None
