"""The SQLite backend of the storage contract: :class:`SqliteTx` holds every aggregate's repository over one
connection, and the handle's change record their writes are noted in.

A handle is made once per connection (the writer's, each reader thread's) and reused by every job on it. The
writer takes a job's record off its handle after the job, and clears it for the next one.
"""

from __future__ import annotations

from contextlib import AbstractContextManager

from app.storage.commit_notice import Changes
from app.storage.repos.events import Events
from app.storage.repos.export_repo import Export
from app.storage.repos.gateway import Gateway
from app.storage.repos.indexing import Indexing
from app.storage.repos.lineage_repo import Lineage
from app.storage.repos.maintenance import Maintenance
from app.storage.repos.messages import Messages
from app.storage.repos.sessions_repo import Sessions
from app.storage.repos.sync import Sync
from app.storage.repos.titles_repo import Titles
from app.storage.repos.transfer import Transfer
from app.storage.sqlite.driver import sqlite3
from app.storage.sqlite.search import SqliteSearch
from app.storage.sqlite.transactions import rejectable
from app.storage.tx_repos import SharedRepositories, repository


class SqliteTx(SharedRepositories):
    """The :class:`app.storage.protocols.Tx` of one SQLite connection.

    ``conn`` is for storage code only; services see the protocol, which has no connection. ``changes`` is
    the record of what the running job wrote (:mod:`app.storage.commit_notice`). Each repository is built
    on its first use (:mod:`app.storage.tx_repos`).
    """

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.changes = Changes()

    sessions = repository(Sessions)
    titles = repository(Titles)
    lineage = repository(Lineage)
    messages = repository(Messages)
    events = repository(Events)
    search = repository(SqliteSearch)
    indexing = repository(Indexing)
    gateway = repository(Gateway)
    transfer = repository(Transfer)
    sync = repository(Sync)
    export = repository(Export)
    maintenance = repository(Maintenance)

    def savepoint(self) -> AbstractContextManager[None]:
        """A savepoint whose storage failures (the transaction alive) raise ``WriteRejected``."""
        return rejectable(self.conn)
