"""What a commit changed, as the work that follows a commit needs to know it.

Repositories note what they write (``note_*``) into the record of the writer job that runs them; the writer
keeps a job's record only when the job's SAVEPOINT is released, and after COMMIT it hands the sum of its
jobs' records, as a :class:`CommitNotice`, to its subscribers. Outside a writer job (migrations, a test's
own connection) noting does nothing.

A record can name a session whose inner SAVEPOINT a job rolled back itself (an import line that failed):
subscribers treat the notice as a hint and read the state they act on.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

# The record of the writer job running on this thread (only the writer thread ever sets one).
_job = threading.local()


@dataclass
class Changes:
    """What one job, or one transaction, wrote."""

    first_event_id: int = 0
    last_event_id: int = 0
    message_sessions: set[str] = field(default_factory=set)
    fts_backlog: bool = False

    def absorb(self, other: Changes) -> None:
        """Add a released job's changes to its transaction's."""
        if other.last_event_id:
            if not self.first_event_id:
                self.first_event_id = other.first_event_id
            self.last_event_id = other.last_event_id
        self.message_sessions |= other.message_sessions
        self.fts_backlog = self.fts_backlog or other.fts_backlog

    def __bool__(self) -> bool:
        return bool(self.last_event_id or self.message_sessions or self.fts_backlog)


@dataclass(frozen=True)
class CommitNotice:
    """Published after a COMMIT: its number and what it carried."""

    commit: int
    event_ids: range
    """The ``hs_events`` ids the commit added (consecutive: the writer holds the write lock)."""
    message_sessions: frozenset[str]
    """Sessions that got new messages (append, continuation, fork, import)."""
    fts_backlog: bool
    """Messages were queued for the background FTS indexer."""

    @classmethod
    def of(cls, commit: int, changes: Changes) -> CommitNotice:
        """The notice of commit number ``commit`` carrying ``changes``."""
        # No events: first and last are both 0, an empty range.
        events = range(changes.first_event_id, changes.last_event_id + 1 if changes.last_event_id else 0)
        return cls(commit, events, frozenset(changes.message_sessions), changes.fts_backlog)

    @classmethod
    def of_events(cls, event_ids: range) -> CommitNotice:
        """The notice of a commit another process made (a replica's, heard through ``LISTEN``): only its
        event ids are known, and it has no number in this process's sequence (0)."""
        return cls(0, event_ids, frozenset(), False)


def begin_job() -> Changes:
    """Start recording for the job about to run on this (the writer's) thread."""
    changes = Changes()
    _job.changes = changes
    return changes


def end_job() -> None:
    """Stop recording on this thread."""
    _job.changes = None


def _current() -> Changes | None:
    changes: Changes | None = getattr(_job, "changes", None)
    return changes


def note_events(first_id: int, last_id: int) -> None:
    """The running job added the events ``first_id..last_id``."""
    changes = _current()
    if changes is not None:
        if not changes.first_event_id:
            changes.first_event_id = first_id
        changes.last_event_id = last_id


def note_messages(*session_ids: str) -> None:
    """The running job stored new messages in these sessions."""
    changes = _current()
    if changes is not None:
        changes.message_sessions.update(session_ids)


def note_fts_backlog() -> None:
    """The running job queued messages for the background FTS indexer."""
    changes = _current()
    if changes is not None:
        changes.fts_backlog = True
