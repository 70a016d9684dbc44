"""The storage contract: what services may ask of a backend.

Services and the API type against :class:`Store` and receive a :class:`Tx` in every writer or reader job
(``store.write(fn)`` / ``read(fn)``, ``fn(tx)``). Each of the Tx's repositories is one class per aggregate
(``app.storage.repos``), whose methods are the repository functions bound to the job's connection; the
SQLite backend (``app.storage.sqlite.tx``) uses them as they are, the PostgreSQL backend
(``app.storage.postgres``, chosen by :func:`app.storage.backends.open_store`) subclasses them where its SQL
differs. Search alone has two unrelated implementations, each planned onto its engine's own indexes, so its
contract is a protocol here (:class:`SearchRepo`). The row and request types live in ``app.storage.rows``.
What only a local SQLite file can do (VACUUM, backups, repair, the render workers) is a :class:`FileStore`,
which a store without such a file leaves ``None``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from app.errors import AgentFileReadOnly
from app.settings import Settings
from app.storage.commit_notice import CommitNotice
from app.storage.leadership import Leadership
from app.storage.repos.attachments import Attachments
from app.storage.repos.events import Events
from app.storage.repos.export_repo import Export
from app.storage.repos.gateway import Gateway
from app.storage.repos.handoff import Handoff
from app.storage.repos.idempotency import Idempotency
from app.storage.repos.indexing import Indexing
from app.storage.repos.lineage_repo import Lineage
from app.storage.repos.maintenance import Maintenance
from app.storage.repos.messages import Messages
from app.storage.repos.platforms import Platforms
from app.storage.repos.sessions_repo import Sessions
from app.storage.repos.sync import Sync
from app.storage.repos.titles_repo import Titles
from app.storage.repos.transfer import Transfer
from app.storage.rows import (
    Checkpoint,
    ChunkPlan,
    ExportFilter,
    Health,
    Hit,
    HitBudget,
    HitContext,
    HitDetails,
    HitFilter,
    MessageRow,
    NamedRecord,
    Opened,
    RenderedChunk,
    SessionMetaRow,
    WriterStatus,
)

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


class MessageHits(Protocol):
    """The message hits of one discover query, produced lazily; each backend plans the query onto its own
    indexes (SQLite: FTS5 tables, PostgreSQL: ``tsvector`` and ``pg_trgm``)."""

    scan_capped: bool

    def hits(self, filt: HitFilter) -> Iterator[Hit]:
        """Hits passing ``filt`` in the request's order (``relevance``: best first, else by id)."""

    def details(self, hits: Sequence[Hit], session_ids: Sequence[str], window: int, count: int) -> HitDetails:
        """What a page of ``hits`` shows: the :meth:`SearchRepo.session_metas` of ``session_ids``, for each
        hit its :meth:`SearchRepo.contexts` and the text around its match (computed only for the rows
        returned), and :meth:`Indexing.pending_messages`; on PostgreSQL in one round trip."""


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


class Tx(Protocol):
    """What a writer or reader job receives: every repository, bound to the job's transaction."""

    @property
    def sessions(self) -> Sessions:
        """Sessions."""

    @property
    def titles(self) -> Titles:
        """Titles."""

    @property
    def lineage(self) -> Lineage:
        """Lineage and reference resolution."""

    @property
    def messages(self) -> Messages:
        """Messages."""

    @property
    def events(self) -> Events:
        """The event log."""

    @property
    def handoff(self) -> Handoff:
        """Handoffs."""

    @property
    def platforms(self) -> Platforms:
        """Platform settings."""

    @property
    def attachments(self) -> Attachments:
        """Attachments."""

    @property
    def search(self) -> SearchRepo:
        """Full-text search."""

    @property
    def indexing(self) -> Indexing:
        """The FTS indexer's backlog."""

    @property
    def gateway(self) -> Gateway:
        """Gateway routing."""

    @property
    def transfer(self) -> Transfer:
        """Import."""

    @property
    def sync(self) -> Sync:
        """Sync from agents' files."""

    @property
    def export(self) -> Export:
        """Export."""

    @property
    def maintenance(self) -> Maintenance:
        """Statistics, prune, archive, FTS upkeep and repairs."""

    @property
    def idempotency(self) -> Idempotency:
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
