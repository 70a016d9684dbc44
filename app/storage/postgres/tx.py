"""The PostgreSQL backend of the storage contract: :class:`PgTx` binds the repositories to one connection
inside one transaction."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import psycopg
from psycopg import errors as pg_errors

from app.storage.commit_notice import Changes
from app.storage.postgres.connection import PgConnection
from app.storage.postgres.repos.base import as_repo_connection
from app.storage.postgres.repos.events import PgEvents
from app.storage.postgres.repos.export import PgExport
from app.storage.postgres.repos.gateway import PgGateway
from app.storage.postgres.repos.indexing import PgIndexing
from app.storage.postgres.repos.lineage import PgLineage
from app.storage.postgres.repos.maintenance import PgMaintenance
from app.storage.postgres.repos.messages import LeadingAppendNotMade, MadeAppend, PgMessages
from app.storage.postgres.repos.sessions import PgSessions
from app.storage.postgres.repos.sync import PgSync
from app.storage.postgres.repos.titles import PgTitles
from app.storage.postgres.repos.transfer import PgTransfer
from app.storage.postgres.search import PgSearch
from app.storage.protocols import WriteRejected
from app.storage.repos.attachments import Attachments
from app.storage.repos.handoff import Handoff
from app.storage.repos.idempotency import Idempotency
from app.storage.repos.platforms import Platforms

BACKEND = "postgresql"


def is_title_conflict(exc: BaseException) -> bool:
    """Whether a write failed on the unique title index (another session holds the title)."""
    return isinstance(exc, pg_errors.UniqueViolation) and "title" in str(exc)


class PgTx:
    """The :class:`app.storage.protocols.Tx` of one PostgreSQL connection in one transaction.

    Repair and the FTS upkeep are SQLite-file operations (:class:`PgMaintenance`): they answer
    ``NotSupportedOnBackend`` (501) when a job reaches them. ``changes`` is the record of what the job
    wrote (:mod:`app.storage.commit_notice`): a handle serves one job.
    """

    def __init__(self, pg: psycopg.Connection[Any], made: MadeAppend | None = None) -> None:
        self.pg = pg
        self.conn = conn = as_repo_connection(PgConnection(pg))
        self.changes = changes = Changes()
        self.sessions = PgSessions(conn, changes)
        self.titles = PgTitles(conn, changes)
        self.lineage = PgLineage(conn, changes)
        self.messages = PgMessages(conn, changes, made)
        self.events = PgEvents(conn, changes)
        self.handoff = Handoff(conn, changes)
        self.platforms = Platforms(conn, changes)
        self.attachments = Attachments(conn, changes)
        self.idempotency = Idempotency(conn, changes)
        self.gateway = PgGateway(conn, changes)
        self.search = PgSearch(pg)
        self.indexing = PgIndexing(conn, changes)
        self.transfer = PgTransfer(conn, changes)
        self.export = PgExport(conn, changes)
        self.maintenance = PgMaintenance(conn, changes)
        self.sync = PgSync(conn, changes)

    def require_leading_append_made(self) -> None:
        """Raise :class:`LeadingAppendNotMade` when the job's leading append, made ahead of it, was never
        taken by its call (the job was not the append it was taken for)."""
        if self.messages.made is not None:
            raise LeadingAppendNotMade(f"the job never appended to {self.messages.made.lead.session_id}")

    def savepoint(self) -> AbstractContextManager[None]:
        """A savepoint whose database failures raise ``WriteRejected`` (the transaction goes on)."""
        return self._savepoint()

    @contextmanager
    def _savepoint(self) -> Iterator[None]:
        mark = len(self.events.pending)
        try:
            with _rejectable(self.pg):
                yield
        except BaseException:
            del self.events.pending[mark:]  # what the rolled-back part emitted never happened
            raise


@contextmanager
def _rejectable(pg: psycopg.Connection[Any]) -> Iterator[None]:
    try:
        with pg.transaction():
            yield
    except psycopg.DatabaseError as exc:
        if isinstance(exc, psycopg.OperationalError):
            raise
        reason = "title_in_use" if is_title_conflict(exc) else "write_failed"
        raise WriteRejected(reason, str(exc)) from exc
