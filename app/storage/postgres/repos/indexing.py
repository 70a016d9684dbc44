"""The FTS backlog on PostgreSQL: there is none. ``messages.search_vector`` is a generated column and the
trigram indexes are ordinary indexes, so every row is searchable in the transaction that writes it."""

from __future__ import annotations

from collections.abc import Iterable

from app.domain.id_runs import Run


class PgIndexing:
    """``IndexingRepo`` for a store that indexes inline: nothing is ever queued or waiting."""

    def pending_messages(self) -> int:
        """Messages waiting to be indexed: none."""
        return 0

    def has_queued(self, up_to: int) -> bool:
        """Whether any queued run starts at or below ``up_to``: never."""
        return False

    def has_dirty(self) -> bool:
        """Whether list-search documents wait to be rebuilt: never (the trigram indexes are inline)."""
        return False

    def index_dirty(self, max_sessions: int = 0) -> int | None:
        """Nothing to rebuild."""
        return None

    def index_next_slice(self, max_messages: int) -> int | None:
        """Nothing to index."""
        return None

    def imported_runs(self, session_ids: list[str]) -> list[Run]:
        """Imported messages to queue for indexing: none, they were indexed as they were written."""
        return []

    def queue_runs(self, runs: Iterable[Run]) -> None:
        """Nothing is ever queued: see :meth:`imported_runs`."""

    def queued_runs(self, up_to: int) -> list[Run]:
        """Queued runs: none."""
        return []
