"""Token and cost counters of a session, written like the agent's ``update_token_counts``."""

from __future__ import annotations

import time
from functools import cache
from typing import Any

from app.domain.stored_json import MAX_COUNTER
from app.storage.dialect import Dialect
from app.storage.repos.repository import Repository
from app.storage.rows import TOKEN_COUNTERS, Usage

# Counters saturate at int64's maximum (MAX_COUNTER): ``c + n`` past it would make SQLite store a REAL in
# the agent's INTEGER column (and a REAL already there, from an older build or the agent, is brought back).


def saturating_add_sql(d: Dialect, column: str, param: str) -> str:
    """SQL for ``column + :param`` (``param`` >= 0) that stays an INTEGER and stops at ``MAX_COUNTER``."""
    return saturating_add_expr(d, column, d.named(param))


def saturating_add_expr(d: Dialect, column: str, amount: str) -> str:
    """:func:`saturating_add_sql` of any SQL expression ``amount`` (>= 0), such as another table's column."""
    return (
        f"CASE WHEN COALESCE({column}, 0) >= {MAX_COUNTER} - {amount} THEN {MAX_COUNTER}"
        f" ELSE {d.int64_cast(f'COALESCE({column}, 0)')} + {amount} END"
    )


@cache
def _increment_sql(d: Dialect) -> str:
    n = d.named
    return (
        "UPDATE sessions SET "
        + "".join(f"{c} = {saturating_add_sql(d, c, c)}, " for c in TOKEN_COUNTERS)
        + f"""estimated_cost_usd = COALESCE(estimated_cost_usd, 0) + COALESCE({n("estimated_cost_usd")}, 0),
    actual_cost_usd = CASE WHEN CAST({n("actual_cost_usd")} AS REAL) IS NULL THEN actual_cost_usd
        ELSE COALESCE(actual_cost_usd, 0) + {n("actual_cost_usd")} END,
    billing_provider = COALESCE(billing_provider, {n("billing_provider")}),
    billing_base_url = COALESCE(billing_base_url, {n("billing_base_url")}),
    billing_mode = COALESCE(billing_mode, {n("billing_mode")}),
    model = COALESCE(model, {n("model")}),
    api_call_count = """
        + saturating_add_sql(d, "api_call_count", "api_call_count")
        + f" WHERE id = {n('session_id')}"
    )


# ``CAST(:actual_cost_usd AS REAL) IS NULL``: a bare parameter has no type for PostgreSQL to test when NULL.
@cache
def _absolute_sql(d: Dialect) -> str:
    n = d.named
    return f"""UPDATE sessions SET
    input_tokens = {n("input_tokens")},
    output_tokens = {n("output_tokens")},
    cache_read_tokens = {n("cache_read_tokens")},
    cache_write_tokens = {n("cache_write_tokens")},
    reasoning_tokens = {n("reasoning_tokens")},
    estimated_cost_usd = COALESCE({n("estimated_cost_usd")}, 0),
    actual_cost_usd = CASE WHEN CAST({n("actual_cost_usd")} AS REAL) IS NULL THEN actual_cost_usd
        ELSE {n("actual_cost_usd")} END,
    billing_provider = COALESCE(billing_provider, {n("billing_provider")}),
    billing_base_url = COALESCE(billing_base_url, {n("billing_base_url")}),
    billing_mode = COALESCE(billing_mode, {n("billing_mode")}),
    model = COALESCE(model, {n("model")}),
    api_call_count = {n("api_call_count")}
    WHERE id = {n("session_id")}"""


@cache
def _model_usage_sql(d: Dialect) -> str:
    n = d.named
    # Qualified: in an upsert PostgreSQL cannot tell the row's column from ``excluded``'s by name alone.
    add = {
        c: saturating_add_sql(d, f"session_model_usage.{c}", c) for c in ("api_call_count", *TOKEN_COUNTERS)
    }
    return f"""INSERT INTO session_model_usage (
    session_id, model, billing_provider, billing_base_url, billing_mode, task, api_call_count,
    input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens,
    estimated_cost_usd, actual_cost_usd, cost_status, cost_source, first_seen, last_seen
) VALUES ({n("session_id")}, {n("model")}, {n("billing_provider")}, {n("billing_base_url")}, \
{n("billing_mode")}, '', {n("api_call_count")},
    {n("input_tokens")}, {n("output_tokens")}, {n("cache_read_tokens")}, {n("cache_write_tokens")}, \
{n("reasoning_tokens")},
    {n("estimated_cost_usd")}, {n("actual_cost_usd")}, NULL, NULL, {n("now")}, {n("now")})
ON CONFLICT(session_id, model, billing_provider, billing_base_url, billing_mode, task) DO UPDATE SET
    api_call_count = {add["api_call_count"]},
    input_tokens = {add["input_tokens"]},
    output_tokens = {add["output_tokens"]},
    cache_read_tokens = {add["cache_read_tokens"]},
    cache_write_tokens = {add["cache_write_tokens"]},
    reasoning_tokens = {add["reasoning_tokens"]},
    estimated_cost_usd = session_model_usage.estimated_cost_usd + excluded.estimated_cost_usd,
    actual_cost_usd = session_model_usage.actual_cost_usd + excluded.actual_cost_usd,
    last_seen = excluded.last_seen"""


class UsageCounters(Repository):
    """A session's token and cost counters."""

    __slots__ = ()

    def record_usage(self, session_id: str, usage: Usage) -> None:
        """Apply a usage report to an existing session, as ``SessionDB.update_token_counts`` would.

        The model (and billing route) is only filled while still NULL; incremental reports are also rolled up
        per model into ``session_model_usage`` (absolute totals cannot be split, so they are not).
        """
        accounted = usage.accounted
        params: dict[str, Any] = {
            "session_id": session_id,
            # Larger values cannot even be bound; they saturate like the sums do.
            **{c: min(getattr(usage, c), MAX_COUNTER) for c in ("api_call_count", *TOKEN_COUNTERS)},
            "estimated_cost_usd": usage.estimated_cost_usd,
            "actual_cost_usd": usage.actual_cost_usd,
            "billing_provider": usage.billing_provider if accounted else None,
            "billing_base_url": usage.billing_base_url if accounted else None,
            "billing_mode": usage.billing_mode if accounted else None,
            "model": usage.model if accounted else None,
        }
        self.conn.execute(_absolute_sql(self.d) if usage.absolute else _increment_sql(self.d), params)
        if usage.absolute or not accounted:
            return
        row = self.conn.execute(
            "SELECT model, billing_provider, billing_base_url, billing_mode FROM sessions"
            f" WHERE id = {self.d.p}",
            (session_id,),
        ).fetchone()
        params.update(
            model=usage.model or row["model"] or "unknown",
            billing_provider=usage.billing_provider or row["billing_provider"] or "",
            billing_base_url=usage.billing_base_url or row["billing_base_url"] or "",
            billing_mode=usage.billing_mode or row["billing_mode"] or "",
            estimated_cost_usd=float(usage.estimated_cost_usd or 0.0),
            actual_cost_usd=float(usage.actual_cost_usd or 0.0),
            now=time.time(),
        )
        self.conn.execute(_model_usage_sql(self.d), params)
