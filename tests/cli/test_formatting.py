"""Exact output formats of the agent's CLI (checks 85-87, stats, epilogue, browse labels)."""

from __future__ import annotations

from datetime import datetime

import pytest

from app.cli import formatting as fmt

NOW = 1_800_000_000.0


@pytest.mark.parametrize(
    ("age", "expected"),
    [
        (30, "just now"),
        (59, "just now"),
        (60, "1m ago"),
        (119, "1m ago"),
        (3599, "59m ago"),
        (3600, "1h ago"),
        (7199, "1h ago"),
        (86399, "23h ago"),
        (86400, "yesterday"),
        (172799, "yesterday"),
        (172800, "2d ago"),
        (604799, "6d ago"),
        (-500, "just now"),
    ],
)
def test_relative_time_buckets(age: float, expected: str) -> None:
    assert fmt.relative_time(NOW - age, now=NOW) == expected


def test_relative_time_a_week_old_is_a_local_date_and_none_is_unknown() -> None:
    ts = NOW - 604800
    assert fmt.relative_time(ts, now=NOW) == datetime.fromtimestamp(ts).strftime("%Y-%m-%d")
    assert fmt.relative_time(None, now=NOW) == "?"
    assert fmt.relative_time(0, now=NOW) == "?"


def _row(**fields: object) -> dict[str, object]:
    base: dict[str, object] = {"id": "20260412_143005_a1b2c3", "title": None, "preview": "", "source": "cli"}
    return {**base, "last_active": NOW - 7200, **fields}


def test_titled_layout_widths_em_dash_and_truncation() -> None:
    rows = [
        _row(title="T" * 45, preview="p" * 70),
        _row(id="20260411_091200_ffee01", preview="hello", last_active=NOW - 90000),
    ]
    lines = fmt.session_list_lines(rows, now=NOW)
    assert lines[0] == f"{'Title':<32} {'Preview':<40} {'Last Active':<13} ID"
    assert lines[1] == "─" * 110
    assert lines[2] == f"{'T' * 30:<32} {'p' * 38:<40} {'2h ago':<13} 20260412_143005_a1b2c3"
    assert lines[3] == f"{'—':<32} {'hello':<40} {'yesterday':<13} 20260411_091200_ffee01"


def test_untitled_layout_widths_and_source_not_truncated() -> None:
    rows = [
        _row(preview="x" * 60, last_active=NOW - 300),
        _row(id="20260620_204135_bf20d558", preview="hi", source="telegram", last_active=NOW - 10),
    ]
    lines = fmt.session_list_lines(rows, now=NOW)
    assert lines[0] == f"{'Preview':<50} {'Last Active':<13} {'Src':<6} ID"
    assert lines[1] == "─" * 95
    assert lines[2] == f"{'x' * 48:<50} {'5m ago':<13} cli    20260412_143005_a1b2c3"
    assert lines[3] == f"{'hi':<50} {'just now':<13} telegram 20260620_204135_bf20d558"


def test_empty_list() -> None:
    assert fmt.session_list_lines([]) == ["No sessions found."]


def test_stats_lists_every_source_with_sessions_and_adds_the_wal() -> None:
    """Deliberately unlike the agent, which lists only cli, telegram, discord, whatsapp, slack."""
    stats = {
        "sessions": 145,
        "messages": 5871,
        "by_source": {"cli": 97, "telegram": 38, "discord": 7, "signal": 3, "slack": 0},
        "database_bytes": int(12.4 * 1024 * 1024),
        "wal_bytes": 0,
    }
    assert fmt.stats_lines(stats) == [
        "Total sessions: 145",
        "Total messages: 5871",
        "  cli: 97 sessions",
        "  telegram: 38 sessions",
        "  discord: 7 sessions",
        "  signal: 3 sessions",
        "Database size: 12.4 MB",
    ]
    with_wal = fmt.stats_lines({**stats, "wal_bytes": int(0.6 * 1024 * 1024)})
    assert with_wal[-1] == "Database size: 13.0 MB (state.db 12.4 MB + WAL 0.6 MB)"


@pytest.mark.parametrize(("seconds", "text"), [(39, "39s"), (66, "1m 6s"), (6506, "1h 48m 26s"), (0, "0s")])
def test_duration_omits_leading_zero_units(seconds: float, text: str) -> None:
    assert fmt.duration(seconds) == text


def test_exit_epilogue_layout() -> None:
    assert fmt.exit_epilogue("20260627_184951_ba55a7", 66.4, 2, 1, 0) == [
        "Resume this session with:",
        "  hermes --resume 20260627_184951_ba55a7",
        "",
        "Session:        20260627_184951_ba55a7",
        "Duration:       1m 6s",
        "Messages:       2 (1 user, 0 tool calls)",
    ]


def test_resume_banner_plural_and_title() -> None:
    assert fmt.resume_banner("s1", "my project", 1, 2) == (
        '↻ Resumed session s1 "my project" (1 user message, 2 total messages)'
    )
    assert fmt.resume_banner("s1", None, 3, 6) == "↻ Resumed session s1 (3 user messages, 6 total messages)"


def test_browse_label_and_filter() -> None:
    assert fmt.browse_label({"id": "x", "title": None, "preview": "p" * 51}) == "p" * 47 + "..."
    assert fmt.browse_label({"id": "x", "title": "t" * 50, "preview": ""}) == "t" * 50
    assert fmt.browse_label({"id": "abc", "title": " ", "preview": ""}) == "abc"
    session = {"id": "20260101_000000_abcdef", "title": "Docker Setup", "preview": "", "source": "telegram"}
    assert fmt.browse_matches(session, "docker")
    assert fmt.browse_matches(session, "TELEG")
    assert fmt.browse_matches(session, "abcdef")
    assert not fmt.browse_matches(session, "kubernetes")


def test_messages_not_yet_searchable_are_counted() -> None:
    stats = {"sessions": 1, "messages": 3, "by_source": {}, "database_bytes": 0}
    assert fmt.stats_lines({**stats, "indexing": {"pending_messages": 0}})[-1].startswith("Database size")
    pending = {**stats, "indexing": {"pending_messages": 2}}
    assert fmt.stats_lines(pending)[-1] == "2 messages still being indexed: search does not find them yet."
    assert fmt.indexing_line({"indexing": {"pending_messages": 1}}) == [
        "1 message still being indexed: search does not find them yet."
    ]
