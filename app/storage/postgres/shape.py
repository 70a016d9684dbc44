"""What the shared repository code asks of a file's shape, answered for PostgreSQL.

The schema is ours: the agent's schema-22 columns and, since revision 0023, the two newer ones that mean
something in our API (``hidden``, ``last_activity_at``). Pins live in ``hs_session_pins``, prompts inline.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app.storage.agent_shape import V22_SHAPE, AgentShape

PG_SHAPE = replace(
    V22_SHAPE,
    session_columns=V22_SHAPE.session_columns | {"hidden", "last_activity_at"},
    own_fts_upkeep=False,
)


class FixedShape:
    """The watch of a store whose shape never changes under it."""

    __slots__ = ()

    def check(self, conn: Any) -> AgentShape:
        """Always :data:`PG_SHAPE`."""
        return PG_SHAPE


PG_WATCH = FixedShape()
