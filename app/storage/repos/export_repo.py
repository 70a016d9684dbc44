"""The export aggregate's repository: :class:`Export`, the methods of ``export`` and ``export_pages`` as one
class."""

from __future__ import annotations

from app.storage.repos.export import ExportChunks
from app.storage.repos.export_pages import ExportPages


class Export(ExportChunks, ExportPages):
    """Export: chunk plans, rendered chunks, one session's lineage and message pages."""

    __slots__ = ()
