"""``Export`` on PostgreSQL: the shared export SQL with every row encoded in Python (SQLite's rendering
writes the JSON with its own ``json_object``), and no page-cache tuning."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from app.storage.repos.export_repo import Export
from app.storage.rows import ChunkPlan, ExportFilter, MessageJsonPage, RenderedChunk


class PgExport(Export):
    """The ``Export`` repository over one PostgreSQL connection."""

    __slots__ = ()

    @contextlib.contextmanager
    def small_page_cache(self, kib: int = 0) -> Iterator[None]:
        """Nothing to cap: the server's shared buffers are not the connection's to size."""
        yield

    def render_chunk(self, flt: ExportFilter, plan: ChunkPlan, *, sql_render: bool = False) -> RenderedChunk:
        """The bytes of one planned chunk, always encoded in Python."""
        return super().render_chunk(flt, plan, sql_render=False)

    def message_page(
        self, session_id: str, after_id: int, limit: int, *, sql_render: bool = False
    ) -> MessageJsonPage:
        """A page of a session's active messages, always encoded in Python."""
        return super().message_page(session_id, after_id, limit, sql_render=False)
