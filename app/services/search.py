"""Search over past sessions: the four shapes of the agent's ``session_search`` tool.

``discover`` (a query) returns at most ``limit`` sessions, one per lineage, each with the best hit, a window
around it and the session's bookends. ``scroll`` returns a window around a message, ``read`` a whole
(head + tail) session and ``browse`` the most recently active sessions.

How discover stays cheap on a large store (the reference's engineering notes, B.4): bm25 costs per matching
row, so ranking every match of a common term before the limit is what made broad queries slow. Matches are
therefore taken in rowid tiers of :data:`RANK_TIER` (newest first) and ranked within a tier; the next tier is
only read when the earlier ones did not yield ``limit`` sessions. A query with fewer matches than one tier
(the usual case for specific terms) is ranked exactly like the agent's. ``sort=newest|oldest`` walks the
matches in id order and stops as soon as the limit is filled.

Two-character terms (most CJK words) are shorter than a trigram. They are expanded into the indexed
trigrams that start with them (a range scan of the trigram index's term list, ``hs_trigram_vocab``)
and answered from the trigram index like longer terms. One-character terms, and two-character terms that
expand to more than :data:`MAX_EXPANSION` trigrams, fall back to a substring scan
over id ranges, newest first, in growing chunks that stop once the limit is filled, capped at
:data:`SCAN_CAP` messages per request (``scan_capped`` tells the caller the cap was hit).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NotRequired, TypedDict

from app.domain.messages import decode_content, decode_json_column
from app.domain.preview import preview_from_raw
from app.domain.sources import HIDDEN_SOURCES
from app.errors import AnchorInCurrentLineage, MessageNotInSession, SessionNotFound
from app.storage.protocols import MessageHits, Tx
from app.storage.rows import (
    MAX_PARENT_DEPTH,
    Hit,
    HitBudget,
    HitDetails,
    HitFilter,
    NamedRecord,
    SessionMetaRow,
)

DEFAULT_LIMIT = 3
MAX_LIMIT = 50
DEFAULT_WINDOW = 5
MAX_WINDOW = 20
BOOKEND = 3
READ_HEAD = 20
READ_TAIL = 10
WINDOW_CAP = 4000
BOOKEND_CAP = 1200
RANK_TIER = 1000
# Ranked rowids are filtered (joined to messages and sessions) this many at a time, in rank order.
FILTER_BATCH = 100
ORDERED_CHUNK = 200
SCAN_FIRST_CHUNK = 2000
SCAN_MAX_CHUNK = 64000
SCAN_CAP = 1_000_000
# A short term expanding to more indexed trigrams than this (a very common single character) is scanned.
MAX_EXPANSION = 200
ROLES = frozenset({"system", "user", "assistant", "tool"})
DEFAULT_ROLES = ("user", "assistant")
# The agent's hidden sources, plus ``kanban`` which newer agents write and also hide.
SEARCH_HIDDEN = (*sorted(HIDDEN_SOURCES), "kanban")
_NO_ROWID_LIMIT = 2**63 - 1
NO_MATCH_MESSAGE = "No matching sessions found."


class Sort(StrEnum):
    """Order of message hits before lineage de-duplication."""

    relevance = "relevance"
    newest = "newest"
    oldest = "oldest"


class Detail(StrEnum):
    """``adaptive`` caps message sizes; ``full`` returns them whole."""

    adaptive = "adaptive"
    full = "full"


@dataclass(frozen=True, slots=True)
class SearchRequest:
    """Validated search arguments; the shape follows from which are present."""

    q: str | None = None
    session_id: str | None = None
    around_message_id: int | None = None
    window: int = DEFAULT_WINDOW
    limit: int = DEFAULT_LIMIT
    sort: Sort = Sort.relevance
    roles: tuple[str, ...] = DEFAULT_ROLES
    sources: tuple[str, ...] | None = None
    exclude_sources: tuple[str, ...] = ()
    home: str | None = None
    cwd: str | None = None
    workspace: str | None = None
    current_session_id: str | None = None
    detail: Detail = Detail.adaptive


class SearchMessage(TypedDict):
    """A message as search shows it (tool fields, the anchor flag and the truncation markers only when
    they apply)."""

    id: int
    role: str
    content: Any
    timestamp: float
    tool_name: NotRequired[str]
    tool_calls: NotRequired[Any]
    tool_call_id: NotRequired[str]
    anchor: NotRequired[bool]
    content_truncated: NotRequired[bool]
    original_content_chars: NotRequired[int]


class SessionMeta(TypedDict):
    """The session a scroll or read shows."""

    title: str | None
    source: str | None
    model: str | None
    started_at: float | None


def clamp(value: int, low: int, high: int) -> int:
    """``value`` forced into ``[low, high]`` (the tool clamps rather than rejects)."""
    return max(low, min(value, high))


def search(tx: Tx, req: SearchRequest) -> dict[str, Any]:
    """Run the shape the arguments select: scroll, read, browse or discover (the tool's priority order)."""
    session_id = (req.session_id or "").strip()
    if session_id and req.around_message_id is not None:
        return scroll(tx, req, session_id, req.around_message_id)
    if session_id:
        return read(tx, req, session_id)
    if not req.q or not req.q.strip():
        return browse(tx, req)
    return discover(tx, req)


class _Lineage:
    """Lineage roots by the agent's rule (walk every ``parent_session_id`` link), memoised per request."""

    def __init__(self, tx: Tx) -> None:
        self._tx = tx
        self._roots: dict[str, str] = {}

    def root(self, session_id: str) -> str:
        """The lineage root; loop-safe and depth-capped like the agent's ``_resolve_to_parent``."""
        cached = self._roots.get(session_id)
        if cached is not None:
            return cached
        seen = {session_id}
        current = session_id
        for _ in range(MAX_PARENT_DEPTH):
            parent = self._tx.search.parent_of(current)
            if parent is None or parent in seen:
                break
            if parent in self._roots:
                current = self._roots[parent]
                break
            seen.add(parent)
            current = parent
        for member in seen:
            self._roots[member] = current
        return current

    def root_of_hit(self, hit: Hit) -> str:
        """The lineage root of a hit's session; the hit brought its session's parent along, so a root
        session (the usual case) costs no lookup."""
        if hit.parent_session_id is None:
            return self._roots.setdefault(hit.session_id, hit.session_id)
        return self.root(hit.session_id)


def _hit_filter(req: SearchRequest, cron: bool | None, roles: tuple[str, ...] | None) -> HitFilter:
    return HitFilter(
        roles=roles,
        sources=req.sources,
        exclude_sources=(*SEARCH_HIDDEN, *req.exclude_sources),
        cron=cron,
        home=req.home,
        cwd=req.cwd,
        workspace=req.workspace,
    )


def hit_budget() -> HitBudget:
    """The tuning above as the storage layer takes it; read at each request (tests shrink it)."""
    return HitBudget(
        rank_tier=RANK_TIER,
        filter_batch=FILTER_BATCH,
        ordered_chunk=ORDERED_CHUNK,
        scan_first_chunk=SCAN_FIRST_CHUNK,
        scan_max_chunk=SCAN_MAX_CHUNK,
        scan_cap=SCAN_CAP,
        max_expansion=MAX_EXPANSION,
    )


def _cap(text: Any, cap: int | None) -> tuple[Any, int | None]:
    if cap is None or not isinstance(text, str) or len(text) <= cap:
        return text, None
    return text[:cap], len(text)


def shape_message(row: NamedRecord, anchor_id: int | None = None, cap: int | None = None) -> SearchMessage:
    """A message as search shows it: id, role, content (always), timestamp, tool fields when set, the
    anchor flag, and the truncation markers when ``cap`` cut the content."""
    content, original = _cap(decode_content(row["content"]), cap)
    entry: SearchMessage = {
        "id": row["id"],
        "role": row["role"],
        "content": content,
        "timestamp": row["timestamp"],
    }
    if row["tool_name"]:
        entry["tool_name"] = row["tool_name"]
    tool_calls = decode_json_column(row["tool_calls"], fallback=[])
    if tool_calls:
        entry["tool_calls"] = tool_calls
    if row["tool_call_id"]:
        entry["tool_call_id"] = row["tool_call_id"]
    if anchor_id is not None and row["id"] == anchor_id:
        entry["anchor"] = True
    if original is not None:
        entry["content_truncated"] = True
        entry["original_content_chars"] = original
    return entry


def _caps(detail: Detail) -> tuple[int | None, int | None]:
    return (WINDOW_CAP, BOOKEND_CAP) if detail is Detail.adaptive else (None, None)


def _meta(row: SessionMetaRow) -> SessionMeta:
    return {
        "title": row["title"],
        "source": row["source"],
        "model": row["model"],
        "started_at": row["started_at"],
    }


def _pick(tx: Tx, req: SearchRequest, stream: MessageHits, limit: int) -> dict[str, Hit]:
    """Best hit per lineage, ``limit`` lineages, interactive sources before cron, current lineage out."""
    lineage = _Lineage(tx)
    current = (req.current_session_id or "").strip() or None
    current_root = lineage.root(current) if current else None
    # Compression ancestors of the current session left the live context: their hits stay findable.
    released = set(tx.lineage.compression_ancestors(current)) if current else set()
    picked: dict[str, Hit] = {}
    roles = req.roles or None
    for cron in (False, True):
        for hit in stream.hits(_hit_filter(req, cron, roles)):
            root = lineage.root_of_hit(hit)
            in_context = hit.session_id == current or root == current_root
            if in_context and not hit.compacted and hit.session_id not in released:
                continue
            if root not in picked:
                picked[root] = hit
                if len(picked) >= limit:
                    return picked
    return picked


def _discover_entries(
    req: SearchRequest, picked: dict[str, Hit], details: HitDetails
) -> list[dict[str, Any]]:
    """One result per picked lineage, from the page's details (each kind of lookup made once for all of
    them)."""
    window_cap, bookend_cap = _caps(req.detail)
    results = []
    for (root, hit), found, snippet in zip(picked.items(), details.contexts, details.snippets, strict=True):
        meta: SessionMetaRow | dict[str, Any] = (
            details.metas.get(root) or details.metas.get(hit.session_id) or {}
        )
        entry: dict[str, Any] = {
            "session_id": hit.session_id,
            "title": meta.get("title"),
            "source": meta.get("source") or hit.source,
            "model": meta.get("model"),
            "started_at": meta.get("started_at"),
            "snippet": snippet,
            "match_message_id": hit.id,
            "matched_role": hit.role,
            "bookend_start": [shape_message(r, cap=bookend_cap) for r in found.start],
            # Tool chatter around the hit is dropped from the window; the anchor itself always stays.
            "messages": [
                shape_message(r, hit.id, window_cap)
                for r in found.rows
                if r["id"] == hit.id or r["role"] in DEFAULT_ROLES
            ],
            "bookend_end": [shape_message(r, cap=bookend_cap) for r in found.end],
            "messages_before": found.before,
            "messages_after": found.after,
        }
        if root != hit.session_id:
            entry["parent_session_id"] = root
        results.append(entry)
    return results


def discover(tx: Tx, req: SearchRequest) -> dict[str, Any]:
    """Sessions whose messages match ``q``: one per lineage, best hit first, each with context."""
    limit = clamp(req.limit, 1, MAX_LIMIT)
    window = clamp(req.window, 1, MAX_WINDOW)
    stream = tx.search.message_hits(req.q or "", req.sort.value, hit_budget())
    picked = _pick(tx, req, stream, limit)
    hits = list(picked.values())
    details = stream.details(hits, [*picked, *(hit.session_id for hit in hits)], window, BOOKEND)
    results = _discover_entries(req, picked, details)
    body: dict[str, Any] = {
        "mode": "discover",
        "query": req.q,
        "results": results,
        "count": len(results),
        "scan_capped": stream.scan_capped,
    }
    if not results:
        body["message"] = NO_MATCH_MESSAGE
    # A bulk import's messages are searchable once the background indexer reaches them; say so meanwhile.
    if details.pending:
        body["indexing"] = {"pending_messages": details.pending}
    return body


def _session_or_404(tx: Tx, session_id: str) -> SessionMetaRow:
    meta = tx.search.session_meta(session_id)
    if meta is None:
        raise SessionNotFound(session_id)
    return meta


def scroll(tx: Tx, req: SearchRequest, session_id: str, anchor: int) -> dict[str, Any]:
    """A window of ``±window`` messages around ``anchor`` (no bookends), rebound to the lineage member
    that owns the anchor when the caller named another member of the same lineage."""
    window = clamp(req.window, 1, MAX_WINDOW)
    meta = _session_or_404(tx, session_id)
    lineage = _Lineage(tx)
    current = (req.current_session_id or "").strip()
    if current and lineage.root(current) == lineage.root(session_id):
        raise AnchorInCurrentLineage()
    # Ids beyond SQLite's 64-bit integers cannot exist (and cannot even be bound as parameters).
    owner = tx.search.session_of_message(anchor) if -_NO_ROWID_LIMIT <= anchor <= _NO_ROWID_LIMIT else None
    warning = None
    if owner != session_id:
        if owner is None or lineage.root(owner) != lineage.root(session_id):
            raise MessageNotInSession(session_id, anchor, param="around_message_id")
        warning = f"around_message_id {anchor} lives in {owner} (same lineage as {session_id}); rebound"
        session_id = owner
        meta = _session_or_404(tx, owner)
    rows, before, after = tx.search.around(session_id, anchor, window)
    window_cap, _ = _caps(req.detail)
    body: dict[str, Any] = {
        "mode": "scroll",
        "session_id": session_id,
        "around_message_id": anchor,
        "session_meta": _meta(meta),
        "window": window,
        "messages": [shape_message(r, anchor, window_cap) for r in rows],
        "messages_before": before,
        "messages_after": after,
    }
    if warning:
        body["warning"] = warning
    return body


def read(tx: Tx, req: SearchRequest, session_id: str) -> dict[str, Any]:
    """The session's active messages: all when ≤ 30, else the first 20 and last 10 (``truncated``)."""
    meta = _session_or_404(tx, session_id)
    total, shown = tx.search.head_and_tail(session_id, READ_HEAD, READ_TAIL)
    truncated = total > READ_HEAD + READ_TAIL
    window_cap, _ = _caps(req.detail)
    body: dict[str, Any] = {
        "mode": "read",
        "session_id": session_id,
        "session_meta": _meta(meta),
        "message_count": total,
        "truncated": truncated,
        "messages": [shape_message(r, cap=window_cap) for r in shown],
    }
    if truncated:
        body["message"] = (
            f"Session has {total} messages; showing first {READ_HEAD} + last {READ_TAIL}. "
            "Pass around_message_id (any id above) to scroll the middle."
        )
    return body


def browse(tx: Tx, req: SearchRequest) -> dict[str, Any]:
    """The most recently active root sessions, without the caller's own lineage."""
    limit = clamp(req.limit, 1, MAX_LIMIT)
    skip: list[str] = []
    current = (req.current_session_id or "").strip()
    if current:
        skip = [current, _Lineage(tx).root(current)]
    rows = tx.search.browse(limit, skip, _hit_filter(req, None, None))
    results = [
        {
            "session_id": r["id"],
            "title": r["title"] or None,
            "source": r["source"],
            "started_at": r["started_at"],
            "last_active": r["last_active"],
            "message_count": int(r["message_count"] or 0),
            "preview": preview_from_raw(r["preview_raw"]),
        }
        for r in rows
    ]
    return {
        "mode": "browse",
        "results": results,
        "count": len(results),
        "message": f"Showing {len(results)} most recent sessions. Pass a query= to search, "
        "or session_id+around_message_id to scroll.",
    }
