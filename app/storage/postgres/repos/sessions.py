"""The ``Sessions`` repository on PostgreSQL."""

from __future__ import annotations

from app.domain.records import NewSession
from app.storage.postgres.dialect import POSTGRES
from app.storage.postgres.repos.base import pg_of
from app.storage.postgres.repos.titles import lock_titles
from app.storage.postgres.search import list_search_filter
from app.storage.repos.list_index import SearchFilter
from app.storage.repos.sessions_repo import Sessions
from app.storage.rows import ListPage, ListQuery
from app.storage.sqlite.driver import sqlite3


def _search(conn: sqlite3.Connection, term: str, projecting: bool) -> SearchFilter:
    """A listing's search on PostgreSQL: the trigram indexes' candidates, else the row-by-row scan."""
    return list_search_filter(pg_of(conn), term, projecting)


class PgSessions(Sessions):
    """The ``Sessions`` repository over one PostgreSQL connection."""

    __slots__ = ()

    def copy_model_config_as_branch(self, parent_id: str, child_id: str) -> None:
        """The parent's ``model_config`` object minus ``_delegate_from``, plus ``_branched_from`` (jsonb
        rewrites the text: keys sorted, whitespace normalised)."""
        pg_of(self.conn).execute(
            "UPDATE sessions SET model_config = (SELECT CASE"
            f" WHEN {POSTGRES.json_is_valid('p.model_config')} AND {POSTGRES.json_kind('p.model_config')} ="
            " 'object'"
            " THEN ((p.model_config::jsonb - '_delegate_from')"
            " || jsonb_build_object('_branched_from', p.id))::text"
            " ELSE jsonb_build_object('_branched_from', p.id)::text END"
            " FROM sessions p WHERE p.id = %s) WHERE id = %s",
            (parent_id, child_id),
        )

    def insert_session(self, session_id: str, new: NewSession) -> None:
        """Insert a new session row in the agent's format, then apply ``title`` with the title rules (one
        created with a title takes the title lock first)."""
        if new.title is not None:
            lock_titles(self)
        super().insert_session(session_id, new)

    def list_sessions_cached(self, q: ListQuery) -> ListPage:
        """One listing page (no memo: other replicas commit without this process seeing a version)."""
        return self.list_sessions(q, searcher=_search)

    def count_listed(self, q: ListQuery) -> int:
        """How many rows the listing's SQL admits (no memo, as for the listing)."""
        return self.count_listed_uncached(q)
