"""Token and cost counters of a session, written like the agent's ``update_token_counts``."""

from __future__ import annotations

import time
from typing import Any

from app.domain.stored_json import MAX_COUNTER
from app.storage.rows import TOKEN_COUNTERS, Usage
from app.storage.sqlite.driver import sqlite3

# Counters saturate at int64's maximum (MAX_COUNTER): ``c + n`` past it would make SQLite store a REAL in
# the agent's INTEGER column (and a REAL already there, from an older build or the agent, is brought back).


def saturating_add_sql(column: str, param: str) -> str:
    """SQL for ``column + :param`` (``param`` >= 0) that stays an INTEGER and stops at ``MAX_COUNTER``."""
    return saturating_add_expr(column, f":{param}")


def saturating_add_expr(column: str, amount: str) -> str:
    """:func:`saturating_add_sql` of any SQL expression ``amount`` (>= 0), such as another table's column."""
    return (
        f"CASE WHEN COALESCE({column}, 0) >= {MAX_COUNTER} - {amount} THEN {MAX_COUNTER}"
        f" ELSE CAST(COALESCE({column}, 0) AS INTEGER) + {amount} END"
    )


_INCREMENT_SQL = (
    "UPDATE sessions SET "
    + "".join(f"{c} = {saturating_add_sql(c, c)}, " for c in TOKEN_COUNTERS)
    + """estimated_cost_usd = COALESCE(estimated_cost_usd, 0) + COALESCE(:estimated_cost_usd, 0),
    actual_cost_usd = CASE WHEN CAST(:actual_cost_usd AS REAL) IS NULL THEN actual_cost_usd
        ELSE COALESCE(actual_cost_usd, 0) + :actual_cost_usd END,
    billing_provider = COALESCE(billing_provider, :billing_provider),
    billing_base_url = COALESCE(billing_base_url, :billing_base_url),
    billing_mode = COALESCE(billing_mode, :billing_mode),
    model = COALESCE(model, :model),
    api_call_count = """
    + saturating_add_sql("api_call_count", "api_call_count")
    + " WHERE id = :session_id"
)

# ``CAST(:actual_cost_usd AS REAL) IS NULL``: a bare parameter has no type for PostgreSQL to test when NULL.
_ABSOLUTE_SQL = """UPDATE sessions SET
    input_tokens = :input_tokens,
    output_tokens = :output_tokens,
    cache_read_tokens = :cache_read_tokens,
    cache_write_tokens = :cache_write_tokens,
    reasoning_tokens = :reasoning_tokens,
    estimated_cost_usd = COALESCE(:estimated_cost_usd, 0),
    actual_cost_usd = CASE WHEN CAST(:actual_cost_usd AS REAL) IS NULL THEN actual_cost_usd
        ELSE :actual_cost_usd END,
    billing_provider = COALESCE(billing_provider, :billing_provider),
    billing_base_url = COALESCE(billing_base_url, :billing_base_url),
    billing_mode = COALESCE(billing_mode, :billing_mode),
    model = COALESCE(model, :model),
    api_call_count = :api_call_count
    WHERE id = :session_id"""

_MODEL_USAGE_SQL = """INSERT INTO session_model_usage (
    session_id, model, billing_provider, billing_base_url, billing_mode, task, api_call_count,
    input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens,
    estimated_cost_usd, actual_cost_usd, cost_status, cost_source, first_seen, last_seen
) VALUES (:session_id, :model, :billing_provider, :billing_base_url, :billing_mode, '', :api_call_count,
    :input_tokens, :output_tokens, :cache_read_tokens, :cache_write_tokens, :reasoning_tokens,
    :estimated_cost_usd, :actual_cost_usd, NULL, NULL, :now, :now)
ON CONFLICT(session_id, model, billing_provider, billing_base_url, billing_mode, task) DO UPDATE SET
    api_call_count = {api_call_count},
    input_tokens = {input_tokens},
    output_tokens = {output_tokens},
    cache_read_tokens = {cache_read_tokens},
    cache_write_tokens = {cache_write_tokens},
    reasoning_tokens = {reasoning_tokens},
    estimated_cost_usd = session_model_usage.estimated_cost_usd + excluded.estimated_cost_usd,
    actual_cost_usd = session_model_usage.actual_cost_usd + excluded.actual_cost_usd,
    last_seen = excluded.last_seen""".format(
    # Qualified: in an upsert PostgreSQL cannot tell the row's column from ``excluded``'s by name alone.
    **{c: saturating_add_sql(f"session_model_usage.{c}", c) for c in ("api_call_count", *TOKEN_COUNTERS)}
)


def record_usage(conn: sqlite3.Connection, session_id: str, usage: Usage) -> None:
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
    conn.execute(_ABSOLUTE_SQL if usage.absolute else _INCREMENT_SQL, params)
    if usage.absolute or not accounted:
        return
    row = conn.execute(
        "SELECT model, billing_provider, billing_base_url, billing_mode FROM sessions WHERE id = ?",
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
    conn.execute(_MODEL_USAGE_SQL, params)
