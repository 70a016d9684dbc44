"""The SQLite backend of the storage contract: :class:`SqliteTx` binds the repository functions of
``app/storage/repos`` to one connection, and those that note what they write to the handle's change record.

A handle is made once per connection (the writer's, each reader thread's) and reused by every job on it;
a repository call through it costs a ``functools.partial`` more than calling the module function with the
connection. The writer takes a job's record off its handle after the job, and clears it for the next one.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from contextlib import AbstractContextManager
from functools import partial
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, overload

from app.domain.session_filter import SessionFilter
from app.storage.commit_notice import Changes
from app.storage.repos import (
    attachments,
    events,
    export,
    export_pages,
    fts_backlog,
    gateway,
    handoff,
    health,
    idempotency,
    lineage,
    lineage_messages,
    list_index,
    maintenance,
    messages,
    pins,
    platforms,
    resolve,
    search,
    session_list,
    sessions,
    sync,
    title_sources,
    titles,
    transfer,
    usage,
)
from app.storage.repos.search_hits import SqliteHits
from app.storage.rows import HitBudget, ListPage, ListQuery, PruneCandidate
from app.storage.sqlite_driver import sqlite3
from app.storage.transactions import rejectable

P = ParamSpec("P")
R = TypeVar("R")


class _Bound:
    """A repository over one connection; its methods are the module functions with the connection bound."""

    __slots__ = ("conn",)

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn


class bound(Generic[P, R]):
    """Descriptor turning the module function ``fn(conn, ...)`` into the method ``repo.fn(...)``.

    The function is looked up in its module at each access (a dictionary lookup and a ``partial``), so the
    handle always calls what the module holds now, as a direct call would.
    """

    def __init__(self, fn: Callable[Concatenate[sqlite3.Connection, P], R]) -> None:
        self.module = sys.modules[fn.__module__]
        self.name = fn.__name__

    @overload
    def __get__(self, obj: None, owner: type) -> bound[P, R]: ...

    @overload
    def __get__(self, obj: _Bound, owner: type) -> Callable[P, R]: ...

    def __get__(self, obj: _Bound | None, owner: type) -> Any:
        if obj is None:
            return self
        return partial(getattr(self.module, self.name), obj.conn)


class recorded(Generic[P, R]):
    """Descriptor turning the module function ``fn(conn, changes, ...)`` into the method ``repo.fn(...)`` of
    a :class:`_Recording` repository: what it writes is noted in the repository's change record."""

    def __init__(self, fn: Callable[Concatenate[sqlite3.Connection, Changes, P], R]) -> None:
        self.module = sys.modules[fn.__module__]
        self.name = fn.__name__

    @overload
    def __get__(self, obj: None, owner: type) -> recorded[P, R]: ...

    @overload
    def __get__(self, obj: _Recording, owner: type) -> Callable[P, R]: ...

    def __get__(self, obj: _Recording | None, owner: type) -> Any:
        if obj is None:
            return self
        return partial(getattr(self.module, self.name), obj.conn, obj.changes)


class _Recording(_Bound):
    """A repository over one connection whose writes are noted in ``changes``, its handle's record."""

    __slots__ = ("changes",)

    def __init__(self, conn: sqlite3.Connection, changes: Changes) -> None:
        super().__init__(conn)
        self.changes = changes


class SqliteSessions(_Bound):
    """SessionsRepo over one connection, with the connection's memo of listing pages."""

    __slots__ = ("listings",)

    def __init__(self, conn: sqlite3.Connection) -> None:
        super().__init__(conn)
        self.listings = session_list.ListingMemo()

    def list_sessions_cached(self, q: ListQuery) -> ListPage:
        """One listing page, memoised until the database changes (see ``session_list``)."""
        return session_list.list_sessions_cached(self.conn, self.listings, q)

    session_exists = bound(sessions.session_exists)
    fetch_session = bound(sessions.fetch_session)
    insert_session = bound(sessions.insert_session)
    end_session = bound(sessions.end_session)
    reopen_session = bound(sessions.reopen_session)
    set_model = bound(sessions.set_model)
    set_workspace = bound(sessions.set_workspace)
    set_model_config = bound(sessions.set_model_config)
    copy_model_config_as_branch = bound(sessions.copy_model_config_as_branch)
    set_archived = bound(sessions.set_archived)
    delete_session = bound(sessions.delete_session)
    pin = bound(pins.pin)
    unpin = bound(pins.unpin)
    count_listed = bound(session_list.count_listed_cached)
    record_usage = bound(usage.record_usage)


class SqliteTitles(_Bound):
    """TitlesRepo over one connection."""

    __slots__ = ()
    clean_title = staticmethod(titles.clean_title)
    set_title = bound(titles.set_title)
    next_title_in_lineage = bound(titles.next_title_in_lineage)
    resolve_by_title = bound(titles.resolve_by_title)
    record_title_source = bound(title_sources.record_title_source)
    title_due = bound(title_sources.title_due)
    apply_auto_title = bound(title_sources.apply_auto_title)


class SqliteLineage(_Recording):
    """LineageRepo over one connection."""

    __slots__ = ()
    compression_tip = bound(lineage.compression_tip)
    compression_chain = bound(lineage.compression_chain)
    compression_ancestors = bound(lineage.compression_ancestors)
    side_children = bound(lineage.side_children)
    children_newest_first = bound(lineage.children_newest_first)
    is_active_message = bound(lineage_messages.is_active_message)
    copy_active_messages = recorded(lineage_messages.copy_active_messages)
    conversation_for_recap = bound(lineage_messages.conversation_for_recap)
    exact_id = bound(resolve.exact_id)
    ids_with_prefix = bound(resolve.ids_with_prefix)
    latest_session = bound(resolve.latest_session)


class SqliteMessages(_Recording):
    """MessagesRepo over one connection."""

    __slots__ = ()
    insert_messages = recorded(messages.insert_messages)
    append_if_open = recorded(messages.append_if_open)
    to_messages = bound(messages.to_messages)
    page = bound(messages.page)
    around = bound(messages.around)
    fetch = bound(messages.fetch)
    rewind = bound(messages.rewind)
    session_end_state = bound(messages.session_end_state)
    session_counters = bound(messages.session_counters)


class SqliteEvents(_Recording):
    """EventsRepo over one connection."""

    __slots__ = ()
    insert = recorded(events.insert)
    insert_many = recorded(events.insert_many)
    after = bound(events.after)
    tail = bound(events.tail)
    latest_id = bound(events.latest_id)
    prune = bound(events.prune)


class SqliteHandoff(_Bound):
    """HandoffRepo over one connection."""

    __slots__ = ()
    fetch = bound(handoff.fetch)
    request = bound(handoff.request)
    pending_ids = bound(handoff.pending_ids)
    claim = bound(handoff.claim)
    complete = bound(handoff.complete)
    fail = bound(handoff.fail)
    record_request = bound(handoff.record_request)
    record_claim = bound(handoff.record_claim)
    record_settled = bound(handoff.record_settled)


class SqlitePlatforms(_Bound):
    """PlatformsRepo over one connection."""

    __slots__ = ()
    fetch = bound(platforms.fetch)
    fetch_all = bound(platforms.fetch_all)
    upsert = bound(platforms.upsert)


class SqliteAttachments(_Bound):
    """AttachmentsRepo over one connection."""

    __slots__ = ()
    upsert_attachment = bound(attachments.upsert_attachment)
    get_attachment = bound(attachments.get_attachment)
    refs_for_ids = bound(attachments.refs_for_ids)
    link = bound(attachments.link)
    refs_for_messages = bound(attachments.refs_for_messages)


class SqliteSearch(_Bound):
    """SearchRepo over one connection."""

    __slots__ = ()

    parent_of = bound(search.parent_of)
    session_meta = bound(search.session_meta)
    session_metas = bound(search.session_metas)
    session_of_message = bound(search.session_of_message)
    around = bound(search.around)
    contexts = bound(search.contexts)
    head_and_tail = bound(search.head_and_tail)
    browse = bound(search.browse)

    def message_hits(self, query: str, order: str, budget: HitBudget) -> SqliteHits:
        """The hits of a user query, planned onto the FTS5 tables (see ``search_hits``)."""
        return SqliteHits(self.conn, query, order, budget)


class SqliteIndexing(_Recording):
    """IndexingRepo over one connection."""

    __slots__ = ()
    pending_messages = bound(fts_backlog.pending_messages)
    has_queued = bound(fts_backlog.has_queued)
    index_next_slice = bound(fts_backlog.index_next_slice)
    has_dirty = bound(list_index.has_dirty)
    index_dirty = bound(list_index.index_dirty)
    imported_runs = bound(fts_backlog.imported_runs)
    queue_runs = recorded(fts_backlog.queue_runs)
    queued_runs = bound(fts_backlog.queued_runs)


class SqliteGateway(_Recording):
    """GatewayRepo over one connection (changes to the routing table noted for the mirror)."""

    __slots__ = ()
    get_entry = bound(gateway.get_entry)
    # The writer is the file's only one (BEGIN IMMEDIATE), so reading is holding.
    claim_entry = bound(gateway.get_entry)
    put_entry = recorded(gateway.put_entry)
    delete_entries = recorded(gateway.delete_entries)
    page_entries = bound(gateway.page_entries)
    iter_entries = bound(gateway.iter_entries)
    changed_since = bound(gateway.changed_since)
    last_change = bound(gateway.last_change)
    keys = bound(gateway.keys)
    end_reason = bound(gateway.end_reason)
    create_session = bound(gateway.create_session)
    record_peer = bound(gateway.record_peer)
    promote_to_reset = bound(gateway.promote_to_reset)
    reopen = bound(sessions.reopen_session)
    set_expiry_finalized = bound(gateway.set_expiry_finalized)
    find_recoverable = bound(gateway.find_recoverable)
    user_message_count = bound(gateway.user_message_count)
    title_of = bound(gateway.title_of)
    entry_for_session = bound(gateway.entry_for_session)
    owner_columns = bound(gateway.owner_columns)
    put_processes = bound(gateway.put_processes)
    processes_of = bound(gateway.processes_of)
    all_processes = bound(gateway.all_processes)
    delete_processes = bound(gateway.delete_processes)


class SqliteTransfer(_Bound):
    """TransferRepo over one connection."""

    __slots__ = ()
    table_columns = bound(transfer.table_columns)
    message_defaults = bound(transfer.message_defaults)
    existing_ids = bound(transfer.existing_ids)
    insert_session = bound(transfer.insert_session)
    link_parent = bound(transfer.link_parent)
    detach_parent = bound(transfer.detach_parent)
    fts_triggers_suspended = bound(transfer.fts_triggers_suspended)
    index_sessions = bound(transfer.index_sessions)


class SqliteSync(_Recording):
    """SyncRepo over one connection."""

    __slots__ = ()
    home_id = bound(sync.home_id)
    session_homes = bound(sync.session_homes)
    titles_held = bound(sync.titles_held)
    put_sessions = bound(sync.put_sessions)
    link_waiting_parents = bound(sync.link_waiting_parents)
    file_id = bound(sync.file_id)
    known_origins = bound(sync.known_origins)
    insert_messages = recorded(sync.insert_messages)


class SqliteExport(_Bound):
    """ExportRepo over one connection."""

    __slots__ = ()
    plan_chunk = bound(export.plan_chunk)
    render_chunk = bound(export.render_chunk)
    small_page_cache = bound(export.small_page_cache)
    session_rows = bound(export.session_rows)
    active_message_counts = bound(export.active_message_counts)
    message_page = bound(export.message_page)
    session_heads = bound(export_pages.session_heads)
    sidebar_rows = bound(export_pages.sidebar_rows)
    sessions_by_id = bound(export_pages.sessions_by_id)
    count_sessions = bound(export_pages.count_sessions)
    message_dicts = bound(export_pages.message_dicts)
    messages_of = bound(export_pages.messages_of)
    message_snapshot = bound(export_pages.message_snapshot)


class SqliteIdempotency(_Bound):
    """IdempotencyRepo over one connection."""

    __slots__ = ()
    find = bound(idempotency.find)
    store = bound(idempotency.store)


class SqliteMaintenance(_Bound):
    """MaintenanceRepo over one connection."""

    __slots__ = ()
    get_meta = bound(maintenance.get_meta)
    set_meta = bound(maintenance.set_meta)
    delete_meta = bound(maintenance.delete_meta)
    page_stats = bound(maintenance.page_stats)
    store_stats = bound(maintenance.store_stats)
    usage_report = bound(maintenance.usage_report)
    byte_length = maintenance.SQLITE_BYTES
    """How this engine measures a text value's stored bytes (``{}``: the expression)."""
    prune_batch = bound(maintenance.prune_batch)
    kept = bound(maintenance.kept)
    archive_batch = bound(maintenance.archive_batch)
    optimize_fts = bound(maintenance.optimize_fts)
    repair = bound(health.repair)

    def candidates(
        self, flt: SessionFilter, *, ids: list[str] | None = None, payload: bool = False
    ) -> list[PruneCandidate]:
        """Every session ``flt`` selects (of ``ids`` when given), oldest first; with ``payload``, each with
        its row count and stored payload size."""
        return maintenance.candidates(self.conn, flt, ids=ids, payload=payload, byte_length=self.byte_length)


class SqliteTx:
    """The :class:`app.storage.protocols.Tx` of one SQLite connection.

    ``conn`` is for storage code only; services see the protocol, which has no connection. ``changes`` is
    the record of what the running job wrote (:mod:`app.storage.commit_notice`).
    """

    __slots__ = (
        "attachments",
        "changes",
        "conn",
        "events",
        "export",
        "gateway",
        "handoff",
        "idempotency",
        "indexing",
        "lineage",
        "maintenance",
        "messages",
        "platforms",
        "search",
        "sessions",
        "sync",
        "titles",
        "transfer",
    )

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.changes = changes = Changes()
        self.sessions = SqliteSessions(conn)
        self.titles = SqliteTitles(conn)
        self.lineage = SqliteLineage(conn, changes)
        self.messages = SqliteMessages(conn, changes)
        self.events = SqliteEvents(conn, changes)
        self.handoff = SqliteHandoff(conn)
        self.platforms = SqlitePlatforms(conn)
        self.attachments = SqliteAttachments(conn)
        self.search = SqliteSearch(conn)
        self.indexing = SqliteIndexing(conn, changes)
        self.gateway = SqliteGateway(conn, changes)
        self.transfer = SqliteTransfer(conn)
        self.sync = SqliteSync(conn, changes)
        self.export = SqliteExport(conn)
        self.idempotency = SqliteIdempotency(conn)
        self.maintenance = SqliteMaintenance(conn)

    def savepoint(self) -> AbstractContextManager[None]:
        """A savepoint whose storage failures (the transaction alive) raise ``WriteRejected``."""
        return rejectable(self.conn)
