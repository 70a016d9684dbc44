"""The one SQL translation of :class:`~app.domain.session_filter.SessionFilter`, shared by the session
listing, prune and archive (and anything else that selects sessions by the agent's filter set).

Clauses reference the ``sessions`` row under the alias given (``s`` by default). The agent's own clauses
(``SessionDB._prune_filter_where``) are followed term by term, with one deliberate difference: what the
user types is matched literally, so ``%`` and ``_`` in a title, model, branch or path are not wildcards.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from app.domain.session_filter import SessionFilter
from app.domain.titles import like_escape
from app.storage.agent_shape import AgentShape, agent_pins
from app.storage.dialect import Dialect

Clauses = tuple[list[str], list[Any]]

PINNED_SQL = "EXISTS (SELECT 1 FROM hs_session_pins p WHERE p.session_id = {a}.id)"
"""Whether the row under alias ``{a}`` is pinned (kept from prune, auto-prune and archive), on a file
whose agent has no ``pinned`` column of its own."""
AGENT_PINNED_SQL = "({a}.pinned = 1)"
"""The same where the agent's ``pinned`` column is the truth."""


def pinned_sql(shape: AgentShape) -> str:
    """:data:`PINNED_SQL` or :data:`AGENT_PINNED_SQL`, as the file calls for."""
    return AGENT_PINNED_SQL if agent_pins(shape) else PINNED_SQL


HOME_LABEL_SQL = (
    "(SELECT hh.label FROM hs_sync_sessions hs JOIN hs_sync_homes hh ON hh.id = hs.home_id"
    " WHERE hs.session_id = {a}.id)"
)
"""The home label of the row under alias ``{a}`` (NULL for a session not created by sync)."""

LAST_ACTIVE_SQL = (
    "COALESCE((SELECT MAX(m2.timestamp) FROM messages m2 WHERE m2.session_id = {a}.id), {a}.started_at)"
)
"""When the row under alias ``{a}`` was last active: its latest message, else its start (what export's
``since`` and the listing's order by activity compare)."""


@cache
def in_home_sql(d: Dialect) -> str:
    """Whether the row under alias ``{a}`` came from the home labelled by the parameter."""
    return (
        "EXISTS (SELECT 1 FROM hs_sync_sessions hs JOIN hs_sync_homes hh ON hh.id = hs.home_id"
        f" WHERE hs.session_id = {{a}}.id AND hh.label = {d.p})"
    )


_TOKENS = "(COALESCE({a}.input_tokens, 0) + COALESCE({a}.output_tokens, 0))"
_COST = "COALESCE({a}.actual_cost_usd, {a}.estimated_cost_usd, 0)"
_TOOL_CALLS = "COALESCE({a}.tool_call_count, 0)"
_WORKSPACE = "LOWER(COALESCE(NULLIF(TRIM({a}.git_repo_root), ''), TRIM({a}.cwd), ''))"


@cache
def cwd_sql(d: Dialect) -> str:
    """Sessions ``{a}`` run in a directory or anywhere under it (parameters: :func:`cwd_params`)."""
    like = d.casefold_like
    return f"({{a}}.cwd = {d.p} OR {{a}}.cwd {like} {d.p} ESCAPE '\\' OR {{a}}.cwd {like} {d.p} ESCAPE '\\')"


@cache
def workspace_sql(d: Dialect) -> str:
    """Sessions ``{a}`` whose workspace (git repository root, else working directory) contains the
    parameter, a pattern of :func:`workspace_pattern` (the agent's ``sessions list --workspace``)."""
    return f"{_WORKSPACE} {d.casefold_like} {d.p} ESCAPE '\\'"


def source_clauses(
    d: Dialect, sources: Sequence[str] | None, exclude_sources: Sequence[str], a: str = "s"
) -> Clauses:
    """Clauses keeping the rows of ``sources`` (every source when ``None``) and dropping those of
    ``exclude_sources`` (a missing source counts as ``''``), with their parameters."""
    clauses: list[str] = []
    params: list[Any] = []
    if sources is not None:
        clauses.append(f"{a}.source IN ({','.join([d.p] * len(sources))})")
        params.extend(sources)
    if exclude_sources:
        clauses.append(f"COALESCE({a}.source, '') NOT IN ({','.join([d.p] * len(exclude_sources))})")
        params.extend(exclude_sources)
    return clauses, params


def _contains(value: str) -> str:
    return f"%{like_escape(value.lower())}%"


def cwd_params(cwd: str) -> tuple[str, str, str]:
    """The parameters of :func:`cwd_sql` for a directory (a trailing separator is ignored)."""
    prefix = cwd.rstrip("/\\") or cwd
    under = like_escape(prefix)
    return prefix, f"{under}/%", f"{under}\\\\%"


def workspace_pattern(workspace: str) -> str:
    """The parameter of :func:`workspace_sql` for a typed workspace (case-insensitive, trimmed)."""
    return _contains(workspace.strip())


def time_clauses(d: Dialect, flt: SessionFilter, alias: str = "s") -> Clauses:
    """The ``started_at`` bounds of ``flt``."""
    clauses: list[str] = []
    params: list[Any] = []
    if flt.started_before is not None:
        clauses.append(f"{alias}.started_at < {d.p}")
        params.append(flt.started_before)
    if flt.started_after is not None:
        clauses.append(f"{alias}.started_at >= {d.p}")
        params.append(flt.started_after)
    return clauses, params


def attribute_clauses(d: Dialect, flt: SessionFilter, alias: str = "s") -> Clauses:
    """Every criterion of ``flt`` except the time bounds and ``archived``."""
    a = alias
    clauses: list[str] = []
    params: list[Any] = []

    def add(sql: str, *values: Any) -> None:
        clauses.append(sql.format(a=a))
        params.extend(values)

    for column, value in (
        ("source", flt.source),
        ("end_reason", flt.end_reason),
        ("user_id", flt.user),
        ("chat_id", flt.chat_id),
        ("chat_type", flt.chat_type),
        ("profile_name", flt.profile),
    ):
        if value:
            add(f"{{a}}.{column} = {d.p}", value)
    if flt.home:
        add(in_home_sql(d), flt.home)
    for column, value in (("title", flt.title), ("model", flt.model), ("git_branch", flt.branch)):
        if value:
            add(f"LOWER(COALESCE({{a}}.{column}, '')) {d.casefold_like} {d.p} ESCAPE '\\'", _contains(value))
    if flt.provider:
        add(f"LOWER(COALESCE({{a}}.billing_provider, '')) = {d.p}", flt.provider.lower())
    if flt.cwd:
        add(cwd_sql(d), *cwd_params(flt.cwd))
    if flt.workspace and flt.workspace.strip():
        add(workspace_sql(d), workspace_pattern(flt.workspace))
    for expr, low, high in (
        ("{a}.message_count", flt.min_messages, flt.max_messages),
        (_TOKENS, flt.min_tokens, flt.max_tokens),
        (_COST, flt.min_cost, flt.max_cost),
        (_TOOL_CALLS, flt.min_tool_calls, flt.max_tool_calls),
    ):
        if low is not None:
            add(f"{expr} >= {d.p}", low)
        if high is not None:
            add(f"{expr} <= {d.p}", high)
    return clauses, params


def archived_clauses(d: Dialect, flt: SessionFilter, alias: str = "s") -> Clauses:
    """The ``archived`` tri-state of ``flt`` (nothing when ``None``)."""
    if flt.archived is None:
        return [], []
    return [f"{alias}.archived = {d.p}"], [1 if flt.archived else 0]


def filter_clauses(d: Dialect, flt: SessionFilter, alias: str = "s") -> Clauses:
    """All of ``flt``: time bounds, criteria and ``archived``."""
    clauses: list[str] = []
    params: list[Any] = []
    for part in (time_clauses, attribute_clauses, archived_clauses):
        more, values = part(d, flt, alias)
        clauses += more
        params += values
    return clauses, params
