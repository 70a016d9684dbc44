"""The pure sync rules: home labels, row digests and the title a conflicting session takes."""

from __future__ import annotations

from app.domain.sync import conflict_title, default_home, home_problem, row_digest
from app.domain.titles import MAX_TITLE_LENGTH


def test_home_labels() -> None:
    assert default_home("laptop", "/home/me/.hermes/state.db") == "laptop:/home/me/.hermes/state.db"
    assert home_problem("laptop") is None
    assert home_problem("  ") is not None
    assert home_problem("a" * 513) is not None
    assert home_problem("lap\ttop") is not None
    assert home_problem("lap\ud800top") is not None


def test_a_digest_changes_with_any_value_and_only_then() -> None:
    row = ("s1", "cli", "Title", 1.5, None, 3, b"\x00\x01")
    assert row_digest(row) == row_digest(list(row))
    others: tuple[bytes | float | str | None, ...] = ("s2", "tui", "Title2", 1.25, 0, 4, b"\x00\x02")
    for i, other in enumerate(others):
        changed = list(row)
        changed[i] = other
        assert row_digest(changed) != row_digest(row), i


def test_a_conflicting_title_names_its_home_within_the_length_limit() -> None:
    assert conflict_title("Daily notes", "server") == "Daily notes [server]"
    long_title = conflict_title("x" * MAX_TITLE_LENGTH, "server")
    assert len(long_title) <= MAX_TITLE_LENGTH and long_title.endswith(" [server]")
    long_home = conflict_title("Daily notes", "h" * 500)
    assert len(long_home) <= MAX_TITLE_LENGTH and long_home.startswith("Daily notes")
