"""The indexing aggregate's repository: the search backlog of ``fts_backlog`` and the listing's search
documents of ``list_index``, as the methods of :class:`Indexing`."""

from __future__ import annotations

from app.storage.repos import fts_backlog, list_index
from app.storage.repos.repository import Repository, bound, recorded


class Indexing(Repository):
    """The background FTS indexer's backlog."""

    __slots__ = ()
    pending_messages = bound(fts_backlog.pending_messages)
    has_queued = bound(fts_backlog.has_queued)
    index_next_slice = bound(fts_backlog.index_next_slice)
    has_dirty = bound(list_index.has_dirty)
    index_dirty = bound(list_index.index_dirty)
    imported_runs = bound(fts_backlog.imported_runs)
    queue_runs = recorded(fts_backlog.queue_runs)
    queued_runs = bound(fts_backlog.queued_runs)
