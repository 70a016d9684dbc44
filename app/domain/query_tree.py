"""The word-query language as a tree, parsed the way SQLite's FTS5 parses a sanitised query.

The SQLite backend hands the sanitised text (:func:`app.domain.fts_query.sanitize`) to FTS5 as it is;
another backend needs its meaning. FTS5's grammar, from the loosest binding to the tightest (checked
against FTS5 itself in the parity tests): ``OR``, explicit ``AND``, ``NOT`` (binary: ``a NOT b`` is ``a``
without ``b``), then juxtaposition, an implicit AND that binds tighter than ``NOT`` (``a NOT b c`` is ``a``
without ``b c``). A phrase is ``"quoted text"`` or a bare word; a ``*`` right after it makes its last word a
prefix. A phrase holds the words FTS5's ``unicode61`` tokenizer cuts from it (letters, digits and private-use
characters; everything else separates); one without words is neutral beside other phrases and inside
``OR``, drops out of the right side of a ``NOT``, and makes an explicit ``AND`` (or, alone, the query) match
nothing.

:func:`parse` returns ``None`` where FTS5 reports a syntax error (a dangling operator, a character outside
its bare words), so the caller retries with :func:`app.domain.fts_query.literal_fallback` as the SQLite
path does.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

OPERATOR_WORDS = frozenset({"AND", "OR", "NOT"})
# FTS5 bare words: ASCII letters and digits, underscore, the substitute character and all of non-ASCII.
_BARE_ASCII = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_\x1a")


@dataclass(frozen=True, slots=True)
class Phrase:
    """Consecutive words; with ``prefix`` the last one matches any word it starts."""

    words: tuple[str, ...]
    prefix: bool = False


@dataclass(frozen=True, slots=True)
class AllOf:
    """Every part matches."""

    parts: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class AnyOf:
    """At least one part matches."""

    parts: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Without:
    """``keep`` matches and ``drop`` does not."""

    keep: Node
    drop: Node


Node = Phrase | AllOf | AnyOf | Without


def words(text: str) -> tuple[str, ...]:
    """The words ``unicode61`` cuts from ``text`` (runs of letters, digits and private-use characters)."""
    found: list[str] = []
    current: list[str] = []
    for ch in text:
        category = unicodedata.category(ch)
        if category[0] in "LN" or category == "Co":
            current.append(ch)
        elif current:
            found.append("".join(current))
            current = []
    if current:
        found.append("".join(current))
    return tuple(found)


def _is_bare(ch: str) -> bool:
    return ch in _BARE_ASCII or ord(ch) > 127


@dataclass(frozen=True, slots=True)
class _Token:
    text: str
    quoted: bool
    prefix: bool = False

    @property
    def operator(self) -> str | None:
        return self.text if not self.quoted and self.text in OPERATOR_WORDS else None


def _tokens(query: str) -> list[_Token] | None:
    """Phrases and operators, or ``None`` on a character FTS5 rejects (or an unterminated quote)."""
    tokens: list[_Token] = []
    i, n = 0, len(query)
    while i < n:
        ch = query[i]
        if ch.isspace():
            i += 1
            continue
        if ch == '"':
            end = query.find('"', i + 1)
            if end < 0:
                return None
            token = _Token(query[i + 1 : end], quoted=True)
            i = end + 1
        elif _is_bare(ch):
            start = i
            while i < n and _is_bare(query[i]):
                i += 1
            token = _Token(query[start:i], quoted=False)
        else:
            return None
        if i < n and query[i] == "*":
            if token.operator:
                return None
            token = _Token(token.text, token.quoted, prefix=True)
            i += 1
        tokens.append(token)
    return tokens


class _Parser:
    def __init__(self, tokens: list[_Token]) -> None:
        self.tokens = tokens
        self.at = 0

    def _peek_operator(self, name: str) -> bool:
        return self.at < len(self.tokens) and self.tokens[self.at].operator == name

    def any_(self) -> Node | None:
        parts = [self.all_()]
        while self._peek_operator("OR"):
            self.at += 1
            parts.append(self.all_())
        return _combine(AnyOf, parts)

    def all_(self) -> Node | None:
        parts = [self.without()]
        while self._peek_operator("AND"):
            self.at += 1
            parts.append(self.without())
        # Unlike juxtaposition, an explicit AND with a side that holds no word matches nothing.
        if len(parts) > 1 and any(part is None for part in parts):
            return None
        return _combine(AllOf, parts)

    def without(self) -> Node | None:
        node = self.sequence()
        while self._peek_operator("NOT"):
            self.at += 1
            drop = self.sequence()
            node = None if node is None else (node if drop is None else Without(node, drop))
        return node

    def sequence(self) -> Node | None:
        phrases: list[Node | None] = []
        while self.at < len(self.tokens) and self.tokens[self.at].operator is None:
            token = self.tokens[self.at]
            found = words(token.text)
            phrases.append(Phrase(found, token.prefix) if found else None)
            self.at += 1
        if not phrases:
            raise SyntaxError("a phrase was expected")
        return _combine(AllOf, phrases)


def _combine(kind: type[AllOf] | type[AnyOf], parts: list[Node | None]) -> Node | None:
    kept = tuple(part for part in parts if part is not None)
    if not kept:
        return None
    return kept[0] if len(kept) == 1 else kind(kept)


def wanted_words(node: Node) -> list[tuple[str, bool]]:
    """The words a match contains (those under ``NOT`` left out), each with whether it is a prefix."""
    if isinstance(node, Phrase):
        last = len(node.words) - 1
        return [(word, node.prefix and i == last) for i, word in enumerate(node.words)]
    if isinstance(node, Without):
        return wanted_words(node.keep)
    return [pair for part in node.parts for pair in wanted_words(part)]


@dataclass(frozen=True, slots=True)
class Parsed:
    """A query FTS5 accepts: its tree, or ``None`` when it holds no word (it matches nothing)."""

    tree: Node | None


def parse(query: str) -> Parsed | None:
    """The tree of a sanitised query, or ``None`` where FTS5 reports a syntax error."""
    tokens = _tokens(query)
    if not tokens:
        return None
    parser = _Parser(tokens)
    try:
        tree = parser.any_()
    except SyntaxError:
        return None
    if parser.at != len(tokens):
        return None
    return Parsed(tree)
