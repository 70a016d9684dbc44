"""The PostgreSQL search's planner workarounds, each one switchable, so that the ablation bench
(``bench/pg_search_ablation.py``) can measure what each is worth on the same store in the same run.

Every switch is on in the server; only the bench turns one off, for the calls it times. A switch changes how
rows are read, never which rows are found (the search tests hold both ways to the same hits).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields


@dataclass(slots=True)
class SearchTricks:
    """Which workarounds the search module applies (see docs/postgres-search.md for what each does)."""

    broad_terms: bool = True
    """A listing term the index sample says is in many rows skips its candidate statement."""
    opaque_pattern: bool = True
    """The listing scan's pattern is bound through a scalar subquery the planner cannot see into."""
    cjk_rows: bool = True
    """A one- or two-character CJK scan reads only the rows ``idx_messages_cjk`` holds."""
    session_lookup: bool = True
    """Under a filter keeping most sessions, a hit's session is looked up by key, not joined."""

    @classmethod
    def names(cls) -> list[str]:
        """Every switch, in declaration order."""
        return [field.name for field in fields(cls)]


TRICKS = SearchTricks()
"""The switches the search module reads."""


@contextmanager
def switched_off(name: str) -> Iterator[None]:
    """:data:`TRICKS` with ``name`` off inside the block (the bench's only way to change them)."""
    if name not in SearchTricks.names():
        raise ValueError(f"no search trick named {name!r}")
    before = getattr(TRICKS, name)
    setattr(TRICKS, name, False)
    try:
        yield
    finally:
        setattr(TRICKS, name, before)
