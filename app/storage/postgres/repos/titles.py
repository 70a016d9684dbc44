"""The ``Titles`` repository on PostgreSQL: the shared title rules, with title writers taking turns.

SQLite has one writer, so reading the titles in use and then writing one is safe there. Here concurrent
transactions (threads, replicas) could both find ``"T #3"`` free; the unique index would refuse the second,
but only after it told its caller the title was taken. So every transaction that reads titles to write one
first takes :data:`TITLES_LOCK_KEY` (held until it commits): the next one then reads what the last one wrote.
"""

from __future__ import annotations

from app.storage.postgres.repos.base import pg_of
from app.storage.repos.repository import Repository
from app.storage.repos.titles_repo import Titles

TITLES_LOCK_KEY = 0x6865726D65730003


def lock_titles(repo: Repository) -> None:
    """Wait for the title writers ahead of this transaction (re-entrant within it)."""
    pg_of(repo.conn).execute("SELECT pg_advisory_xact_lock(%s)", (TITLES_LOCK_KEY,))


class PgTitles(Titles):
    """The ``Titles`` repository over one PostgreSQL connection."""

    __slots__ = ()

    def set_title(self, session_id: str, title: str | None) -> bool:
        """Set (or with ``None`` clear) a session's title; ``False`` when the session does not exist."""
        lock_titles(self)
        return super().set_title(session_id, title)

    def next_title_in_lineage(self, base_title: str) -> str:
        """The next free title of a lineage (this transaction then holds the title lock)."""
        lock_titles(self)
        return super().next_title_in_lineage(base_title)

    def apply_auto_title(self, session_id: str, title: str, generator: str) -> str | None:
        """Set a generated title if the session is still untitled and was never titled."""
        lock_titles(self)
        return super().apply_auto_title(session_id, title, generator)
