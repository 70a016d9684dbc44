"""The lineage aggregate's repository: the functions of ``lineage``, ``lineage_messages`` and ``resolve``
as the methods of :class:`Lineage` (a class module: ``resolve`` reaches ``lineage`` through ``sessions``)."""

from __future__ import annotations

from app.storage.repos import lineage, lineage_messages, resolve
from app.storage.repos.repository import Repository, bound, recorded


class Lineage(Repository):
    """Compression chains, branches, resolving a reference, and the messages a lineage carries over."""

    __slots__ = ()
    compression_tip = bound(lineage.compression_tip)
    compression_chain = bound(lineage.compression_chain)
    compression_ancestors = bound(lineage.compression_ancestors)
    side_children = bound(lineage.side_children)
    children_newest_first = bound(lineage.children_newest_first)
    is_active_message = bound(lineage_messages.is_active_message)
    copy_active_messages = recorded(lineage_messages.copy_active_messages)
    conversation_for_recap = bound(lineage_messages.conversation_for_recap)
    exact_id = bound(resolve.exact_id)
    ids_with_prefix = bound(resolve.ids_with_prefix)
    latest_session = bound(resolve.latest_session)
