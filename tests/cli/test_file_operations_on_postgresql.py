"""The CLI's SQLite file operations against a PostgreSQL server: a clear sentence and a failing exit code,
never a traceback."""

from __future__ import annotations

import pytest

from app.settings import Settings
from tests.cli.conftest import Run, Seeder


@pytest.mark.parametrize(
    "argv",
    [
        ("sessions", "vacuum"),
        ("sessions", "backup"),
        ("sessions", "optimize"),
        ("sessions", "repair"),
    ],
)
def test_file_operations_say_the_backend_has_no_file(
    settings: Settings, run: Run, seed: Seeder, argv: tuple[str, ...]
) -> None:
    if not settings.database_url:
        pytest.skip("the SQLite runs of these commands are in test_maintenance_cli.py")
    seed.chat(seed.session()["id"], 2)
    result = run(*argv)
    assert result.exit_code == 1, result.output
    said = result.output
    assert "works on the SQLite file state.db, and this server stores sessions in PostgreSQL" in said
    assert "nothing was done. Use PostgreSQL's own tools for this (VACUUM, REINDEX, pg_dump)." in said
    assert "Traceback" not in result.output
