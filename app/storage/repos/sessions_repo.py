"""The sessions aggregate's repository: the functions of ``sessions``, ``pins``, ``session_list`` and
``usage`` as the methods of :class:`Sessions` (a class module: ``sessions`` is imported by the others)."""

from __future__ import annotations

from app.storage.commit_notice import Changes
from app.storage.repos import own_fields, pins, session_list, sessions, usage
from app.storage.repos.repository import Repository, bound
from app.storage.rows import ListPage, ListQuery
from app.storage.sqlite.driver import sqlite3


class Sessions(Repository):
    """The ``sessions`` rows: existence, the public shape, creation, ending, settings, deletion, listing,
    usage."""

    __slots__ = ("listings",)

    def __init__(self, conn: sqlite3.Connection, changes: Changes) -> None:
        super().__init__(conn, changes)
        self.listings = session_list.ListingMemo()

    def list_sessions_cached(self, q: ListQuery) -> ListPage:
        """One listing page, memoised until the database changes (see ``session_list``)."""
        return session_list.list_sessions_cached(self.conn, self.listings, q)

    session_exists = bound(sessions.session_exists)
    fetch_session = bound(sessions.fetch_session)
    insert_session = bound(sessions.insert_session)
    end_session = bound(sessions.end_session)
    reopen_session = bound(sessions.reopen_session)
    set_model = bound(sessions.set_model)
    set_workspace = bound(sessions.set_workspace)
    set_own_fields = bound(own_fields.set_own_fields)
    set_model_config = bound(sessions.set_model_config)
    copy_model_config_as_branch = bound(sessions.copy_model_config_as_branch)
    set_archived = bound(sessions.set_archived)
    delete_session = bound(sessions.delete_session)
    pin = bound(pins.pin)
    unpin = bound(pins.unpin)
    count_listed = bound(session_list.count_listed_cached)
    record_usage = bound(usage.record_usage)
