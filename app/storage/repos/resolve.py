"""Finding a session from what a user types: an exact id, an id prefix, or the most recently active one."""

from __future__ import annotations

from app.domain.titles import like_escape
from app.storage.repos.repository import Repository
from app.storage.repos.session_filter import LAST_ACTIVE_SQL, source_clauses
from app.storage.rows import Candidate


class SessionRefs(Repository):
    """Finding a session from what a user types."""

    __slots__ = ()

    def exact_id(self, ref: str) -> str | None:
        """``ref`` when a session has exactly that id."""
        row = self.conn.execute(f"SELECT id FROM sessions WHERE id = {self.d.p}", (ref,)).fetchone()
        return None if row is None else str(row[0])

    def ids_with_prefix(self, prefix: str, limit: int) -> list[Candidate]:
        """Sessions whose id starts with ``prefix`` (``\\``, ``%``, ``_`` taken literally), newest first.

        The agent's ``resolve_session_id`` uses ``id LIKE ?`` with ``ESCAPE '\\'``; ``lower`` on both sides
        changes nothing on SQLite (both fold ASCII only) and on PostgreSQL is what its trigram index of ids
        holds. ``limit`` bounds the scan because only "one" versus "several" (and a few candidates to show)
        matters.
        """
        if not prefix:
            return []
        rows = self.conn.execute(
            f"SELECT id, title FROM sessions WHERE lower(id) {self.d.casefold_like} lower({self.d.p})"
            f" ESCAPE '\\' ORDER BY started_at DESC, id DESC LIMIT {self.d.p}",
            (f"{like_escape(prefix)}%", limit),
        ).fetchall()
        return [Candidate(str(row[0]), row[1]) for row in rows]

    def latest_session(self, sources: tuple[str, ...], exclude_sources: tuple[str, ...]) -> str | None:
        """The most recently active session (newest message, else ``started_at``) among ``sources``.

        An empty ``sources`` means every source except ``exclude_sources``.
        """
        where, params = source_clauses(self.d, sources or None, exclude_sources)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        row = self.conn.execute(
            f"SELECT s.id FROM sessions s {clause}"
            f" ORDER BY {LAST_ACTIVE_SQL.format(a='s')} DESC, s.started_at DESC, s.id DESC LIMIT 1",
            params,
        ).fetchone()
        return None if row is None else str(row[0])
