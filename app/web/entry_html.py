"""A transcript's messages as HTML, written directly: a page shows 60 messages, and a template macro per
message, with its filters and escapes, cost more than reading them. Every value goes through
``html.escape``; message text goes through :func:`app.domain.highlight.marked_terms`, which escapes it
before it marks the search's terms, so no message text is ever rendered as HTML.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from urllib.parse import quote

from markupsafe import Markup

from app.domain.highlight import marked_terms
from app.domain.transcript import Entry, Result, ToolCard
from app.web.timefmt import utc_time

# Characters of a summary shown folded, before "…".
SUMMARY_PREVIEW = 160

Mark = Callable[[str], str]


def entries_html(entries: list[Entry], session_id: str, terms: list[str]) -> Markup:
    """The ``<article>`` of each entry, in order, with ``terms`` marked in every text shown."""
    mark: Mark = (lambda text: marked_terms(text, terms)) if terms else escape
    link = f"/s/{escape(quote(session_id, safe=''))}"
    return Markup("".join(_entry(e, link, mark) for e in entries))


def _entry(e: Entry, link: str, mark: Mark) -> str:
    kind = f" summary summary-{escape(e.summary)}" if e.summary else ""
    when = utc_time(e.timestamp)
    out = [
        f'<article class="msg role-{escape(e.role)}{kind}" id="m-{e.id}" data-id="{e.id}">\n<header>'
        f'<span class="who">{_who(e)}</span>'
        f'<time datetime="{when}" title="{when}" data-ts="{e.timestamp}">{when}</time>'
        f'<a class="permalink" href="{link}?at={e.id}#m-{e.id}" aria-label="Link to message {e.id}">#{e.id}'
        "</a></header>\n"
    ]
    if e.reasoning:
        out.append(
            '<details class="reasoning"><summary>Reasoning</summary>'
            f'<pre class="text">{mark(e.reasoning)}</pre></details>\n'
        )
    if e.orphan:
        of = f" of <code>{escape(e.tool_name)}</code>" if e.tool_name else ""
        out.append(
            f'<details class="tool" open><summary>Result{of}</summary>{_result(e.orphan, mark)}</details>\n'
        )
    elif e.summary:
        out.append(
            f'<details class="summary-text"><summary>{escape(e.text[:SUMMARY_PREVIEW])}…</summary>'
            f'<pre class="text">{mark(e.text)}</pre></details>\n'
        )
    elif e.text:
        out.append(f'<pre class="text">{mark(e.text)}</pre>\n')
    out.extend(_card(card, mark) for card in e.cards)
    out.append("</article>\n")
    return "".join(out)


def _who(e: Entry) -> str:
    if e.summary == "compression":
        return "Compression summary"
    if e.summary == "handoff":
        return "Handoff summary"
    if e.role == "tool":
        return f"tool: {escape(e.tool_name)}" if e.tool_name else "tool"
    return escape(e.role)


def _card(card: ToolCard, mark: Mark) -> str:
    pending = ' <span class="pending">no result on this page</span>' if card.result is None else ""
    result = ""
    if card.result is not None:
        result = f'<div class="result" id="m-{card.result.message_id}">{_result(card.result, mark)}</div>'
    return (
        f'<details class="tool" data-call="{escape(card.call_id)}"><summary>'
        f'<code class="tool-name">{escape(card.name)}</code> <span class="args">{escape(card.summary)}</span>'
        f'{pending}</summary><pre class="args-full">{escape(card.arguments)}</pre>{result}</details>\n'
    )


def _result(r: Result, mark: Mark) -> str:
    if not r.omitted:
        return f'<pre class="out">{mark(r.text)}</pre>'
    return (
        f'<pre class="out">{mark(r.head)}</pre><details class="rest"><summary>{r.omitted} more characters'
        f'</summary><pre class="out">{mark(r.text)}</pre></details><pre class="out tail">{mark(r.tail)}</pre>'
    )
