"""The readable and redacted exports: Markdown, Quarto, HTML, Claude Code traces, prompt records, and
redacted JSONL (the plain JSONL stream is :mod:`app.services.export`).

Every format is rendered a page of messages at a time on a reader thread, one short read transaction per
chunk of at most ``CHUNK_MESSAGES`` messages and ``CHUNK_SESSIONS`` sessions, so memory stays flat and
checkpoints keep running however big the export. The renderers (``app.domain.render_*``) produce the same
text as the agent's own for the same sessions; this module only feeds them.
"""

from __future__ import annotations

import functools
import secrets
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, Literal, Protocol

import orjson

from app.domain import render_html
from app.domain.conversation import Replay
from app.domain.redact import redact_message, redact_session
from app.domain.render_markdown import MarkdownDocument, PromptDocument, PromptRecords
from app.domain.render_session_file import SessionFile, file_name
from app.domain.render_trace import TraceSession, trace_time
from app.errors import (
    FilesLayoutNotAvailable,
    LineageNeedsSessionId,
    LineageNotAvailable,
    OnlyNotAvailable,
    QmdNeedsFilesLayout,
    SessionNotFound,
)
from app.storage.protocols import Store, Tx
from app.storage.rows import READABLE_COLUMNS, ExportFilter, MessageSlice

Format = Literal["jsonl", "md", "qmd", "html", "trace"]
Layout = Literal["document", "files"]
LineageMode = Literal["single", "logical"]
Only = Literal["user-prompts"]

# What the Markdown document, the prompt views and an HTML page read of a message: the rest is neither read
# nor decoded (tool calls and reasoning are not shown in Markdown).
_MARKDOWN_COLUMNS: tuple[str, ...] = ("id", "session_id", "role", "content", "timestamp", "tool_name")
_PROMPT_COLUMNS = (*_MARKDOWN_COLUMNS, "platform_message_id")
_HTML_COLUMNS = (
    "id",
    "session_id",
    "role",
    "content",
    "tool_calls",
    "timestamp",
    "reasoning",
    "reasoning_content",
)

CHUNK_MESSAGES = 2000
CHUNK_SESSIONS = 64
MEDIA_TYPES: dict[str, str] = {
    "jsonl": "application/jsonl",
    "md": "text/markdown; charset=utf-8",
    "qmd": "text/markdown; charset=utf-8",
    "html": "text/html; charset=utf-8",
    "trace": "application/x-ndjson",
}
_EXTENSIONS = {"jsonl": "jsonl", "md": "md", "qmd": "qmd", "html": "html", "trace": "trace.jsonl"}


@dataclass(frozen=True)
class ExportRequest:
    """One export as asked for; :func:`checked` fills the defaults and refuses what does not go together."""

    fmt: Format = "jsonl"
    only: Only | None = None
    redact: bool | None = None
    layout: Layout | None = None
    lineage: LineageMode = "single"
    flt: ExportFilter = field(default_factory=ExportFilter)

    @property
    def plain_jsonl(self) -> bool:
        """The plain JSONL stream (byte for byte today's ``/export.jsonl``)."""
        return self.fmt == "jsonl" and self.only is None and not self.redact


def checked(req: ExportRequest) -> ExportRequest:
    """``req`` with its defaults (redaction on for traces only, as the agent; one document unless qmd)."""
    if req.only is not None and req.fmt not in ("jsonl", "md"):
        raise OnlyNotAvailable()
    layout = req.layout or ("files" if req.fmt == "qmd" else "document")
    if layout == "files" and (req.fmt not in ("md", "qmd") or req.only is not None):
        raise FilesLayoutNotAvailable()
    if layout == "document" and req.fmt == "qmd":
        raise QmdNeedsFilesLayout()
    redact = req.fmt == "trace" if req.redact is None else req.redact
    if req.lineage == "logical":
        if req.flt.session_id is None:
            raise LineageNeedsSessionId("lineage=logical")
        if not (
            layout == "files" or req.fmt == "html" or (req.fmt == "jsonl" and req.only is None and not redact)
        ):
            raise LineageNotAvailable()
    return ExportRequest(req.fmt, req.only, redact, layout, req.lineage, req.flt)


def download_name(req: ExportRequest) -> str:
    """The file name offered for the whole export."""
    return f"hermes-sessions.{_EXTENSIONS[req.fmt]}"


class _Renderer(Protocol):
    def session(self, head: dict[str, Any]) -> str: ...
    def messages(self, messages: list[dict[str, Any]]) -> str: ...
    def session_end(self) -> str: ...


@dataclass
class _Cursor:
    after_session: str = ""
    heads: list[dict[str, Any]] = field(default_factory=list)
    open_session: str | None = None
    after_message: int = 0
    done: bool = False


def _chunk(
    flt: ExportFilter,
    renderer: _Renderer,
    transform: Redaction,
    columns: tuple[str, ...] | None,
    cursor: _Cursor,
    tx: Tx,
) -> str:
    """Render the next chunk (the rest of an open session, then whole sessions, their messages read in one
    query); ``cursor`` is moved past it."""
    out: list[str] = []
    budget = CHUNK_MESSAGES
    if cursor.open_session is not None:
        rows = tx.export.message_dicts(
            MessageSlice(cursor.open_session, cursor.after_message, budget, columns=columns)
        )
        if rows:
            out.append(renderer.messages(transform.messages(rows)))
            cursor.after_message = rows[-1]["id"]
        if len(rows) == budget:
            return "".join(out)
        out.append(renderer.session_end())
        cursor.open_session = None
        budget -= len(rows)
    if not cursor.heads:
        cursor.heads = tx.export.session_heads(flt, cursor.after_session, CHUNK_SESSIONS)
        if not cursor.heads:
            cursor.done = True
            return "".join(out)
    heads, cursor.heads = cursor.heads, []
    cursor.after_session = heads[-1]["id"]
    rows = tx.export.messages_of([h["id"] for h in heads], budget, columns)
    full = len(rows) == budget
    # Rows come grouped by session in the heads' order: each session's share is its count.
    counts = Counter(map(itemgetter("session_id"), rows))
    at = 0
    for i, head in enumerate(heads):
        out.append(renderer.session(transform.session(head)))
        end = at + counts.get(head["id"], 0)
        if end > at:
            out.append(renderer.messages(transform.messages(rows[at:end])))
        if full and end == len(rows):  # the page ran out inside (or right after) this session
            cursor.open_session = head["id"]
            cursor.after_message = rows[-1]["id"] if end > at else 0
            cursor.heads = heads[i + 1 :]
            return "".join(out)
        out.append(renderer.session_end())
        at = end
    return "".join(out)


async def _sessions(
    db: Store,
    flt: ExportFilter,
    renderer: _Renderer,
    transform: Redaction,
    columns: tuple[str, ...] | None = READABLE_COLUMNS,
) -> AsyncIterator[bytes]:
    cursor = _Cursor()

    def step(tx: Tx) -> str:
        with tx.export.small_page_cache():
            return _chunk(flt, renderer, transform, columns, cursor, tx)

    while not cursor.done:
        text = await db.read(step)
        if text:
            yield text.encode()


@dataclass(frozen=True)
class Redaction:
    """What an export masks: its messages' text, and its sessions' own text (titles, model, prompt, ...)."""

    in_messages: bool
    in_sessions: bool

    def messages(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """``rows`` as the export shows them."""
        return [redact_message(m) for m in rows] if self.in_messages else rows

    def session(self, head: dict[str, Any]) -> dict[str, Any]:
        """A session's columns as the export shows them."""
        return redact_session(head) if self.in_sessions else head


class _RedactedJsonl:
    """The JSONL line format with every message string redacted (session columns are kept)."""

    def __init__(self) -> None:
        self._first = True

    def session(self, head: dict[str, Any]) -> str:
        self._first = True
        return orjson.dumps(head)[:-1].decode() + ',"messages":['

    def messages(self, messages: list[dict[str, Any]]) -> str:
        text = ",".join(orjson.dumps(m).decode() for m in messages)
        sep = "" if self._first or not text else ","
        self._first = self._first and not text
        return sep + text

    def session_end(self) -> str:
        return "]}\n"


class _Traces:
    """Each session's trace lines, one session after another."""

    def __init__(self, redact: bool, timestamp: str) -> None:
        self._redact = redact
        self._timestamp = timestamp
        self._trace: TraceSession | None = None
        self._replay = Replay()

    def session(self, head: dict[str, Any]) -> str:
        self._replay = Replay()
        self._trace = TraceSession(
            str(head["id"]),
            model=head.get("model") or "",
            cwd=head.get("cwd") or "",
            git_branch=head.get("git_branch") or "",
            timestamp=self._timestamp,
            redact=self._redact,
        )
        return ""

    def messages(self, messages: list[dict[str, Any]]) -> str:
        assert self._trace is not None
        return self._trace.messages(self._replay.page(messages))

    def session_end(self) -> str:
        return ""


async def _single(db: Store, flt: ExportFilter) -> bool:
    return await db.read(lambda tx: tx.export.count_sessions(flt, up_to=2)) == 1


async def export_readable(db: Store, req: ExportRequest) -> AsyncIterator[bytes]:
    """The export in a readable or redacted format (``req`` already :func:`checked`)."""
    flt, transform = req.flt, Redaction(bool(req.redact), bool(req.redact))
    if req.layout == "files":
        async for data in _files(db, req):
            yield data
        return
    if req.fmt == "jsonl":
        renderer: _Renderer = PromptRecords() if req.only else _RedactedJsonl()
    elif req.fmt == "trace":
        # A trace redacts its messages itself, as the agent's does.
        renderer, transform = _Traces(bool(req.redact), trace_time()), Redaction(False, bool(req.redact))
    elif req.fmt == "html":
        pages = _html(db, flt, transform)
        if req.lineage == "logical" and flt.session_id is not None:
            pages = _html_lineage(db, flt.session_id, transform)
        async for data in pages:
            yield data
        return
    else:
        single = await _single(db, flt)
        document = PromptDocument(single=single) if req.only else MarkdownDocument(single=single)
        yield document.begin().encode()
        shown = _PROMPT_COLUMNS if req.only else _MARKDOWN_COLUMNS
        async for data in _sessions(db, flt, document, transform, shown):
            yield data
        yield document.end().encode()
        return
    columns = None if isinstance(renderer, _RedactedJsonl) else READABLE_COLUMNS
    async for data in _sessions(db, flt, renderer, transform, columns):
        yield data


async def _html(db: Store, flt: ExportFilter, transform: Redaction) -> AsyncIterator[bytes]:
    count = await db.read(lambda tx: tx.export.count_sessions(flt, up_to=2))
    if not count:
        yield render_html.NO_SESSIONS.encode()
        return
    title = ""
    if count == 1:
        (head,) = await db.read(lambda tx: tx.export.session_heads(flt, after_id="", limit=1))
        title = str(transform.session(head).get("title") or "")
    page = render_html.HtmlPage(
        single=count == 1, title=title, generated_at=render_html.page_clock(), nonce=secrets.token_urlsafe(16)
    )
    yield page.begin().encode()
    if count > 1:
        after = ""
        while True:
            heads = await db.read(functools.partial(_sidebar_rows, flt=flt, after_id=after, limit=1000))
            if not heads:
                break
            yield "".join(page.sidebar(transform.session(h)) for h in heads).encode()
            after = heads[-1]["id"]
    yield page.sidebar_end().encode()
    async for data in _sessions(db, flt, page, transform, _HTML_COLUMNS):
        yield data
    yield page.end().encode()


@dataclass(frozen=True)
class FilePlan:
    """What one session's file will hold, known before it is written: the (tip) session's columns, the
    segment ids root → tip (logical lineage), the messages per segment and the last message id covered."""

    head: dict[str, Any]
    segments: list[str]
    counts: dict[str, int]
    upto_id: int
    logical: bool

    @property
    def total(self) -> int:
        """Messages in the file."""
        return sum(self.counts.get(s, 0) for s in self.segments)

    def name(self, fmt: str, *, redact: bool = False) -> str:
        """The agent's file name for it (from the redacted title, with ``redact``)."""
        return file_name(Redaction(redact, redact).session(self.head), fmt)


def _plan(session_id: str, logical: bool, tx: Tx) -> FilePlan | None:
    ids = tx.lineage.compression_chain(session_id) if logical else [session_id]
    heads = tx.export.sessions_by_id(ids)
    if not heads:
        return None
    segments = [h["id"] for h in heads]
    counts, top = tx.export.message_snapshot(segments)
    head = dict(heads[-1])
    if logical:
        head["message_count"] = sum(counts.values())
    return FilePlan(head, segments, counts, top, logical)


async def plan_file(db: Store, session_id: str, logical: bool) -> FilePlan:
    """The plan of one session's file; 404 when the session does not exist."""
    plan = await db.read(functools.partial(_plan, session_id, logical))
    if plan is None:
        raise SessionNotFound(session_id)
    return plan


async def session_file(
    db: Store, plan: FilePlan, fmt: str, redact: bool, exported_at: float | None = None
) -> AsyncIterator[bytes]:
    """One session's verified Markdown/Quarto file, as the agent's ``write_session_markdown`` writes it."""
    transform = Redaction(redact, redact)
    doc = SessionFile(
        fmt,
        transform.session(plan.head),
        total=plan.total,
        exported_at=time.time() if exported_at is None else exported_at,
        lineage=plan.segments if plan.logical else None,
    )
    yield doc.begin().encode()
    for segment in plan.segments:
        yield doc.segment(segment).encode()
        async for rows in _segment_pages(db, plan, segment, READABLE_COLUMNS):
            yield doc.messages(transform.messages(rows)).encode()
    yield doc.end().encode()


async def _segment_pages(
    db: Store, plan: FilePlan, segment: str, columns: tuple[str, ...]
) -> AsyncIterator[list[dict[str, Any]]]:
    """A segment's messages of ``plan``, a page at a time, each page one short read."""
    after = 0
    while True:
        rows = await db.read(
            functools.partial(
                _message_dicts,
                session_id=segment,
                after_id=after,
                limit=CHUNK_MESSAGES,
                upto_id=plan.upto_id,
                columns=columns,
            )
        )
        if not rows:
            return
        yield rows
        after = rows[-1]["id"]


async def _html_lineage(db: Store, session_id: str, transform: Redaction) -> AsyncIterator[bytes]:
    """The compression lineage through ``session_id`` as one session's page: the agent's HTML of its logical
    record (``export_session_lineage``), as the Markdown file of ``lineage=logical`` is its Markdown."""
    plan = await plan_file(db, session_id, True)
    head = transform.session(plan.head)
    page = render_html.HtmlPage(
        single=True,
        title=str(head.get("title") or ""),
        generated_at=render_html.page_clock(),
        nonce=secrets.token_urlsafe(16),
    )
    yield (page.begin() + page.sidebar_end() + page.session(head)).encode()
    for segment in plan.segments:
        async for rows in _segment_pages(db, plan, segment, _HTML_COLUMNS):
            yield page.messages(transform.messages(rows)).encode()
    yield (page.session_end() + page.end()).encode()


async def _files(db: Store, req: ExportRequest) -> AsyncIterator[bytes]:
    """One verified file per session, one after another (exactly one with a ``session_id``)."""
    assert req.fmt in ("md", "qmd")
    logical = req.lineage == "logical"
    if req.flt.session_id is not None:
        plan = await plan_file(db, req.flt.session_id, logical)
        async for data in session_file(db, plan, req.fmt, bool(req.redact)):
            yield data
        return
    after = ""
    while True:
        heads = await db.read(
            functools.partial(_session_heads, flt=req.flt, after_id=after, limit=CHUNK_SESSIONS)
        )
        if not heads:
            return
        for head in heads:
            found = await db.read(functools.partial(_plan, head["id"], False))
            if found is not None:
                async for data in session_file(db, found, req.fmt, bool(req.redact)):
                    yield data
        after = heads[-1]["id"]


# Reader jobs made in loops with ``functools.partial`` (a lambda would see the loop's later values).
def _sidebar_rows(tx: Tx, *, flt: ExportFilter, after_id: str, limit: int) -> list[dict[str, Any]]:
    return tx.export.sidebar_rows(flt, after_id, limit)


def _session_heads(tx: Tx, *, flt: ExportFilter, after_id: str, limit: int) -> list[dict[str, Any]]:
    return tx.export.session_heads(flt, after_id, limit)


def _message_dicts(
    tx: Tx, *, session_id: str, after_id: int, limit: int, upto_id: int, columns: tuple[str, ...]
) -> list[dict[str, Any]]:
    return tx.export.message_dicts(MessageSlice(session_id, after_id, limit, upto_id, columns))
