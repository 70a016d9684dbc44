"""The lineage aggregate's repository: the methods of ``lineage``, ``lineage_messages`` and ``resolve`` as
one class, :class:`Lineage`."""

from __future__ import annotations

from app.storage.repos.lineage import LineageWalks
from app.storage.repos.lineage_messages import LineageMessages
from app.storage.repos.resolve import SessionRefs


class Lineage(LineageWalks, LineageMessages, SessionRefs):
    """Compression chains, branches, resolving a reference, and the messages a lineage carries over."""

    __slots__ = ()
