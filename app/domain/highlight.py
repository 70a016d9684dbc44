"""Search hits marked in text that is escaped first: what a page shows of a snippet or a message.

Everything outside the marks is escaped, so text an attacker wrote (a tool's output, a title) can never
become markup; only the ``<mark>`` elements added here are HTML.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html import escape

from markupsafe import Markup

# The store's snippets mark each hit as >>>hit<<< (the agent's FTS5 snippet markers).
_SNIPPET_HIT = re.compile(r">>>(.*?)<<<", re.S)
# Terms of a typed query: quoted phrases, else words, without FTS5 operators and prefix stars.
_TERM = re.compile(r'"([^"]+)"|([^\s"()]+)')
_OPERATORS = frozenset({"AND", "OR", "NOT", "NEAR"})


def marked_snippet(snippet: str) -> Markup:
    """A store snippet with its ``>>>hit<<<`` markers as ``<mark>`` and everything else escaped."""
    return _marked(snippet, _SNIPPET_HIT, lambda match: f"<mark>{escape(match.group(1))}</mark>")


def query_terms(query: str) -> list[str]:
    """The words and phrases of a search as a person typed it (operators and ``*`` dropped)."""
    terms: list[str] = []
    for phrase, word in _TERM.findall(query):
        term = (phrase or word).strip().rstrip("*")
        if term and term not in _OPERATORS:
            terms.append(term)
    return terms


def marked_terms(text: str, terms: list[str]) -> Markup:
    """``text`` escaped, with every case-insensitive occurrence of a term in ``<mark>``."""
    if not terms:
        return Markup(escape(text))
    pattern = re.compile("|".join(re.escape(t) for t in sorted(terms, key=len, reverse=True)), re.I)
    return _marked(text, pattern, lambda match: f'<mark class="hit">{escape(match.group(0))}</mark>')


def _marked(text: str, pattern: re.Pattern[str], mark: Callable[[re.Match[str]], str]) -> Markup:
    """``text`` escaped, with each match of ``pattern`` replaced by the markup ``mark`` makes of it."""
    parts: list[str] = []
    last = 0
    for match in pattern.finditer(text):
        parts.append(escape(text[last : match.start()]))
        parts.append(mark(match))
        last = match.end()
    parts.append(escape(text[last:]))
    return Markup("".join(parts))
