"""Pure retention rules (app/domain/retention.py)."""

from __future__ import annotations

from app.domain.retention import cutoff, is_due, next_due, parse_marker, vacuum_worth_it


def test_marker_parsing_follows_the_agent() -> None:
    assert parse_marker("1776000000.5") == 1776000000.5
    for garbage in (None, "", "garbage", "nan", "inf", "-inf"):
        assert parse_marker(garbage) is None


def test_due_and_next_run() -> None:
    now = 1_000_000.0
    assert is_due(None, now, 24)
    assert not is_due(now - 23 * 3600, now, 24)
    assert is_due(now - 25 * 3600, now, 24)
    assert next_due(None, now, 24) == now
    assert next_due(now - 3600, now, 24) == now + 23 * 3600
    assert cutoff(now, 1) == now - 86400


def test_vacuum_needs_a_prune_and_enough_free_pages() -> None:
    assert not vacuum_worth_it(0, 900, 1000, 0.25)
    assert not vacuum_worth_it(3, 100, 1000, 0.25)
    assert vacuum_worth_it(3, 250, 1000, 0.25)
    assert vacuum_worth_it(1, 0, 10, 0.0)
