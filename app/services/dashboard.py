"""The agent dashboard's session use cases (``/api/sessions*``), composed from the services and repositories.

Each function is a reader or writer job (``fn(tx)``) or an async use case over the store. They answer with
plain data; the dashboard's wire shapes are the HTTP package's business.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.domain.session_filter import SessionFilter
from app.errors import SessionNotFound
from app.services import sessions as svc
from app.services.maintenance import PruneResult, prune_matching
from app.services.search import hit_budget
from app.storage.protocols import Store, Tx
from app.storage.rows import MAX_PARENT_DEPTH, Hit, HitFilter, ListQuery, MessageSlice, SessionRow

# The most rows SQLite or PostgreSQL take as a LIMIT: "all of them".
ALL_ROWS = 2**62
# The agent's cap on one bulk delete.
BULK_DELETE_MAX = 500
# Agent-listed rows take these fields from their compression tip (its ``list_sessions_rich`` projection).
TIP_FIELDS = (
    "id",
    "ended_at",
    "end_reason",
    "message_count",
    "tool_call_count",
    "title",
    "model",
    "system_prompt",
    "cwd",
    "git_branch",
    "git_repo_root",
)
_TERM = re.compile(r'"[^"]*"|\S+')


def resolve_id(tx: Tx, ref: str) -> str | None:
    """An exact id, else the one id ``ref`` is a prefix of; ``None`` for none or several (the agent's
    ``resolve_session_id``)."""
    exact = tx.lineage.exact_id(ref)
    if exact is not None:
        return exact
    found = tx.lineage.ids_with_prefix(ref, 2)
    return found[0].id if len(found) == 1 else None


@dataclass
class ListedRow:
    """One listed conversation: every column of the row as the agent lists it, and our list item."""

    columns: dict[str, Any]
    item: SessionRow
    lineage_root: str | None
    """The compression root a listed row was projected from (``None``: not projected)."""


@dataclass
class Listing:
    """A page of the listing and how many rows it has in all."""

    rows: list[ListedRow] = field(default_factory=list)
    total: int = 0


def listing(tx: Tx, query: ListQuery) -> Listing:
    """One offset page of the listing, each row with all its columns (a projected compression root: its own
    columns with its tip's :data:`TIP_FIELDS`), and the listing's total."""
    page = svc.list_page(tx, query)
    wanted: list[str] = []
    for item in page.items:
        wanted.extend((item["id"], item["lineage_root_id"]))
    columns = {row["id"]: row for row in tx.export.session_rows(list(dict.fromkeys(wanted)))}
    rows = []
    for item in page.items:
        tip = columns.get(item["id"])
        if tip is None:
            continue
        root_id = item["lineage_root_id"]
        root = columns.get(root_id)
        if root_id == item["id"] or root is None or root["end_reason"] != "compression":
            rows.append(ListedRow(dict(tip), item, None))
            continue
        merged = dict(root)
        merged.update({key: tip[key] for key in TIP_FIELDS if key in tip})
        rows.append(ListedRow(merged, item, root_id))
    return Listing(rows, tx.sessions.count_listed(query))


def session_columns(tx: Tx, ref: str) -> dict[str, Any] | None:
    """Every column of the session ``ref`` names (exact id or unique prefix), or ``None``."""
    sid = resolve_id(tx, ref)
    if sid is None:
        return None
    found = tx.export.session_rows([sid])
    return found[0] if found else None


def latest_descendant(tx: Tx, ref: str) -> list[str] | None:
    """The walk from the session ``ref`` names to its newest leaf, always into the most recently started
    child of any kind (the agent dashboard's ``latest-descendant``); ``None`` when no session matches."""
    sid = resolve_id(tx, ref)
    if sid is None:
        return None
    path = [sid]
    seen = {sid}
    while len(path) <= MAX_PARENT_DEPTH:
        fresh = [child for child in tx.lineage.children_newest_first(path[-1]) if child not in seen]
        if not fresh:
            break
        path.append(fresh[0])
        seen.add(fresh[0])
    return path


def messages(tx: Tx, ref: str, limit: int | None, offset: int) -> tuple[str, list[dict[str, Any]]] | None:
    """The messages of the conversation ``ref`` names, read where it goes on (its compression tip), in
    order, ``offset`` passed over and at most ``limit`` of them; ``None`` when no session matches."""
    sid = resolve_id(tx, ref)
    if sid is None:
        return None
    tip = tx.lineage.compression_tip(sid)
    if limit == 0:
        return tip, []
    take = ALL_ROWS if limit is None else min(offset + limit, ALL_ROWS)
    rows = tx.export.message_dicts(MessageSlice(tip, 0, take))
    return tip, rows[offset:]


def export(tx: Tx, ref: str) -> dict[str, Any] | None:
    """A session's columns with all its active messages (the agent's ``export_session``)."""
    columns = session_columns(tx, ref)
    if columns is None:
        return None
    rows = tx.export.message_dicts(MessageSlice(columns["id"], 0, ALL_ROWS))
    return {**columns, "messages": rows}


def stats(tx: Tx) -> dict[str, Any]:
    """Sessions in all, not archived and archived, messages, and sessions per source."""
    counted = tx.maintenance.store_stats(False)
    everything = ListQuery(include_children=True, include_archived=True)
    archived = tx.sessions.count_listed(
        ListQuery(include_children=True, include_archived=True, filter=SessionFilter(archived=True))
    )
    total = tx.sessions.count_listed(everything)
    # Per source, the conversations the listing shows (archived ones too), as the dashboard counts them.
    by_source = {}
    for source in counted["by_source"]:
        listed = tx.sessions.count_listed(ListQuery(include_archived=True, sources=(source,)))
        if listed:
            by_source[source] = listed
    return {
        "total": total,
        "active_store": total - archived,
        "archived": archived,
        "messages": counted["messages"],
        "by_source": by_source,
    }


# Empty sessions: no message, ended, not archived (the agent's rule); prune's own rules keep pinned ones.
EMPTY = SessionFilter(max_messages=0, archived=False)


def count_empty(tx: Tx) -> int:
    """How many sessions ``DELETE /api/sessions/empty`` would delete."""
    return len(tx.maintenance.candidates(EMPTY))


async def delete_empty(db: Store) -> int:
    """Delete the empty sessions through prune (so never an open or a pinned one); how many went."""
    result: PruneResult = await prune_matching(db, EMPTY, dry_run=False)
    return result.pruned


def delete_many(tx: Tx, ids: list[str]) -> int:
    """Delete each existing session of ``ids`` as ``DELETE /sessions/{id}`` does; unknown ids are skipped.
    How many of ``ids`` were deleted."""
    deleted = 0
    for sid in dict.fromkeys(i for i in ids if i):
        if tx.sessions.session_exists(sid):
            svc.delete_session(tx, sid, None)
            deleted += 1
    return deleted


def delete_one(tx: Tx, ref: str) -> bool:
    """Delete the session ``ref`` names; ``False`` when none (or several) match."""
    sid = resolve_id(tx, ref)
    if sid is None:
        return False
    svc.delete_session(tx, sid, None)
    return True


@dataclass(frozen=True)
class Changes:
    """What a dashboard PATCH asks (``None``: leave as it is)."""

    title: str | None = None
    archived: bool | None = None
    pinned: bool | None = None


def update(tx: Tx, ref: str, changes: Changes) -> SessionRow:
    """Apply a dashboard PATCH through the session service; 404 when ``ref`` names no session."""
    sid = resolve_id(tx, ref)
    if sid is None:
        raise SessionNotFound(ref)
    fields: dict[str, Any] = {}
    if changes.title is not None:
        # The dashboard clears a title with an empty one.
        fields["title"] = changes.title or None
    if changes.archived is not None:
        fields["archived"] = changes.archived
    if fields:
        svc.update_session(tx, sid, fields, None)
    if changes.pinned is not None:
        svc.set_pinned(tx, sid, changes.pinned)
    return svc.get_session(tx, sid)


# -- search ---------------------------------------------------------------------------------------


def prefix_query(q: str) -> str:
    """The dashboard's query: each bare term gets a ``*`` (``nimb`` finds ``nimbus``); quoted phrases and
    terms already ending in ``*`` stay as they are."""
    terms = [t if t.startswith('"') or t.endswith("*") else f"{t}*" for t in _TERM.findall(q.strip())]
    return " ".join(terms)


@dataclass
class SearchHit:
    """One result: the lineage's tip and root, and where and what matched."""

    session_id: str
    lineage_root: str
    snippet: str
    role: str | None
    source: str | None
    model: str | None
    session_started: float | None


def _compression_roots(tx: Tx) -> Callable[[str], str]:
    """A session's compression root, memoised for one request."""

    @functools.cache
    def root_of(session_id: str) -> str:
        ancestors = tx.lineage.compression_ancestors(session_id)
        return ancestors[-1] if ancestors else session_id

    return root_of


def search(tx: Tx, q: str, limit: int) -> list[SearchHit]:
    """Sessions whose id starts with ``q``, then sessions whose messages match it, one per compression
    lineage (named by its tip), at most ``limit``; message hits in relevance order over the whole store."""
    root_of = _compression_roots(tx)
    found: dict[str, SearchHit] = {}
    for candidate in tx.lineage.ids_with_prefix(q.strip(), limit):
        root = root_of(candidate.id)
        if root in found:
            continue
        tip = tx.lineage.compression_tip(root)
        shown, first = svc.get_session(tx, tip), svc.get_session(tx, root)
        found[root] = SearchHit(
            tip,
            root,
            shown["preview"].strip() or f"Session ID: {candidate.id}",
            None,
            first["source"],
            shown["model"],
            first["started_at"],
        )
    if len(found) >= limit:
        return list(found.values())
    stream = tx.search.message_hits(prefix_query(q), "relevance", hit_budget())
    picked: dict[str, Hit] = {}
    for hit in stream.hits(HitFilter()):
        root = root_of(hit.session_id)
        if root not in found and root not in picked:
            picked[root] = hit
            if len(found) + len(picked) >= limit:
                break
    hits = list(picked.values())
    details = stream.details(hits, [hit.session_id for hit in hits], 0, 0)
    for (root, hit), snippet in zip(picked.items(), details.snippets, strict=True):
        meta = details.metas.get(hit.session_id)
        found[root] = SearchHit(
            tx.lineage.compression_tip(root),
            root,
            snippet,
            hit.role,
            meta["source"] if meta else hit.source,
            meta["model"] if meta else None,
            meta["started_at"] if meta else None,
        )
    return list(found.values())
