"""The indexing aggregate's repository: the search backlog of ``fts_backlog`` and the listing's search
documents of ``list_index``, as the methods of :class:`Indexing`."""

from __future__ import annotations

from app.storage.repos.fts_backlog import FtsBacklog
from app.storage.repos.list_index import ListIndex


class Indexing(FtsBacklog, ListIndex):
    """The background indexers' work: the FTS backlog and the listing's dirty search documents."""

    __slots__ = ()
