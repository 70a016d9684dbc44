"""Test code opens SQLite files through the server's own library (``tests/one_sqlite.py`` says why): a test
module importing the standard library's ``sqlite3`` only works because that plugin swaps the module, and
the first run without it (another runner, ``-p no:...``, an interpreter that loaded ``sqlite3`` earlier) would
put a second SQLite copy beside the server's connections."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent

# Test files that import the standard library's module on purpose, and why.
STDLIB_SQLITE: dict[str, str] = {
    "compat/oracle_driver.py": "runs beside an agent build in a process of its own; in the test process its"
    " FTS check is handed the server's library",
    "test_layers.py": "tells a driver's objects by their module; opens no file",
}


def _imports_stdlib_sqlite(path: Path) -> bool:
    """Whether ``path`` imports ``sqlite3`` (or a submodule) anywhere, function-level imports included."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        else:
            continue
        if any(name.split(".")[0] == "sqlite3" for name in names):
            return True
    return False


def test_tests_import_sqlite_from_the_server_driver() -> None:
    found = {p.relative_to(TESTS).as_posix() for p in TESTS.rglob("*.py") if _imports_stdlib_sqlite(p)}
    assert found == set(STDLIB_SQLITE), "import sqlite3 as `from app.storage.sqlite.driver import sqlite3`"
