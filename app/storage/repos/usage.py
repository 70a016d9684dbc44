"""Token and cost counters of a session, written like the agent's ``update_token_counts``."""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass

_INCREMENT_SQL = """UPDATE sessions SET
    input_tokens = COALESCE(input_tokens, 0) + ?,
    output_tokens = COALESCE(output_tokens, 0) + ?,
    cache_read_tokens = COALESCE(cache_read_tokens, 0) + ?,
    cache_write_tokens = COALESCE(cache_write_tokens, 0) + ?,
    reasoning_tokens = COALESCE(reasoning_tokens, 0) + ?,
    estimated_cost_usd = COALESCE(estimated_cost_usd, 0) + COALESCE(?, 0),
    actual_cost_usd = CASE WHEN ? IS NULL THEN actual_cost_usd ELSE COALESCE(actual_cost_usd, 0) + ? END,
    billing_provider = COALESCE(billing_provider, ?),
    billing_base_url = COALESCE(billing_base_url, ?),
    billing_mode = COALESCE(billing_mode, ?),
    model = COALESCE(model, ?),
    api_call_count = COALESCE(api_call_count, 0) + ?
    WHERE id = ?"""

_ABSOLUTE_SQL = """UPDATE sessions SET
    input_tokens = ?,
    output_tokens = ?,
    cache_read_tokens = ?,
    cache_write_tokens = ?,
    reasoning_tokens = ?,
    estimated_cost_usd = COALESCE(?, 0),
    actual_cost_usd = CASE WHEN ? IS NULL THEN actual_cost_usd ELSE ? END,
    billing_provider = COALESCE(billing_provider, ?),
    billing_base_url = COALESCE(billing_base_url, ?),
    billing_mode = COALESCE(billing_mode, ?),
    model = COALESCE(model, ?),
    api_call_count = ?
    WHERE id = ?"""

_MODEL_USAGE_SQL = """INSERT INTO session_model_usage (
    session_id, model, billing_provider, billing_base_url, billing_mode, task, api_call_count,
    input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens,
    estimated_cost_usd, actual_cost_usd, cost_status, cost_source, first_seen, last_seen
) VALUES (?, ?, ?, ?, ?, '', ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?)
ON CONFLICT(session_id, model, billing_provider, billing_base_url, billing_mode, task) DO UPDATE SET
    api_call_count = api_call_count + excluded.api_call_count,
    input_tokens = input_tokens + excluded.input_tokens,
    output_tokens = output_tokens + excluded.output_tokens,
    cache_read_tokens = cache_read_tokens + excluded.cache_read_tokens,
    cache_write_tokens = cache_write_tokens + excluded.cache_write_tokens,
    reasoning_tokens = reasoning_tokens + excluded.reasoning_tokens,
    estimated_cost_usd = estimated_cost_usd + excluded.estimated_cost_usd,
    actual_cost_usd = actual_cost_usd + excluded.actual_cost_usd,
    last_seen = excluded.last_seen"""


@dataclass(frozen=True)
class Usage:
    """One usage report: deltas (``absolute=False``) or cumulative totals (``absolute=True``)."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    reasoning_tokens: int = 0
    api_call_count: int = 0
    estimated_cost_usd: float | None = None
    actual_cost_usd: float | None = None
    model: str | None = None
    billing_provider: str | None = None
    billing_base_url: str | None = None
    billing_mode: str | None = None
    absolute: bool = False

    @property
    def accounted(self) -> bool:
        """Whether the report carries any usage at all (the agent ignores route fields otherwise)."""
        return bool(
            self.input_tokens
            or self.output_tokens
            or self.cache_read_tokens
            or self.cache_write_tokens
            or self.reasoning_tokens
            or self.api_call_count
            or self.estimated_cost_usd
            or self.actual_cost_usd
        )


def record_usage(conn: sqlite3.Connection, session_id: str, usage: Usage) -> None:
    """Apply a usage report to an existing session, as ``SessionDB.update_token_counts`` would.

    The model (and billing route) is only filled while still NULL; incremental reports are also rolled up
    per model into ``session_model_usage`` (absolute totals cannot be split, so they are not).
    """
    accounted = usage.accounted
    params = (
        usage.input_tokens,
        usage.output_tokens,
        usage.cache_read_tokens,
        usage.cache_write_tokens,
        usage.reasoning_tokens,
        usage.estimated_cost_usd,
        usage.actual_cost_usd,
        usage.actual_cost_usd,
        usage.billing_provider if accounted else None,
        usage.billing_base_url if accounted else None,
        usage.billing_mode if accounted else None,
        usage.model if accounted else None,
        usage.api_call_count,
        session_id,
    )
    conn.execute(_ABSOLUTE_SQL if usage.absolute else _INCREMENT_SQL, params)
    if usage.absolute or not accounted:
        return
    row = conn.execute(
        "SELECT model, billing_provider, billing_base_url, billing_mode FROM sessions WHERE id = ?",
        (session_id,),
    ).fetchone()
    now = time.time()
    conn.execute(
        _MODEL_USAGE_SQL,
        (
            session_id,
            usage.model or row["model"] or "unknown",
            usage.billing_provider or row["billing_provider"] or "",
            usage.billing_base_url or row["billing_base_url"] or "",
            usage.billing_mode or row["billing_mode"] or "",
            usage.api_call_count,
            usage.input_tokens,
            usage.output_tokens,
            usage.cache_read_tokens,
            usage.cache_write_tokens,
            usage.reasoning_tokens,
            float(usage.estimated_cost_usd or 0.0),
            float(usage.actual_cost_usd or 0.0),
            now,
            now,
        ),
    )
