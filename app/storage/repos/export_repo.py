"""The export aggregate's repository: the functions of ``export`` and ``export_pages`` as the methods of
:class:`Export` (a class module: ``export_pages`` imports ``export``)."""

from __future__ import annotations

from app.storage.repos import export, export_pages
from app.storage.repos.repository import Repository, bound


class Export(Repository):
    """Export: chunk plans, rendered chunks, one session's lineage and message pages."""

    __slots__ = ()
    plan_chunk = bound(export.plan_chunk)
    render_chunk = bound(export.render_chunk)
    small_page_cache = bound(export.small_page_cache)
    session_rows = bound(export.session_rows)
    active_message_counts = bound(export.active_message_counts)
    message_page = bound(export.message_page)
    session_heads = bound(export_pages.session_heads)
    sidebar_rows = bound(export_pages.sidebar_rows)
    sessions_by_id = bound(export_pages.sessions_by_id)
    count_sessions = bound(export_pages.count_sessions)
    message_dicts = bound(export_pages.message_dicts)
    messages_of = bound(export_pages.messages_of)
    message_snapshot = bound(export_pages.message_snapshot)
