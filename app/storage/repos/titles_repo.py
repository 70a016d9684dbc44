"""The titles aggregate's repository: the functions of ``titles`` and ``title_sources`` as the methods of
:class:`Titles` (a class module: ``title_sources`` imports ``titles``)."""

from __future__ import annotations

from app.storage.repos import title_sources, titles
from app.storage.repos.repository import Repository, bound


class Titles(Repository):
    """Session titles: unique titles, ``base #N`` numbering, who set a title."""

    __slots__ = ()
    clean_title = staticmethod(titles.clean_title)
    set_title = bound(titles.set_title)
    next_title_in_lineage = bound(titles.next_title_in_lineage)
    resolve_by_title = bound(titles.resolve_by_title)
    record_title_source = bound(title_sources.record_title_source)
    title_due = bound(title_sources.title_due)
    apply_auto_title = bound(title_sources.apply_auto_title)
