"""The shapes that cross the storage contract, whatever the backend: rows handed up, requests handed down.

Neutral ground: the protocols (``app.storage.protocols``), the SQLite repositories and any other backend
import these, and none of them holds SQL. The public rows are plain dicts at run time (the hot paths build
them positionally and the API serialises them with orjson as they are), typed here so services and routes
know their members. The API's pydantic models of these rows are built from them
(``app.api.schemas.row_models.from_row``), adding only their documentation, for OpenAPI; schemathesis
(``tests/api/test_schemathesis.py``) checks every response against them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, NamedTuple, NotRequired, Protocol, TypedDict

from app.domain.session_filter import SessionFilter

# The token counters of a session (and of a usage report), in the agent's column order.
TOKEN_COUNTERS = (
    "input_tokens",
    "output_tokens",
    "cache_read_tokens",
    "cache_write_tokens",
    "reasoning_tokens",
)
# A session's usage totals (its counters and costs), in the agent's column order.
USAGE_FIELDS = (
    "message_count",
    "tool_call_count",
    *TOKEN_COUNTERS,
    "estimated_cost_usd",
    "actual_cost_usd",
    "api_call_count",
)


class HandoffState(TypedDict):
    """The agent's ``sessions.handoff_*`` columns of a session being handed off."""

    state: str
    platform: str | None
    error: str | None


class SessionRow(TypedDict):
    """A session as the API shows it (``app.storage.repos.sessions.row_to_public``).

    The list of its stored shape: the members the repository does not compute, in this order, are the
    agent's columns it selects (``handoff`` standing for the three ``handoff_*``), except those a table of
    ours holds (``own_schema.SESSION_MEMBERS``)."""

    id: str
    title: str | None
    title_source: str | None
    source: str
    user_id: str | None
    model: str | None
    model_config: dict[str, Any] | None
    parent_session_id: str | None
    lineage_root_id: str
    started_at: float
    ended_at: float | None
    end_reason: str | None
    last_active: float
    preview: str
    message_count: int
    tool_call_count: int
    input_tokens: int
    output_tokens: int
    cache_read_tokens: int
    cache_write_tokens: int
    reasoning_tokens: int
    estimated_cost_usd: float | None
    actual_cost_usd: float | None
    api_call_count: int
    archived: bool
    pinned: bool
    home: str | None
    """The label of the home ``hermes sessions sync`` brought the session from (``None``: created here)."""
    session_key: str | None
    chat_id: str | None
    chat_type: str | None
    thread_id: str | None
    cwd: str | None
    git_branch: str | None
    git_repo_root: str | None
    profile_name: str | None
    handoff: HandoffState | None
    has_system_prompt: bool
    system_prompt: NotRequired[str | None]
    """Only when asked for (``include=system_prompt``): list queries never read the body."""


class AttachmentRef(TypedDict):
    """What a message shows of an attachment it references."""

    id: str
    media_type: str
    size: int
    sha256: str
    filename: str | None


class MessageRow(TypedDict):
    """A message as the API shows it (``app.storage.repos.messages.row_to_message``)."""

    id: int
    session_id: str
    role: str
    content: Any
    tool_call_id: str | None
    tool_calls: Any
    tool_name: str | None
    timestamp: float
    token_count: int | None
    finish_reason: str | None
    reasoning: str | None
    reasoning_content: str | None
    reasoning_details: Any
    attachments: list[AttachmentRef]
    active: bool
    compacted: bool


@dataclass(frozen=True)
class MessageQuery:
    """What ``GET /sessions/{id}/messages`` asks for: a page in id order, or a window ``around`` a message."""

    session_id: str
    limit: int = 100
    after: int | None = None
    before: int | None = None
    around: int | None = None
    window: int = 5
    roles: tuple[str, ...] = ()
    include_inactive: bool = False


class SessionMetaRow(TypedDict):
    """The session columns search shows beside its hits (``SearchRows.session_meta`` in
    ``app.storage.repos.search``)."""

    id: str
    title: str | None
    source: str
    model: str | None
    started_at: float
    parent_session_id: str | None


class HitContext(NamedTuple):
    """What discover shows around a hit: the window (``rows``, id order, the hit among them), how many
    messages lie beyond it on each side, and the bookends outside it (``start``, ``end``, id order)."""

    rows: Sequence[Any]
    before: int
    after: int
    start: Sequence[Any]
    end: Sequence[Any]


@dataclass(frozen=True, slots=True)
class HitDetails:
    """What a page of discover results shows besides the hits: their sessions' fields by id (``metas``),
    each hit's context and snippet, in the hits' order, and how many messages wait for the search indexer
    (``pending``, as ``Indexing.pending_messages``)."""

    metas: dict[str, SessionMetaRow]
    contexts: list[HitContext]
    snippets: list[str]
    pending: int


EventRow = tuple[int, str, str]
"""``(id, type, data)``: what a stream sends (data is stored as the JSON text it is sent as)."""

NewEvent = tuple[str, str | None, str, float]
"""``(type, session_id, data, created_at)``: an event to append."""


@dataclass(frozen=True)
class ExportFilter:
    """Which sessions an export covers: every stored row (children and archived ones too) that meets all
    that is given. ``filter`` is the agent's filter set, judged on each row as the listing does with
    ``include_children``; ``status`` is the listing's (``ended``: ``ended_at`` set)."""

    source: str | None = None
    session_id: str | None = None
    since: float | None = None
    filter: SessionFilter = field(default_factory=SessionFilter)
    status: Literal["active", "ended", "all"] = "all"


@dataclass(frozen=True)
class ExportCursor:
    """Where a chunk starts: after a session id, or inside a session's message list (after a message id)."""

    after_session_id: str = ""
    open_session_id: str | None = None
    after_message_id: int = 0


@dataclass(frozen=True)
class ChunkPlan:
    """One chunk: from ``start`` through the session ``upto_session_id`` (``None``: no new session), whose
    message list stops after ``cut_message_id`` and stays open when that is set; ``next`` starts the next
    chunk (``None``: this is the last one). With no new session, the cut applies to the open session."""

    start: ExportCursor
    upto_session_id: str | None
    cut_message_id: int | None
    next: ExportCursor | None


@dataclass(frozen=True)
class Skipped:
    """A stored row the export could not write: a value that is not text JSON can hold (a BLOB, or TEXT
    bytes that are not UTF-8). ``message_id`` ``None``: the session's own row, so the whole session."""

    session_id: str
    message_id: int | None
    column: str
    reason: str


# Where the stream stands between chunks: no line open, a line open whose message list is still empty,
# or one that already holds a message (the next one needs a comma). ``False`` means closed too.
LINE_CLOSED, LINE_EMPTY, LINE_OPEN = 0, 1, 2


@dataclass(frozen=True)
class RenderedChunk:
    """A rendered chunk in two parts: ``continuation`` holds more messages of the line the previous chunk
    left open (comma-separated, ``closes``: then that line ends) and ``body`` the chunk's own sessions.
    ``open_after`` is the line state the body leaves (``None``: the chunk only continued the open line).
    The rows each part left out are in ``continuation_skipped`` and ``body_skipped``.

    Each chunk reads its own snapshot, so a session cut between two chunks may exist in only one of them
    (deleted, or deleted and imported again, in between); :func:`join_chunk` then drops a continuation whose
    head was never written, so every line stays whole.
    """

    continuation: bytes
    closes: bool
    body: bytes
    open_after: int | None
    continuation_skipped: tuple[Skipped, ...] = ()
    body_skipped: tuple[Skipped, ...] = ()


def join_chunk(line: int, chunk: RenderedChunk) -> tuple[bytes, int]:
    """The bytes to send for ``chunk`` after chunks that left the stream in ``line`` state, and the state
    after it."""
    if line == LINE_CLOSED:
        data = chunk.body
    else:
        more = chunk.continuation
        if more:
            more = b"," + more if line == LINE_OPEN else more
            line = LINE_OPEN
        data = more + b"]}\n" + chunk.body if chunk.closes else more + chunk.body
        if chunk.closes:
            line = LINE_CLOSED
    return data, line if chunk.open_after is None else chunk.open_after


def chunk_skipped(line: int, chunk: RenderedChunk) -> tuple[Skipped, ...]:
    """The rows left out of what :func:`join_chunk` sends for ``chunk``."""
    return chunk.body_skipped if line == LINE_CLOSED else chunk.continuation_skipped + chunk.body_skipped


# What the readable renderers read of a message; the redacted JSONL reads every column.
READABLE_COLUMNS = (
    "id",
    "session_id",
    "role",
    "content",
    "tool_call_id",
    "tool_calls",
    "tool_name",
    "timestamp",
    "reasoning",
    "reasoning_content",
    "platform_message_id",
)


class MessageJsonPage(NamedTuple):
    """Up to a page of a session's messages as comma-separated JSON objects, the last id read (``None``:
    nothing left) and the rows left out of ``data``."""

    data: bytes
    last_id: int | None
    skipped: tuple[Skipped, ...]


@dataclass(frozen=True)
class FtsHealth:
    """One FTS index: its own integrity check, messages it lacks, rows of messages that are gone."""

    table: str
    index_error: str | None
    missing: int
    orphaned: int

    def problems(self) -> list[str]:
        """What is wrong with this index, in words."""
        out = [f"{self.table}: {self.index_error}"] if self.index_error else []
        if self.missing:
            out.append(f"{self.table}: {self.missing} message(s) missing from the search index")
        if self.orphaned:
            out.append(f"{self.table}: {self.orphaned} index row(s) of deleted messages")
        return out


@dataclass(frozen=True)
class Health:
    """The result of a check; healthy when it has no problems."""

    integrity: list[str] = field(default_factory=list)
    fts: list[FtsHealth] = field(default_factory=list)
    write_error: str | None = None
    sessions: int = 0

    def problems(self) -> list[str]:
        """Every problem found, in words (empty: healthy)."""
        out = list(self.integrity)
        for index in self.fts:
            out += index.problems()
        if self.write_error:
            out.append(f"a write through the search index fails: {self.write_error}")
        return out


@dataclass(frozen=True)
class StoredAnswer:
    """The answer recorded for a key, and the digest of the request body that produced it."""

    body_sha256: str
    status: int
    body: bytes
    headers: dict[str, str]


# state_meta keys. ``last_auto_prune`` is the agent's own marker (a float string), so the agent and this
# server keep one schedule; the ``hs_`` keys are ours and the agent ignores them.
LAST_AUTO_PRUNE_KEY = "last_auto_prune"
AUTO_PRUNE_STATUS_KEY = "hs_auto_prune_status"
AUTO_PRUNE_LEASE_KEY = "hs_auto_prune_lease"


@dataclass(frozen=True)
class PageStats:
    """Page accounting of the main database file."""

    page_size: int
    page_count: int
    freelist_count: int


@dataclass(frozen=True)
class UsageReport:
    """The groups behind ``GET /insights`` for sessions started since a moment."""

    by_day: list[dict[str, Any]]
    by_model: list[dict[str, Any]]
    by_source: list[dict[str, Any]]
    top_tools: list[dict[str, Any]]
    hours: dict[int, int]
    weekdays: dict[int, int]


@dataclass(frozen=True)
class PruneCandidate:
    """A session a prune or an archive selects: the agent's ``list_prune_candidates`` row, plus (for a
    prune) what deleting it frees."""

    id: str
    source: str
    title: str | None
    model: str | None
    started_at: float
    ended_at: float | None
    message_count: int
    archived: bool
    payload_bytes: int = 0


@dataclass(frozen=True)
class Candidate:
    """A session an ambiguous reference could mean."""

    id: str
    title: str | None


MAX_PARENT_DEPTH = 100


@dataclass(frozen=True, slots=True)
class HitFilter:
    """Row filters shared by every hit query. ``cron``: True only cron sessions, False none, None both;
    ``home``: only sessions synced from the home with that label; ``cwd``: only sessions run in that
    directory or under it; ``workspace``: only those whose workspace contains it (the listing's filters)."""

    roles: tuple[str, ...] | None = None
    sources: tuple[str, ...] | None = None
    exclude_sources: tuple[str, ...] = ()
    cron: bool | None = None
    home: str | None = None
    cwd: str | None = None
    workspace: str | None = None


@dataclass(frozen=True, slots=True)
class HitBudget:
    """How much work one request's hit stream may do (the service's tuning, passed down per request).

    ``rank_tier``: matches ranked together, newest first; ``filter_batch``: ranked ids filtered per query;
    ``ordered_chunk``: matches per step in id order; ``scan_first_chunk``/``scan_max_chunk``: the id range of
    a substring scan's first and largest step; ``scan_cap``: ids a scan may cover per request;
    ``max_expansion``: indexed trigrams a two-character term may expand to before it is scanned."""

    rank_tier: int
    filter_batch: int
    ordered_chunk: int
    scan_first_chunk: int
    scan_max_chunk: int
    scan_cap: int
    max_expansion: int


@dataclass(frozen=True, slots=True)
class Hit:
    """One matching message."""

    id: int
    session_id: str
    role: str
    source: str | None
    compacted: bool
    parent_session_id: str | None = None
    """The hit's session's parent (``None`` for a root): a root's lineage needs no lookup."""


Status = Literal["active", "ended", "all"]
Order = Literal["started", "last_active"]


@dataclass(frozen=True)
class ListQuery:
    """What to list; ``after`` is the decoded cursor position of the previous page's last row."""

    limit: int = 20
    sources: tuple[str, ...] = ()
    exclude_sources: tuple[str, ...] = ()
    status: Status = "all"
    include_children: bool = False
    include_archived: bool = False
    order: Order = "started"
    search: str | None = None
    filter: SessionFilter = field(default_factory=SessionFilter)
    after: dict[str, Any] | None = None
    # Only pinned sessions (the web page's pinned view; the JSON listing has no such parameter yet).
    pinned_only: bool = False
    # Listed rows to pass over before the page (the agent dashboard's offset paging; ours uses ``after``).
    offset: int = 0


@dataclass
class ListPage:
    """A page of public sessions and the cursor position after its last row (``None`` on the last page)."""

    items: list[SessionRow] = field(default_factory=list)
    next_position: dict[str, Any] | None = None


@dataclass(frozen=True)
class FirstExchange:
    """The first active user message and first active assistant reply with text of a session."""

    user: str
    assistant: str


@dataclass(frozen=True)
class Usage:
    """One usage report: deltas (``absolute=False``) or cumulative totals (``absolute=True``)."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    reasoning_tokens: int = 0
    api_call_count: int = 0
    estimated_cost_usd: float | None = None
    actual_cost_usd: float | None = None
    model: str | None = None
    billing_provider: str | None = None
    billing_base_url: str | None = None
    billing_mode: str | None = None
    absolute: bool = False

    @property
    def accounted(self) -> bool:
        """Whether the report carries any usage at all (the agent ignores route fields otherwise)."""
        return bool(
            self.input_tokens
            or self.output_tokens
            or self.cache_read_tokens
            or self.cache_write_tokens
            or self.reasoning_tokens
            or self.api_call_count
            or self.estimated_cost_usd
            or self.actual_cost_usd
        )


@dataclass(frozen=True)
class Checkpoint:
    """What a TRUNCATE checkpoint of the write-ahead log reported."""

    busy: int
    log_frames: int
    checkpointed_frames: int


@dataclass(frozen=True)
class WriterStatus:
    """The writer's counters, as metrics and readiness show them."""

    alive: bool
    queue_depth: int
    commits: int
    jobs_committed: int
    batch_sizes: dict[int, int] = field(default_factory=dict)
    """Group commits by the number of jobs they carried."""


@dataclass(frozen=True, slots=True)
class MessageSlice:
    """Active messages of one session after ``after_id`` (and at most ``upto_id``), at most ``limit`` of them;
    only ``columns`` (those stored) when given."""

    session_id: str
    after_id: int
    limit: int
    upto_id: int | None = None
    columns: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class SessionPut:
    """A synced session row to write: the agent's columns (``id`` among them), the parent its home names,
    and whether it overwrites the stored row (else it is inserted)."""

    values: dict[str, Any]
    origin_parent_id: str | None
    update: bool


@dataclass(frozen=True, slots=True)
class SyncedRows:
    """Message rows of a home's file (``session_id`` then ``columns``), each with its id in that file, and
    the file's generation of the home (``hs_sync_files``; 0 for a client that names none)."""

    origin_ids: Sequence[int]
    rows: Sequence[Sequence[Any]]
    columns: Sequence[str]
    file_id: int = 0


@dataclass(frozen=True, slots=True)
class KnownOrigin:
    """A stored message of a home at one origin id: the generation that delivered it and, when that is not
    the generation asking, what the message says (so an identical one from a copy of the file is known)."""

    origin_id: int
    file_id: int
    message: tuple[Any, ...] | None


@dataclass(frozen=True)
class Opened:
    """What opening the store found, for the start-up banner (a store that keeps no file says nothing)."""

    created: bool = False
    """This start made the store, empty: nothing was there."""
    adopted_schema: int | None = None
    """An agent's file met for the first time (our first migration ran on it now): its schema version."""
    adopted: bool = False
    """Whether ``adopted_schema`` describes such a file (its version may be unknown)."""
    backup: Path | None = None
    """The one-time copy of that file taken first, when one was."""


class Record(Protocol):
    """A stored row: its columns by name (or position)."""

    def __getitem__(self, key: str | int, /) -> Any:
        """The column's value."""


class NamedRecord(Protocol):
    """A stored row read by column name only (a ``sqlite3.Row``, or a dict on PostgreSQL)."""

    def __getitem__(self, key: str, /) -> Any:
        """The column's value."""
