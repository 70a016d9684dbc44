"""What every repository class shares: one connection, and the change record of the transaction handle it
belongs to. Each aggregate's operations are methods of its class, written once over the connection's
dialect; the PostgreSQL classes subclass them where their SQL differs."""

from __future__ import annotations

from app.storage.commit_notice import Changes
from app.storage.dialect import dialect_of
from app.storage.sqlite.driver import sqlite3


class Repository:
    """One aggregate's repository over one connection, whose SQL is written with the hooks of ``d``, the
    connection's dialect (looked up once here, not per statement); what its writes change is noted in
    ``changes``, the record of the transaction handle it belongs to (:mod:`app.storage.commit_notice`)."""

    __slots__ = ("changes", "conn", "d")

    def __init__(self, conn: sqlite3.Connection, changes: Changes) -> None:
        self.conn = conn
        self.changes = changes
        self.d = dialect_of(conn)
