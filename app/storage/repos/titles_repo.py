"""The titles aggregate's repository: :class:`Titles`, the methods of ``titles`` and ``title_sources``."""

from __future__ import annotations

from app.storage.repos.title_sources import TitleSources


class Titles(TitleSources):
    """Session titles: unique titles, ``base #N`` numbering, who set a title."""

    __slots__ = ()
