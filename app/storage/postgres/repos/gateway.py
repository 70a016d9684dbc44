"""``Gateway`` on PostgreSQL: the shared routing statements, with each routing decision holding its key.

SQLite has one writer, so reading a key's entry and then writing it is safe there. Here two transactions (two
lanes, two replicas) could both find a new chat's key missing and each create a session for it, the second
entry overwriting the first. So a decision reads its entry with ``FOR UPDATE`` (a second router waits, then
reads the entry the first wrote); a key with no row yet has nothing to lock, so its routers take an advisory
lock on the key first and read again.
"""

from __future__ import annotations

from app.storage.postgres.repos.base import pg_of
from app.storage.repos.gateway import Gateway

ROUTE_LOCK_CLASS = 0x68657273
"""The first half of the advisory lock of a missing key (the second: the key's hash); the two-number lock
space is apart from the one-number space of the other locks."""


class PgGateway(Gateway):
    """The ``Gateway`` repository over one PostgreSQL connection."""

    __slots__ = ()

    def claim_entry(self, scope: str, session_key: str) -> str | None:
        """The entry of one key, held until this transaction ends (see the module)."""
        found = self._entry_for_update(scope, session_key)
        if found is None:
            pg_of(self.conn).execute(
                "SELECT pg_advisory_xact_lock(%s::integer, hashtext(%s))",
                (ROUTE_LOCK_CLASS, f"{scope}\n{session_key}"),
            )
            # A new statement, a new snapshot: what a router that held the lock before us committed.
            found = self._entry_for_update(scope, session_key)
        return found

    def _entry_for_update(self, scope: str, session_key: str) -> str | None:
        row = (
            pg_of(self.conn)
            .execute(
                "SELECT entry_json FROM gateway_routing WHERE scope = %s AND session_key = %s FOR UPDATE",
                (scope, session_key),
            )
            .fetchone()
        )
        return None if row is None else str(row[0])
