"""What a commit changed, as the work that follows a commit needs to know it.

Repositories note what they write (``note_*``) in :class:`Changes`, the record of the transaction handle
they belong to (``tx.changes``). The writer reads a job's record off its handle: it keeps it only when the
job's SAVEPOINT is released (a PostgreSQL group, only when every job ran), and after COMMIT it hands the sum
of its jobs' records, as a :class:`CommitNotice`, to its subscribers. The record of a handle no writer
reads (a reader's, a test's own) is never looked at.

A record can name a session whose inner SAVEPOINT a job rolled back itself (a step it caught failing):
subscribers treat the notice as a hint and read the state they act on.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import asyncio

log = logging.getLogger(__name__)
Subscriber = Callable[["CommitNotice"], None]


@dataclass
class Changes:
    """What one job, or one transaction, wrote."""

    first_event_id: int = 0
    last_event_id: int = 0
    message_sessions: set[str] = field(default_factory=set)
    fts_backlog: bool = False
    routing: bool = False

    def absorb(self, other: Changes) -> None:
        """Add a released job's changes to its transaction's."""
        if other.last_event_id:
            if not self.first_event_id:
                self.first_event_id = other.first_event_id
            self.last_event_id = other.last_event_id
        self.message_sessions |= other.message_sessions
        self.fts_backlog = self.fts_backlog or other.fts_backlog
        self.routing = self.routing or other.routing

    def __bool__(self) -> bool:
        return bool(self.last_event_id or self.message_sessions or self.fts_backlog or self.routing)

    def note_events(self, first_id: int, last_id: int) -> None:
        """The job added the events ``first_id..last_id``."""
        if not self.first_event_id:
            self.first_event_id = first_id
        self.last_event_id = last_id

    def note_messages(self, *session_ids: str) -> None:
        """The job stored new messages in these sessions."""
        self.message_sessions.update(session_ids)

    def note_fts_backlog(self) -> None:
        """The job queued messages for the background FTS indexer."""
        self.fts_backlog = True

    def note_routing(self) -> None:
        """The job changed the gateway's routing table."""
        self.routing = True

    def clear(self) -> None:
        """Forget everything noted (a handle's record, between two jobs)."""
        self.first_event_id = self.last_event_id = 0
        self.message_sessions.clear()
        self.fts_backlog = False
        self.routing = False


@dataclass(frozen=True)
class CommitNotice:
    """Published after a COMMIT: its number and what it carried."""

    commit: int
    event_ids: range
    """The ``hs_events`` ids the commit added (consecutive: the writer holds the write lock)."""
    message_sessions: frozenset[str]
    """Sessions that got new messages (append, continuation, fork, sync; not an import)."""
    fts_backlog: bool
    """Messages were queued for the background FTS indexer."""
    routing: bool = False
    """The gateway's routing table changed."""

    @classmethod
    def of(cls, commit: int, changes: Changes) -> CommitNotice:
        """The notice of commit number ``commit`` carrying ``changes``."""
        # No events: first and last are both 0, an empty range.
        events = range(changes.first_event_id, changes.last_event_id + 1 if changes.last_event_id else 0)
        return cls(commit, events, frozenset(changes.message_sessions), changes.fts_backlog, changes.routing)

    @classmethod
    def of_events(cls, event_ids: range) -> CommitNotice:
        """The notice of a commit another process made (a replica's, heard through ``LISTEN``): only its
        event ids are known, and it has no number in this process's sequence (0)."""
        return cls(0, event_ids, frozenset(), False)


class NoticeBoard:
    """Hands each commit's notice to the hooks (on the committing thread) and to the subscribers (on their
    event loop, one hop per commit whatever their number); the writer of each backend is one."""

    def __init__(self) -> None:
        self.commit_hooks: list[Subscriber] = []
        """Called on the committing thread with each commit's notice; must be O(1). A hook that raises is
        logged and the callers of the commit are answered all the same."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._subscribers: list[Subscriber] = []

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Call ``subscriber(notice)`` on the running event loop after each COMMIT that carried something;
        returns the function that unsubscribes it. Every subscriber lives on one loop."""
        # Imported here: a render worker imports this module for Changes alone and never runs an event loop.
        import asyncio

        loop = asyncio.get_running_loop()
        if self._loop is not None and self._loop is not loop and self._subscribers:
            raise RuntimeError("commit notices go to one event loop")
        self._loop = loop
        self._subscribers.append(subscriber)

        def unsubscribe() -> None:
            if subscriber in self._subscribers:
                self._subscribers.remove(subscriber)

        return unsubscribe

    def _publish(self, notice: CommitNotice) -> None:
        for hook in self.commit_hooks:
            # The transaction is committed: a failing subscriber must not keep its callers unanswered.
            try:
                hook(notice)
            except Exception:
                log.exception("commit hook %r failed after commit %d", hook, notice.commit)
        if self._subscribers and self._loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop closed during shutdown
                self._loop.call_soon_threadsafe(self.deliver, notice)

    def deliver(self, notice: CommitNotice) -> None:
        """On the event loop: hand ``notice`` to every subscriber; one failing does not stop the others.
        Also the entry for notices of commits made elsewhere (another replica's, relayed by LISTEN)."""
        for subscriber in list(self._subscribers):
            try:
                subscriber(notice)
            except Exception:
                log.exception("commit subscriber %r failed after commit %d", subscriber, notice.commit)
