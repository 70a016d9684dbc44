"""How sessions relate: branch, delegate and compression children, lineage roots and compression tips.

The classification mirrors the agent's SQL (``_BRANCH_CHILD_SQL``, ``_COMPRESSION_CHILD_SQL``,
``_delegate_from_json`` and ``get_compression_tip`` in ``hermes_state.py``) so both programs agree on which
child is a continuation, which a branch and which a sub-agent run.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from functools import cache

from app.storage.dialect import Dialect
from app.storage.repos.repository import Repository

# Walks stop here, like the agent's tip walk, so a cycle or a pathological chain never hangs a request.
MAX_CHAIN_DEPTH = 100


@cache
def model_config_json_sql(d: Dialect, alias: str = "s") -> str:
    """SQL for ``model_config`` as JSON the JSON functions accept: text that is not JSON (another writer's)
    reads as ``{}``, since they raise on it and would fail every query the row is in."""
    return f"CASE WHEN {d.json_is_valid(f'{alias}.model_config')} THEN {alias}.model_config ELSE '{{}}' END"


@cache
def delegate_marker_sql(d: Dialect, alias: str = "s") -> str:
    """SQL for the ``_delegate_from`` marker in ``model_config`` (NULL when absent)."""
    return d.json_text(model_config_json_sql(d, alias), "$._delegate_from")


@cache
def branched_marker_sql(d: Dialect, alias: str = "s") -> str:
    """SQL for the ``_branched_from`` marker in ``model_config`` (NULL when absent)."""
    return d.json_text(model_config_json_sql(d, alias), "$._branched_from")


@cache
def branch_child_sql(d: Dialect, alias: str = "s") -> str:
    """SQL predicate: the row is a /branch child (marker, or parent ended ``branched`` before it started)."""
    return (
        f"({branched_marker_sql(d, alias)} IS NOT NULL"
        f" OR EXISTS (SELECT 1 FROM sessions bp WHERE bp.id = {alias}.parent_session_id"
        f" AND bp.end_reason = 'branched' AND {alias}.started_at >= bp.ended_at))"
    )


def _all_of(*predicates: str) -> str:
    """The predicates joined with AND, as one parenthesised predicate."""
    return f"({' AND '.join(predicates)})"


@cache
def compression_child_sql(d: Dialect, alias: str = "s") -> str:
    """SQL predicate: the row continues a compression-ended parent (not a branch, delegate or tool run)."""
    return _all_of(
        f"EXISTS (SELECT 1 FROM sessions cp WHERE cp.id = {alias}.parent_session_id"
        " AND cp.end_reason = 'compression')",
        f"NOT {branch_child_sql(d, alias)}",
        f"{delegate_marker_sql(d, alias)} IS NULL",
        f"COALESCE({alias}.source, '') != 'tool'",
    )


@cache
def listable_sql(d: Dialect, alias: str = "s") -> str:
    """SQL predicate for default listings: roots and branch children; no delegates, no continuations."""
    return _all_of(
        f"({alias}.parent_session_id IS NULL OR {branch_child_sql(d, alias)})",
        f"{delegate_marker_sql(d, alias)} IS NULL",
    )


class ChildKind(StrEnum):
    """What a session is relative to its parent."""

    root = "root"
    branch = "branch"
    delegate = "delegate"
    compression = "compression"
    other = "other"


# A page shows at most this many branch and delegate children of one session.
MAX_SIDE_CHILDREN = 100


@cache
def _next_continuation_sql(d: Dialect) -> str:
    return f"""
SELECT child.id
FROM sessions parent
JOIN sessions child ON child.parent_session_id = parent.id
WHERE parent.id = {d.p}
  AND parent.end_reason = 'compression'
  AND {branched_marker_sql(d, "child")} IS NULL
  AND {delegate_marker_sql(d, "child")} IS NULL
  AND COALESCE(child.source, '') != 'tool'
ORDER BY
  CASE WHEN child.end_reason = 'compression' THEN 0 WHEN child.ended_at IS NULL THEN 1 ELSE 2 END,
  COALESCE((SELECT MAX(m.timestamp) FROM messages m WHERE m.session_id = child.id), child.started_at) DESC,
  child.started_at DESC,
  child.id DESC
LIMIT 1
"""


class LineageWalks(Repository):
    """How sessions relate: a session's kind of child, its children, and its compression chain."""

    __slots__ = ()

    def child_kind(self, session_id: str) -> ChildKind | None:
        """Classify a session like the agent does; ``None`` when the session does not exist."""
        row = self.conn.execute(
            f"SELECT s.parent_session_id AS parent, {branch_child_sql(self.d)} AS is_branch,"
            f" {delegate_marker_sql(self.d)} IS NOT NULL AS is_delegate,"
            f" {compression_child_sql(self.d)} AS is_compression"
            f" FROM sessions s WHERE s.id = {self.d.p}",
            (session_id,),
        ).fetchone()
        if row is None:
            return None
        if row["parent"] is None:
            return ChildKind.root
        if row["is_branch"]:
            return ChildKind.branch
        if row["is_delegate"]:
            return ChildKind.delegate
        if row["is_compression"]:
            return ChildKind.compression
        return ChildKind.other

    def side_children(self, session_id: str) -> list[tuple[str, str]]:
        """The branch and delegate children of a session (not its compression continuation), oldest first,
        each with its kind (``branch`` or ``delegate``)."""
        rows = self.conn.execute(
            f"SELECT s.id, {branch_child_sql(self.d)} AS is_branch FROM sessions s"
            f" WHERE s.parent_session_id = {self.d.p}"
            f" AND ({branch_child_sql(self.d)} OR {delegate_marker_sql(self.d)} IS NOT NULL)"
            f" ORDER BY s.started_at, s.id LIMIT {MAX_SIDE_CHILDREN}",
            (session_id,),
        ).fetchall()
        return [(str(row[0]), (ChildKind.branch if row[1] else ChildKind.delegate).value) for row in rows]

    def children_newest_first(self, session_id: str) -> list[str]:
        """Every child of a session, of any kind, the most recently started first."""
        rows = self.conn.execute(
            f"SELECT id FROM sessions WHERE parent_session_id = {self.d.p} ORDER BY started_at DESC, id DESC",
            (session_id,),
        ).fetchall()
        return [str(row[0]) for row in rows]

    def compression_parent(self, session_id: str) -> str | None:
        """The parent this session continues by compression, or ``None`` (root, branch, delegate, missing)."""
        row = self.conn.execute(
            f"SELECT s.parent_session_id FROM sessions s WHERE s.id = {self.d.p}"
            " AND s.parent_session_id IS NOT NULL"
            f" AND {compression_child_sql(self.d)}",
            (session_id,),
        ).fetchone()
        return None if row is None else str(row[0])

    def _walk(self, session_id: str, step: Callable[[str], str | None]) -> list[str]:
        """The sessions ``step`` leads to from ``session_id``, one after another (excluding it):
        depth-limited, and stopping where the walk would come back to a session it has seen."""
        found: list[str] = []
        seen = {session_id}
        current = session_id
        for _ in range(MAX_CHAIN_DEPTH):
            following = step(current)
            if following is None or following in seen:
                break
            found.append(following)
            seen.add(following)
            current = following
        return found

    def compression_ancestors(self, session_id: str) -> list[str]:
        """Compression predecessors of a session, nearest first (empty for a root). Loop-safe."""
        return self._walk(session_id, self.compression_parent)

    def lineage_root(self, session_id: str) -> str:
        """The first session of the conversation: walk up through compression parents (itself for a root)."""
        ancestors = self.compression_ancestors(session_id)
        return ancestors[-1] if ancestors else session_id

    def next_continuation(self, session_id: str) -> str | None:
        """The continuation the agent would follow from this session (its preference order), or ``None``."""
        row = self.conn.execute(_next_continuation_sql(self.d), (session_id,)).fetchone()
        return None if row is None else str(row[0])

    def _forward(self, session_id: str) -> list[str]:
        """Continuations after ``session_id`` in walking order (excluding it), depth-limited and loop-safe."""
        return self._walk(session_id, self.next_continuation)

    def compression_tip(self, session_id: str) -> str:
        """The live end of the compression chain starting at ``session_id`` (itself when nothing continues
        it).

        Same rules as the agent's ``get_compression_tip``: prefer a child that itself ended with
        ``compression``, then an open child, then the most recently active; at most 100 steps.
        """
        forward = self._forward(session_id)
        return forward[-1] if forward else session_id

    def compression_chain(self, session_id: str) -> list[str]:
        """The conversation through ``session_id``, root → tip: compression ancestors, itself, its tip
        walk."""
        ancestors = self.compression_ancestors(session_id)
        chain = [*reversed(ancestors), session_id]
        seen = set(chain)
        chain.extend(sid for sid in self._forward(session_id) if sid not in seen)
        return chain

    def is_compression_ancestor(self, ancestor_id: str, descendant_id: str) -> bool:
        """True when ``ancestor_id`` is reached from ``descendant_id`` through compression-ended parents.

        This is the agent's ``_is_compression_ancestor`` edge (parent ended ``compression``), used for moving
        a title from a hidden ancestor onto its continuation."""
        if not ancestor_id or not descendant_id or ancestor_id == descendant_id:
            return False
        row = self.conn.execute(
            f"""
        WITH RECURSIVE ancestors(id) AS (
            SELECT {self.d.p}
            UNION
            SELECT parent.id
            FROM ancestors a
            JOIN sessions child ON child.id = a.id
            JOIN sessions parent ON parent.id = child.parent_session_id
            WHERE EXISTS (SELECT 1 FROM sessions p WHERE p.id = child.parent_session_id
                          AND p.end_reason = 'compression')
        )
        SELECT 1 FROM ancestors WHERE id = {self.d.p} AND id != {self.d.p} LIMIT 1
        """,
            (descendant_id, ancestor_id, descendant_id),
        ).fetchone()
        return row is not None

    def delegate_descendants(self, parent_ids: list[str]) -> list[str]:
        """Delegate (sub-agent) sessions to delete with ``parent_ids``, recursively (agent's collection rule).

        A row belongs when its ``_delegate_from`` marker names a doomed session, or it carries a marker and
        its parent is doomed. The parents themselves are never returned, even when markers loop back onto
        them."""
        marker = delegate_marker_sql(self.d, "sessions")
        seeds = {sid for sid in parent_ids if sid}
        found = set(seeds)
        frontier = list(seeds)
        while frontier:
            ph = ",".join([self.d.p] * len(frontier))
            rows = self.conn.execute(
                f"SELECT id FROM sessions WHERE {marker} IN ({ph})"
                f" OR (parent_session_id IN ({ph}) AND {marker} IS NOT NULL)",
                frontier + frontier,
            ).fetchall()
            frontier = [row[0] for row in rows if row[0] not in found]
            found.update(frontier)
        return sorted(found - seeds)
