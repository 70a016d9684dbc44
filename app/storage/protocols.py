"""The storage contract: what services may ask of a backend, one protocol per aggregate.

Services and the API type against :class:`Store` and receive a :class:`Tx` in every writer or reader job
(``store.write(fn)`` / ``read(fn)``, ``fn(tx)``). The SQLite backend (``app.storage.database.Database``, its
``SqliteTx``) binds the functions of ``app/storage/repos`` to the job's connection; another backend (the
``app.storage.postgres`` package, chosen by :func:`app.storage.backends.open_store`) implements the same
protocols. The row and request types (``app.storage.rows``) are part of the contract, re-exported here for
the services. What only a local SQLite file can do (VACUUM, backups, repair, the render workers) is a
:class:`FileStore`, which a store without such a file leaves ``None``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from app.domain.agent_rows import Prepared
from app.domain.id_runs import Run
from app.domain.records import ChatPeer, NewAttachment, NewSession
from app.domain.session_filter import SessionFilter
from app.errors import AgentFileReadOnly
from app.settings import Settings
from app.storage.commit_notice import CommitNotice
from app.storage.leadership import Leadership
from app.storage.rows import (
    AUTO_PRUNE_LEASE_KEY,
    AUTO_PRUNE_STATUS_KEY,
    LAST_AUTO_PRUNE_KEY,
    LINE_CLOSED,
    MAX_PARENT_DEPTH,
    READABLE_COLUMNS,
    AttachmentRef,
    Candidate,
    Checkpoint,
    ChunkPlan,
    EventRow,
    ExportCursor,
    ExportFilter,
    FirstExchange,
    Health,
    Hit,
    HitBudget,
    HitContext,
    HitDetails,
    HitFilter,
    KnownOrigin,
    ListPage,
    ListQuery,
    MessageJsonPage,
    MessageQuery,
    MessageRow,
    MessageSlice,
    NewEvent,
    Opened,
    PageStats,
    PruneCandidate,
    RenderedChunk,
    SessionMetaRow,
    SessionPut,
    SessionRow,
    Skipped,
    StoredAnswer,
    SyncedRows,
    Usage,
    UsageReport,
    WriterStatus,
    chunk_skipped,
    join_chunk,
)

__all__ = [
    "AUTO_PRUNE_LEASE_KEY",
    "AUTO_PRUNE_STATUS_KEY",
    "LAST_AUTO_PRUNE_KEY",
    "LINE_CLOSED",
    "MAX_PARENT_DEPTH",
    "READABLE_COLUMNS",
    "AppendJob",
    "AttachmentsRepo",
    "Candidate",
    "Checkpoint",
    "ChunkPlan",
    "ChunkRenderer",
    "EventRow",
    "EventsRepo",
    "ExportCursor",
    "ExportFilter",
    "ExportRepo",
    "FileStore",
    "FirstExchange",
    "GatewayRepo",
    "HandoffRepo",
    "Health",
    "Hit",
    "HitBudget",
    "HitContext",
    "HitFilter",
    "IdempotencyRepo",
    "IndexingRepo",
    "KnownOrigin",
    "LineageRepo",
    "ListPage",
    "ListQuery",
    "MaintenanceRepo",
    "MessageHits",
    "MessageJsonPage",
    "MessageSlice",
    "MessagesRepo",
    "NamedRecord",
    "NewEvent",
    "PageStats",
    "PlatformsRepo",
    "PruneCandidate",
    "Record",
    "RenderedChunk",
    "SearchRepo",
    "SessionPut",
    "SessionsRepo",
    "Skipped",
    "Store",
    "StoredAnswer",
    "SyncRepo",
    "SyncedRows",
    "TitlesRepo",
    "TransferRepo",
    "Tx",
    "Usage",
    "UsageReport",
    "WriteRejected",
    "WriterStatus",
    "chunk_skipped",
    "join_chunk",
]

T = TypeVar("T")


@dataclass(frozen=True)
class AppendJob(Generic[T]):
    """A write job that starts by appending: ``tx.messages.append_if_open(session_id, messages)``, then
    ``then(tx, stored)`` with what the append stored (``None``: the session does not exist or has ended, and
    nothing was written).

    Run it as any job (``Store.write(job)``). Since its first step, and that step's data, are known before it
    runs, a backend where every statement is a round trip may make the appends of several such jobs queued
    together in one statement ahead of them, in the same transaction; each job's call then answers what its
    append stored."""

    session_id: str
    messages: list[dict[str, Any]]
    then: Callable[[Tx, list[MessageRow] | None], T]

    def __call__(self, tx: Tx) -> T:
        """The append, then the rest of the job."""
        return self.then(tx, tx.messages.append_if_open(self.session_id, self.messages))


class WriteRejected(Exception):
    """A write inside :meth:`Tx.savepoint` failed and was rolled back; the transaction goes on.

    ``reason`` is ``title_in_use`` (another session holds the title) or ``write_failed``.
    """

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


class Record(Protocol):
    """A stored row: its columns by name (or position)."""

    def __getitem__(self, key: str | int, /) -> Any:
        """The column's value."""


class NamedRecord(Protocol):
    """A stored row read by column name only (a ``sqlite3.Row``, or a dict on PostgreSQL)."""

    def __getitem__(self, key: str, /) -> Any:
        """The column's value."""


class SessionsRepo(Protocol):
    """The ``sessions`` rows: existence, the public shape, creation, ending, settings, deletion, listing,
    usage."""

    def session_exists(self, session_id: str) -> bool:
        """Whether a session row exists."""

    def fetch_session(self, session_id: str, *, include_system_prompt: bool = False) -> SessionRow | None:
        """The public Session representation, or ``None`` when there is no such session."""

    def insert_session(self, session_id: str, new: NewSession) -> None:
        """Insert a new session row in the agent's format, then apply ``title`` with the title rules."""

    def end_session(self, session_id: str, end_reason: str) -> bool:
        """End an open session; the first end wins (``False`` when it was already ended or is missing)."""

    def reopen_session(self, session_id: str) -> bool:
        """Clear ``ended_at`` and ``end_reason``; ``False`` when the session is missing."""

    def set_model(self, session_id: str, model: str | None) -> None:
        """Replace the session's model."""

    def set_workspace(self, session_id: str, values: Mapping[str, str | None]) -> None:
        """Replace the workspace columns ``values`` names (``cwd``, ``git_branch``, ``git_repo_root``,
        ``profile_name``); ``None`` clears one."""

    def set_model_config(self, session_id: str, model_config: dict[str, Any] | None) -> None:
        """Replace the session's ``model_config`` (stored as JSON text like the agent; NULL when empty)."""

    def copy_model_config_as_branch(self, parent_id: str, child_id: str) -> None:
        """Give ``child_id`` the parent's stored ``model_config`` text without decoding it in Python (it may
        hold what Python cannot re-encode faithfully), minus ``_delegate_from``, plus ``_branched_from``."""

    def set_archived(self, session_id: str, archived: bool) -> None:
        """Archive or unarchive the whole compression lineage, like the agent's ``set_session_archived``."""

    def pin(self, session_id: str) -> None:
        """Pin a session (a second pin keeps the first time)."""

    def unpin(self, session_id: str) -> None:
        """Remove a session's pin (nothing when it has none)."""

    def delete_session(self, session_id: str) -> list[str] | None:
        """Delete a session like the agent's ``delete_session``; the deleted ids, or ``None`` when missing."""

    def list_sessions_cached(self, q: ListQuery) -> ListPage:
        """:func:`list_sessions`, memoised until the database changes. Callers must not mutate the page."""

    def record_usage(self, session_id: str, usage: Usage) -> None:
        """Apply a usage report to an existing session, as ``SessionDB.update_token_counts`` would."""


class TitlesRepo(Protocol):
    """Session titles: unique titles, ``base #N`` numbering, who set a title."""

    def clean_title(self, title: str | None) -> str | None:
        """The title as :meth:`set_title` would store it (422 ``title_too_long``, ``invalid_title``)."""

    def set_title(self, session_id: str, title: str | None) -> bool:
        """Set (or with ``None`` clear) a session's title; ``False`` when the session does not exist."""

    def next_title_in_lineage(self, base_title: str) -> str:
        """The next free title of a lineage: ``"T"`` if free, else ``"T #<max+1>"`` (agent's rule)."""

    def resolve_by_title(self, title: str) -> str | None:
        """The session a title names: the newest (by ``started_at``) ``"title #N"``, else the exact title."""

    def record_title_source(self, session_id: str, source: str, generator: str | None = None) -> None:
        """Remember who set the title (``user`` or ``auto``); a row also stops any later auto-title."""

    def title_due(self, session_id: str) -> FirstExchange | bool:
        """The exchange to title; otherwise whether the session is settled (``True``: gone, titled, titled
        before, or synced; ``False``: it lacks a first exchange yet)."""

    def apply_auto_title(self, session_id: str, title: str, generator: str) -> str | None:
        """Set a generated title if the session is still untitled and was never titled; the title set or
        None."""


class LineageRepo(Protocol):
    """Compression chains, branches, resolving a reference, and the messages a lineage carries over."""

    def compression_tip(self, session_id: str) -> str:
        """The live end of the compression chain starting at ``session_id`` (itself when nothing continues
        it)."""

    def compression_chain(self, session_id: str) -> list[str]:
        """The conversation through ``session_id``, root → tip: compression ancestors, itself, its tip
        walk."""

    def compression_ancestors(self, session_id: str) -> list[str]:
        """Compression predecessors of a session, nearest first (empty for a root). Loop-safe."""

    def side_children(self, session_id: str) -> list[tuple[str, str]]:
        """The branch and delegate children of a session (not its compression continuation), oldest
        first, each with its kind (``branch`` or ``delegate``)."""

    def is_active_message(self, session_id: str, message_id: int) -> bool:
        """Whether ``message_id`` is an active (not rewound) message of the session."""

    def copy_active_messages(self, source_id: str, target_id: str, up_to_id: int | None = None) -> int:
        """Copy the active messages of ``source_id`` (up to and including ``up_to_id``) into an empty
        ``target_id``, with their attachment links; set the target's counters. Returns the number copied."""

    def conversation_for_recap(self, session_id: str) -> list[dict[str, Any]]:
        """The active user and assistant messages of a session in conversation order (id), decoded."""

    def exact_id(self, ref: str) -> str | None:
        """``ref`` when a session has exactly that id."""

    def ids_with_prefix(self, prefix: str, limit: int) -> list[Candidate]:
        r"""Sessions whose id starts with ``prefix`` (``\``, ``%``, ``_`` taken literally), newest first."""

    def latest_session(self, sources: tuple[str, ...], exclude_sources: tuple[str, ...]) -> str | None:
        """The most recently active session (newest message, else ``started_at``) among ``sources``."""


class MessagesRepo(Protocol):
    """A session's messages: append, pages, windows, rewind and the counters kept on the session."""

    def insert_messages(self, session_id: str, messages: list[dict[str, Any]]) -> list[MessageRow]:
        """Append ``messages`` to an existing session inside the caller's transaction; the stored messages."""

    def append_if_open(self, session_id: str, messages: list[dict[str, Any]]) -> list[MessageRow] | None:
        """:meth:`insert_messages` when the session exists and has not ended; ``None``, with nothing
        written, otherwise (the append hot path: the check and the write in one round trip where each
        statement is one)."""

    def to_messages(self, rows: Sequence[Any]) -> list[MessageRow]:
        """Public messages of ``rows`` with their attachment refs (one extra query for the whole page)."""

    def page(self, query: MessageQuery) -> Sequence[Record]:
        """Up to ``limit + 1`` rows of the query in id order: after ``after``, or the newest ones before
        ``before``, or from the start. The extra row tells the caller there is more (in the paging
        direction)."""

    def around(
        self, query: MessageQuery, anchor_id: int
    ) -> tuple[Sequence[Record], Record, Sequence[Record]] | None:
        """``query.window`` rows before the anchor, the anchor, ``query.window`` rows after (like the
        agent's ``get_messages_around``); the query's filters apply to the neighbours, the anchor is always
        kept. ``None`` when the anchor is not a message of the session."""

    def fetch(self, session_id: str, message_id: int) -> Record | None:
        """One message row of a session (active or not), or ``None``."""

    def rewind(self, session_id: str, target_id: int) -> tuple[int, int | None]:
        """Deactivate the target and every later active message of the session and bump ``rewind_count``, as
        ``SessionDB.rewind_to_message`` does (``message_count`` is left alone, like the agent). Returns
        ``(rewound_count, new_head_id)``; the caller has checked that the target is a user message."""

    def session_end_state(self, session_id: str) -> tuple[bool, bool]:
        """``(exists, ended)`` for a session, in one indexed lookup (the append hot path)."""

    def session_counters(self, session_id: str) -> dict[str, int]:
        """A session's ``message_count`` and ``rewind_count``."""


class EventsRepo(Protocol):
    """The event log behind the SSE streams."""

    def insert(self, event_type: str, session_id: str | None, data: str, now: float) -> None:
        """Append one event."""

    def insert_many(self, rows: Sequence[NewEvent]) -> None:
        """Append several events ``(type, session_id, data, created_at)`` in one statement loop."""

    def after(self, last_id: int, session_id: str | None, limit: int) -> list[EventRow]:
        """Events with ``id > last_id`` in id order, of one session or of all."""

    def tail(self, last_id: int, limit: int) -> list[tuple[int, str, str, str | None]]:
        """Every session's events with ``id > last_id`` in id order, with their session: ``(id, type, data,
        session_id)`` (what the event hub reads once for all its streams)."""

    def latest_id(self) -> int:
        """The newest event id (0 for an empty log)."""

    def prune(self, *, older_than: float, max_rows: int, chunk: int = 10000) -> int:
        """Delete the oldest events that are older than ``older_than`` or beyond the newest ``max_rows``,
        at most ``chunk`` ids' worth per call (each call is one short write); the count, 0 when nothing is
        left."""


class HandoffRepo(Protocol):
    """Handoff state, moved only by compare-and-set statements."""

    def fetch(self, session_id: str) -> dict[str, Any] | None:
        """The handoff of a session (state ``None`` when never requested), or ``None`` for an unknown id."""

    def request(self, session_id: str, platform: str) -> bool:
        """``SessionDB.request_handoff``: NULL/completed/failed → pending; ``False`` while one is in
        flight."""

    def pending_ids(self, platform: str | None, limit: int = 16) -> list[str]:
        """Pending handoffs, oldest session first (``list_pending_handoffs`` order), of one platform or
        all."""

    def claim(self, session_id: str) -> bool:
        """``SessionDB.claim_handoff``: pending → running; ``True`` only for the one caller that won."""

    def complete(self, session_id: str) -> bool:
        """running → completed (the agent's ``complete_handoff`` statement, guarded by the current state)."""

    def fail(self, session_id: str, error: str, only_states: Iterable[str]) -> bool:
        """``fail_handoff(..., only_states=...)``: → failed with ``error`` (already truncated) when the
        current state is one of ``only_states``."""

    def record_request(self, session_id: str, now: float) -> None:
        """A new request forgets the previous attempt's worker and destination."""

    def record_claim(self, session_id: str, worker: str | None, now: float) -> None:
        """Remember which gateway worker claimed the handoff."""

    def record_settled(self, session_id: str, thread: Any, now: float) -> None:
        """Remember where a completed session now lives (``None`` after a failure)."""


class PlatformsRepo(Protocol):
    """Per-platform gateway settings."""

    def fetch(self, platform: str) -> dict[str, Any] | None:
        """One platform's stored settings, or ``None`` if it was never configured."""

    def fetch_all(self) -> dict[str, dict[str, Any]]:
        """Every configured platform, by name."""

    def upsert(
        self, platform: str, *, enabled: bool, home_channel: dict[str, str] | None, threads: bool, now: float
    ) -> None:
        """Replace a platform's settings."""


class AttachmentsRepo(Protocol):
    """Attachment rows and their links to messages."""

    def upsert_attachment(self, new: NewAttachment) -> dict[str, Any]:
        """Insert an attachment unless the same bytes (same SHA-256) are already stored; the stored row."""

    def get_attachment(self, attachment_id: str) -> dict[str, Any] | None:
        """One attachment row (without its extracted text), or ``None``."""

    def refs_for_ids(self, attachment_ids: Sequence[str]) -> dict[str, AttachmentRef]:
        """Attachment refs by id; 422 ``unknown_attachment`` naming the ids that do not exist."""

    def link(self, message_id: int, attachment_ids: Sequence[str]) -> None:
        """Link a message to attachments, in the order given (duplicates collapse to the first)."""

    def refs_for_messages(self, message_ids: Sequence[int]) -> dict[int, list[AttachmentRef]]:
        """Attachment refs of each message (only messages that have some), in link order."""


class MessageHits(Protocol):
    """The message hits of one discover query, produced lazily; each backend plans the query onto its own
    indexes (SQLite: FTS5 tables, PostgreSQL: ``tsvector`` and ``pg_trgm``)."""

    scan_capped: bool

    def hits(self, filt: HitFilter) -> Iterator[Hit]:
        """Hits passing ``filt`` in the request's order (``relevance``: best first, else by id)."""

    def details(self, hits: Sequence[Hit], session_ids: Sequence[str], window: int, count: int) -> HitDetails:
        """What a page of ``hits`` shows: the :meth:`SearchRepo.session_metas` of ``session_ids``, for each
        hit its :meth:`SearchRepo.contexts` and the text around its match (computed only for the rows
        returned), and :meth:`IndexingRepo.pending_messages`; on PostgreSQL in one round trip."""


class SearchRepo(Protocol):
    """Full-text search: bounded hit streams, snippets and the context around a hit."""

    def message_hits(self, query: str, order: str, budget: HitBudget) -> MessageHits:
        """The hits of a user query (our query language) in ``order`` (``relevance``, ``newest`` or
        ``oldest``), doing at most the work ``budget`` allows."""

    def parent_of(self, session_id: str) -> str | None:
        """``parent_session_id`` of a session (``None`` for a root or a missing session)."""

    def session_meta(self, session_id: str) -> SessionMetaRow | None:
        """The session fields search shows, or ``None`` when the session does not exist."""

    def session_metas(self, session_ids: Sequence[str]) -> dict[str, SessionMetaRow]:
        """:meth:`session_meta` of each session that exists, by id."""

    def session_of_message(self, message_id: int) -> str | None:
        """The session owning a message id, or ``None``."""

    def around(self, session_id: str, anchor: int, window: int) -> tuple[Sequence[NamedRecord], int, int]:
        """Up to ``window`` visible messages before the anchor, the anchor, up to ``window`` after (id order),
        plus how many of those windows' neighbours exist beyond it on each side (the agent's counts)."""

    def contexts(self, anchors: Sequence[tuple[str, int]], window: int, count: int) -> list[HitContext]:
        """For each ``(session id, anchor message id)``, in order: :meth:`around` the anchor, and the first
        and last ``count`` user/assistant messages with content outside that window, never compaction
        summaries (the bookends)."""

    def head_and_tail(self, session_id: str, head: int, tail: int) -> tuple[int, Sequence[NamedRecord]]:
        """How many active messages a session has, and all of them when at most ``head + tail``, else the
        first ``head`` and the last ``tail`` (id order; the agent's ``get_messages`` rows), without loading
        the middle of a long session."""

    def browse(self, limit: int, skip: Sequence[str], filt: HitFilter) -> Sequence[NamedRecord]:
        """Most recently active root sessions (children are never browsed), minus ``skip``."""


class IndexingRepo(Protocol):
    """The background FTS indexer's backlog."""

    def pending_messages(self) -> int:
        """Message ids still queued (an upper bound: rows deleted or indexed by the agent meanwhile count)."""

    def has_queued(self, up_to: int) -> bool:
        """Whether any queued run starts at or below message id ``up_to``."""

    def has_dirty(self) -> bool:
        """Whether any session awaits (re-)indexing in the listing's search index."""

    def index_dirty(self, max_sessions: int = ...) -> int | None:
        """Re-derive the listing's search documents of up to ``max_sessions`` dirty sessions; ``None`` when
        none was dirty."""

    def index_next_slice(self, max_messages: int) -> int | None:
        """Index up to ``max_messages`` stored messages of the oldest runs; ``None`` when the backlog is
        empty."""

    def imported_runs(self, session_ids: list[str]) -> list[Run]:
        """The message ids of ``session_ids`` as runs of consecutive ids (gaps-and-islands in SQL)."""

    def queue_runs(self, runs: Iterable[Run]) -> None:
        """Add runs to the backlog; a run starting where a queued one starts widens it."""

    def queued_runs(self, up_to: int) -> list[Run]:
        """The queued runs that start at or below message id ``up_to``."""


class GatewayRepo(Protocol):
    """The gateway's routing entries, its sessions and its processes."""

    def get_entry(self, scope: str, session_key: str) -> str | None:
        """The stored ``entry_json`` of one key, or ``None``."""

    def claim_entry(self, scope: str, session_key: str) -> str | None:
        """The stored ``entry_json`` of one key, or ``None``, with the key held by this transaction until it
        commits: a concurrent writer of the same key (another lane, another replica) waits, then reads what
        this one wrote. Every routing decision reads its entry through this."""

    def put_entry(self, scope: str, session_key: str, entry_json: str) -> None:
        """Insert or replace one key's entry (``updated_at`` = the write time, as the agent stores it)."""

    def delete_entries(self, scope: str, session_keys: list[str]) -> int:
        """Remove keys from the index; how many were there."""

    def page_entries(
        self, scope: str, *, after: str | None, limit: int, platform: str | None, session_id: str | None
    ) -> list[tuple[str, str]]:
        """``(session_key, entry_json)`` in key order after ``after``, optionally filtered on the entry's
        ``platform`` and ``session_id`` members."""

    def iter_entries(self, scope: str) -> Iterator[tuple[str, str]]:
        """Every ``(session_key, entry_json)`` of a scope, in insertion order (for the mirror and
        watchers)."""

    def changed_since(self, scope: str, since: float) -> list[tuple[str, str, float]]:
        """``(session_key, entry_json, updated_at)`` of the rows written at or after ``since``."""

    def last_change(self, scope: str) -> float | None:
        """When a scope's newest row was written (``None``: no rows)."""

    def keys(self, scope: str) -> set[str]:
        """Every key of a scope."""

    def end_reason(self, session_id: str) -> tuple[bool, str | None]:
        """``(exists, end_reason)`` of a session row."""

    def create_session(self, session_id: str, peer: ChatPeer, profile_name: str | None) -> None:
        """``SessionDB.create_session`` as the gateway calls it: a bare row, enriching NULLs on conflict."""

    def record_peer(
        self, session_id: str, peer: ChatPeer, *, display_name: str | None, origin_json: str | None
    ) -> bool:
        """``record_gateway_session_peer``: the row now belongs to this chat (``False`` if it is missing)."""

    def promote_to_reset(self, session_id: str, reason: str) -> bool:
        """``promote_to_session_reset``: end a live row, or one ended by ``agent_close``/``ws_orphan_reap``,
        with ``reason``; an explicit earlier end wins."""

    def reopen(self, session_id: str) -> bool:
        """Clear ``ended_at`` and ``end_reason`` (``reopen_session``)."""

    def set_expiry_finalized(self, session_id: str) -> None:
        """The row's ``expiry_finalized`` flag (the expiry watcher's mark)."""

    def find_recoverable(self, peer: ChatPeer) -> tuple[str, float | None, str | None] | None:
        """``find_latest_gateway_session_for_peer``: the newest live (or accidentally closed) row with
        messages for this key, else for the same peer tuple; ``(id, started_at, session_key)``."""

    def user_message_count(self, session_id: str) -> int:
        """How many user messages a session holds (the count ``/resume`` reports)."""

    def title_of(self, session_id: str) -> str | None:
        """A session's title."""

    def entry_for_session(self, scope: str, session_id: str) -> str | None:
        """The first-stored entry (``entry_json``) routing to ``session_id`` (``lookup_by_session_id``)."""

    def owner_columns(self, session_id: str) -> dict[str, Any]:
        """The columns ``/resume`` proves ownership with: ``source``, ``user_id``, ``chat_id``, ``thread_id``
        (empty when the row is missing)."""

    def put_processes(self, scope: str, session_key: str, started_at: list[float]) -> None:
        """Store the start times of a chat's live background processes; an empty list forgets them."""

    def processes_of(self, scope: str, session_key: str) -> list[float]:
        """The start times last stored for one chat (empty when none)."""

    def all_processes(self, scope: str) -> dict[str, list[float]]:
        """Every chat of a scope with stored processes, and their start times."""

    def delete_processes(self, scope: str, session_keys: list[str]) -> None:
        """Forget the stored processes of these chats."""


class TransferRepo(Protocol):
    """Import: the stored layout, whole sessions with their messages, parent links, bulk indexing."""

    def table_columns(self, table: str) -> dict[str, str]:
        """Column name → declared type (upper case) of one of the agent's tables."""

    def message_defaults(self) -> dict[str, Any]:
        """Declared defaults of the messages columns, evaluated by SQLite (literals and constant
        expressions)."""

    def existing_ids(self, session_ids: Iterable[str]) -> set[str]:
        """The subset of ``session_ids`` already stored."""

    def insert_session(self, item: Prepared, message_columns: list[str], *, replace: bool) -> bool:
        """Write one session and its messages (caller holds a SAVEPOINT); returns whether ids were kept."""

    def link_parent(self, child_id: str, parent_id: str) -> bool:
        """Point ``child_id`` at ``parent_id`` when the parent exists and no cycle results."""

    def detach_parent(self, session_id: str) -> None:
        """Clear the session's parent link (a replaced session whose line names no parent)."""

    def fts_triggers_suspended(self) -> AbstractContextManager[list[str]]:
        """The block runs with the agent's FTS insert triggers suspended; yields the FTS tables whose trigger
        was suspended (those the caller must index itself, :func:`index_sessions`)."""

    def index_sessions(self, tables: list[str], session_ids: list[str]) -> None:
        """Index the messages of ``session_ids`` in ``tables`` with one ``INSERT … SELECT`` per 500
        sessions."""


class SyncRepo(Protocol):
    """``hermes sessions sync``: homes, sessions upserted from a home's file, messages stored once each."""

    def home_id(self, label: str) -> int:
        """The number of the home labelled ``label``, registering it on first use."""

    def session_homes(self, session_ids: Sequence[str]) -> dict[str, int | None]:
        """The stored sessions among ``session_ids`` and the home each came from (``None``: not synced)."""

    def titles_held(self, titles: Sequence[str], session_ids: Sequence[str]) -> dict[str, str]:
        """Title → the session holding it, for each of ``titles`` held and each title one of
        ``session_ids`` holds."""

    def put_sessions(self, home: int, puts: Sequence[SessionPut]) -> None:
        """Write the session rows of ``puts`` (distinct sessions; updates first, then inserts, each in
        order: see :func:`app.storage.repos.sync.put_sessions`) and record each one's home and named
        parent."""

    def link_waiting_parents(self, home: int, session_ids: Sequence[str]) -> int:
        """Link each synced session of ``home`` that is, or names as parent, one of ``session_ids`` to the
        parent its home names, when that parent is stored and no cycle results; how many links were made."""

    def file_id(self, home: int, token: str) -> int:
        """The generation of ``home`` whose file the client calls ``token``, registering it on first use."""

    def known_origins(self, home: int, file_id: int, low: int, high: int) -> list[KnownOrigin]:
        """The stored messages of ``home`` at origin ids between ``low`` and ``high``, any generation's;
        those of other generations than ``file_id`` with ``(session_id, role, content, timestamp)``."""

    def insert_messages(self, home: int, batch: SyncedRows, *, index_inline: bool) -> list[int]:
        """Store the batch's rows under new ids (in row order) with their origin ids; the new ids.
        Searchable at commit with ``index_inline``, else via the background indexer."""


class ExportRepo(Protocol):
    """Export: chunk plans, rendered chunks, one session's lineage and message pages."""

    def plan_chunk(
        self, flt: ExportFilter, start: ExportCursor, *, max_sessions: int, max_messages: int
    ) -> ChunkPlan:
        """Where the chunk beginning at ``start`` ends: at most ``max_sessions`` new sessions and (give or
        take the empty sessions) ``max_messages`` messages, a big session being cut into several chunks."""

    def render_chunk(self, flt: ExportFilter, plan: ChunkPlan, *, sql_render: bool = True) -> RenderedChunk:
        """The bytes of one planned chunk. ``sql_render=False`` encodes every row in Python (the reference the
        SQL rendering must equal, and the fallback when a stored value collides with its float marker or holds
        bytes that are not UTF-8)."""

    def small_page_cache(self, kib: int = 2048) -> AbstractContextManager[None]:
        """Cap this connection's page cache while streaming: an export reads every page exactly once, so a big
        cache would only fill with pages never read again (the reader's usual cache returns afterwards)."""

    def session_rows(self, session_ids: list[str]) -> list[dict[str, Any]]:
        """Every column of these sessions (the agent's ``get_session``) in the order given; missing: left
        out."""

    def active_message_counts(self, session_ids: list[str]) -> dict[str, int]:
        """Active messages per session (sessions without any are left out)."""

    def message_page(
        self, session_id: str, after_id: int, limit: int, *, sql_render: bool = True
    ) -> MessageJsonPage:
        """Up to ``limit`` active messages of a session after ``after_id``."""

    def session_heads(self, flt: ExportFilter, after_id: str, limit: int) -> list[dict[str, Any]]:
        """Up to ``limit`` sessions after ``after_id`` that pass the filter, in id order: every column and
        the agent's ``last_active`` (the readable exports' page of sessions)."""

    def sidebar_rows(self, flt: ExportFilter, after_id: str, limit: int) -> list[dict[str, Any]]:
        """What an HTML page's sidebar shows of up to ``limit`` sessions after ``after_id``: id, title,
        start."""

    def sessions_by_id(self, session_ids: list[str]) -> list[dict[str, Any]]:
        """These sessions' columns and ``last_active`` in the order given (missing ones left out)."""

    def count_sessions(self, flt: ExportFilter, up_to: int) -> int:
        """How many sessions pass the filter, counting no further than ``up_to``."""

    def message_dicts(self, part: MessageSlice) -> list[dict[str, Any]]:
        """The messages of ``part``, decoded as the agent's ``get_messages`` decodes them."""

    def messages_of(
        self, session_ids: list[str], limit: int, columns: tuple[str, ...] | None = None
    ) -> list[dict[str, Any]]:
        """The first ``limit`` active messages of these sessions, in (session id, id) order, decoded."""

    def message_snapshot(self, session_ids: list[str]) -> tuple[dict[str, int], int]:
        """Active messages per session now, and the highest message id now (what a file covers)."""


class IdempotencyRepo(Protocol):
    """The stored answers of creating POSTs sent with an ``Idempotency-Key``."""

    def find(self, key: str, method: str, path: str) -> StoredAnswer | None:
        """The answer stored for ``(key, method, path)``, if any."""

    def store(self, key: str, method: str, path: str, answer: StoredAnswer) -> None:
        """Record the first answer to ``(key, method, path)`` in the caller's transaction."""


class MaintenanceRepo(Protocol):
    """Statistics, prune and archive batches, FTS upkeep, repairs, and ``state_meta`` markers."""

    def get_meta(self, key: str) -> str | None:
        """``state_meta`` value for ``key`` (the agent's ``get_meta``)."""

    def set_meta(self, key: str, value: str) -> None:
        """Upsert ``state_meta`` exactly as the agent's ``set_meta`` does."""

    def delete_meta(self, key: str) -> None:
        """Remove one of our ``state_meta`` keys."""

    def page_stats(self) -> PageStats:
        """``page_size``, ``page_count`` and ``freelist_count`` of the main file."""

    def store_stats(self, include_fts: bool) -> dict[str, Any]:
        """Counts for every source, page accounting, the FTS size (on request: a page walk) and the
        backlog. A backend without a :class:`FileStore` also reports ``database_bytes`` and ``wal_bytes``
        here (the service fills them from the files otherwise)."""

    def usage_report(self, since: float, source: str | None, top: int) -> UsageReport:
        """Tokens and cost by day, model and source, the top tools and activity by UTC hour and weekday."""

    def candidates(
        self, flt: SessionFilter, *, ids: list[str] | None = None, payload: bool = False
    ) -> list[PruneCandidate]:
        """Every session ``flt`` selects (of ``ids`` when given), oldest first; with ``payload``, each with
        its row count and stored payload size."""

    def kept(self, flt: SessionFilter) -> tuple[int, int]:
        """How many sessions ``flt``'s criteria match that a prune leaves alone: (open, pinned and ended)."""

    def prune_batch(self, ids: list[str], flt: SessionFilter) -> tuple[list[str], int]:
        """Delete those of ``ids`` that still qualify; the ids deleted and their message count."""

    def archive_batch(self, ids: list[str], flt: SessionFilter) -> list[str]:
        """Archive those of ``ids`` that still qualify, each with its compression lineage (the agent's
        ``archive_sessions``), leaving pinned members of a lineage as they are; the ids archived."""

    def optimize_fts(self) -> list[str]:
        """Merge each FTS index into one segment (the agent's ``optimize_fts``); returns the tables done."""

    def repair(self, health: Health) -> list[str]:
        """Fix what ``health`` found, in the caller's write transaction; the steps taken."""


class Tx(Protocol):
    """What a writer or reader job receives: every repository, bound to the job's transaction."""

    @property
    def sessions(self) -> SessionsRepo:
        """Sessions."""

    @property
    def titles(self) -> TitlesRepo:
        """Titles."""

    @property
    def lineage(self) -> LineageRepo:
        """Lineage and reference resolution."""

    @property
    def messages(self) -> MessagesRepo:
        """Messages."""

    @property
    def events(self) -> EventsRepo:
        """The event log."""

    @property
    def handoff(self) -> HandoffRepo:
        """Handoffs."""

    @property
    def platforms(self) -> PlatformsRepo:
        """Platform settings."""

    @property
    def attachments(self) -> AttachmentsRepo:
        """Attachments."""

    @property
    def search(self) -> SearchRepo:
        """Full-text search."""

    @property
    def indexing(self) -> IndexingRepo:
        """The FTS indexer's backlog."""

    @property
    def gateway(self) -> GatewayRepo:
        """Gateway routing."""

    @property
    def transfer(self) -> TransferRepo:
        """Import."""

    @property
    def sync(self) -> SyncRepo:
        """Sync from agents' files."""

    @property
    def export(self) -> ExportRepo:
        """Export."""

    @property
    def maintenance(self) -> MaintenanceRepo:
        """Statistics, prune, archive, FTS upkeep and repairs."""

    @property
    def idempotency(self) -> IdempotencyRepo:
        """Idempotency keys."""

    def savepoint(self) -> AbstractContextManager[None]:
        """A nested transaction: released when the block ends, rolled back to when it raises. A storage
        failure that leaves the enclosing transaction alive is raised as :class:`WriteRejected`."""


class ChunkRenderer(Protocol):
    """Worker processes that render planned export chunks beside the request loop."""

    @property
    def workers(self) -> int:
        """How many chunks can render at once."""

    async def render(self, flt: ExportFilter, plan: ChunkPlan) -> RenderedChunk:
        """Render one planned chunk in a worker."""


class FileStore(Protocol):
    """What only a store kept in a local SQLite file offers: its files, VACUUM, ``VACUUM INTO`` backups, the
    repair check, and export render workers reading the file directly. Each call that touches the file is
    blocking (run it on a worker thread) and refused with ``AgentFileReadOnly`` on a read-only store."""

    @property
    def path(self) -> Path:
        """The database file."""

    @property
    def wal_path(self) -> Path:
        """Its write-ahead log."""

    def sizes(self) -> tuple[int, int]:
        """Bytes of the database file and of its write-ahead log (0 when absent)."""

    def checkpoint(self) -> Checkpoint:
        """A TRUNCATE checkpoint of the write-ahead log."""

    def vacuum(self) -> None:
        """Rewrite the file without its free pages."""

    def snapshot(self, target: Path) -> None:
        """A consistent, compact copy of the store at ``target`` (all or nothing, mode 0600)."""

    def health_check(self) -> Health:
        """The repair check (read-only): integrity, the FTS indexes' consistency, a rolled-back write."""

    @property
    def renderer(self) -> ChunkRenderer | None:
        """The export render workers, when configured (``HERMES_EXPORT_WORKERS``)."""


class Store(Protocol):
    """The database as services and the API see it: jobs run in the writer's next group commit or on a
    reader, commit notices follow each commit, and ``files`` offers what only a SQLite file can do."""

    @property
    def settings(self) -> Settings:
        """The settings the store was opened with."""

    @property
    def leadership(self) -> Leadership:
        """Whether this process runs the background jobs now (always on SQLite; the elected replica on
        PostgreSQL)."""

    @property
    def backend(self) -> str:
        """The engine behind the store: ``sqlite`` or ``postgresql``."""

    @property
    def routing_scope(self) -> str:
        """The ``scope`` of the store's gateway routing entries: every server on the store routes in it."""

    @property
    def engine_version(self) -> str:
        """The engine's version (the SQLite library, the PostgreSQL server)."""

    @property
    def agent_schema_version(self) -> int | None:
        """The agent schema version found at open (``None`` for a new store)."""

    @property
    def read_only(self) -> bool:
        """Whether every write is refused (a newer agent's schema)."""

    @property
    def opened(self) -> Opened:
        """What opening the store found: a new store, or an agent's file met for the first time."""

    @property
    def files(self) -> FileStore | None:
        """The SQLite file's own operations, or ``None`` on a store that has no such file."""

    def refusal(self) -> AgentFileReadOnly | None:
        """The error a write receives, or ``None`` when writes are allowed."""

    def watch_read_only(self, listener: Callable[[str | None], None]) -> Callable[[], None]:
        """Call ``listener`` (on any thread) with the reason when the store turns read-only under the
        server, and with ``None`` when it is writable again; returns the function that stops it."""

    def describe_file(self) -> str | None:
        """What the agent file under the store is, as a sentence (``None``: no agent file)."""

    def require_writable(self) -> None:
        """Raise ``AgentFileReadOnly`` if the store must not be written."""

    def write(self, fn: Callable[[Tx], T], *, bulk: bool = False) -> Awaitable[T]:
        """Run ``fn(tx)`` in the next group commit; the result arrives after COMMIT. ``bulk`` marks a long
        job (an import chunk, a sync batch, a prune batch): a backend whose writers run concurrently commits
        it in a transaction of its own, so small writes never wait inside its transaction. An
        :class:`AppendJob` may have its append made ahead, with those of the jobs queued beside it."""

    def write_sync(self, fn: Callable[[Tx], T]) -> T:
        """Blocking ``write`` for code off the event loop."""

    def read(self, fn: Callable[[Tx], T]) -> Awaitable[T]:
        """Run ``fn(tx)`` in one short read transaction."""

    def read_sync(self, fn: Callable[[Tx], T]) -> T:
        """Blocking ``read`` for code off the event loop."""

    async def schema_revision(self) -> str | None:
        """The migration revision the store is stamped with (raises when the store does not answer)."""

    def subscribe(self, subscriber: Callable[[CommitNotice], None]) -> Callable[[], None]:
        """Call ``subscriber(notice)`` on the running event loop after each commit that carried something;
        returns the function that unsubscribes it. A store that never writes never calls it."""

    def writer_status(self) -> WriterStatus | None:
        """The writer's counters for metrics and readiness, or ``None`` when this store has no writer."""

    def close(self) -> None:
        """Finish pending writes and release every connection."""
