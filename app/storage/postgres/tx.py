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
from app.storage.rows import NewEvent
from app.storage.tx_repos import PerTx, SharedRepositories, repository

BACKEND = "postgresql"


def is_title_conflict(exc: BaseException) -> bool:
    """Whether a write failed on the unique title index (another session holds the title)."""
    return isinstance(exc, pg_errors.UniqueViolation) and "title" in str(exc)


def _messages(tx: PgTx) -> PgMessages:
    return PgMessages(tx.conn, tx.changes, tx.made)


def _events(tx: PgTx) -> PgEvents:
    return PgEvents(tx.conn, tx.changes)


def _search(tx: PgTx) -> PgSearch:
    return PgSearch(tx.pg)


class PgTx(SharedRepositories):
    """The :class:`app.storage.protocols.Tx` of one PostgreSQL connection in one transaction.

    Repair and the FTS upkeep are SQLite-file operations (:class:`PgMaintenance`): they answer
    ``NotSupportedOnBackend`` (501) when a job reaches them. ``changes`` is the record of what the job
    wrote (:mod:`app.storage.commit_notice`): a handle serves one job. Each repository is built on its
    first use (:mod:`app.storage.tx_repos`).
    """

    def __init__(self, pg: psycopg.Connection[Any], made: MadeAppend | None = None) -> None:
        self.pg = pg
        self.conn = as_repo_connection(PgConnection(pg))
        self.changes = Changes()
        self.made = made
        """The job's leading append made ahead of it (the messages repository takes it when built)."""

    sessions = repository(PgSessions)
    titles = repository(PgTitles)
    lineage = repository(PgLineage)
    messages = PerTx(_messages)
    events = PerTx(_events)
    gateway = repository(PgGateway)
    search = PerTx(_search)
    indexing = repository(PgIndexing)
    transfer = repository(PgTransfer)
    export = repository(PgExport)
    maintenance = repository(PgMaintenance)
    sync = repository(PgSync)

    def pending_events(self) -> list[NewEvent]:
        """The events the job emitted, which go in with the COMMIT."""
        events = PgTx.events.built(self)
        return [] if events is None else events.pending

    def require_leading_append_made(self) -> None:
        """Raise :class:`LeadingAppendNotMade` when the job's leading append, made ahead of it, was never
        taken by its call (the job was not the append it was taken for)."""
        if self.made is None:
            return
        messages = PgTx.messages.built(self)
        if messages is None or messages.made is not None:
            raise LeadingAppendNotMade(f"the job never appended to {self.made.lead.session_id}")

    def savepoint(self) -> AbstractContextManager[None]:
        """A savepoint whose database failures raise ``WriteRejected`` (the transaction goes on)."""
        return self._savepoint()

    @contextmanager
    def _savepoint(self) -> Iterator[None]:
        pending = self.events.pending
        mark = len(pending)
        try:
            with _rejectable(self.pg):
                yield
        except BaseException:
            del pending[mark:]  # what the rolled-back part emitted never happened
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
