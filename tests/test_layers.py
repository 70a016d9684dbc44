"""The layer rules, read from the source: imports point down only, and SQL lives in ``app/storage``.

HTTP (``app/api``, and the MCP server in ``app/mcp``) -> services -> domain -> storage. Storage never
imports services or the API, services never import the API, and neither services nor the API (nor the MCP
server, nor the app factory) touch ``sqlite3``, the SQLite backend (``app.storage.sqlite``: its store, Tx,
connections and workers), the repositories (``app.storage.repos``) or SQL text: they see storage through
``app.storage.protocols`` (the ``Store`` that ``app.storage.backends.open_store`` returns), so another
backend plugs in underneath.

Each backend keeps to itself: the SQLite backend and the modules both share import nothing of the PostgreSQL
backend, the PostgreSQL backend imports nothing of the SQLite one but its driver module (see
:data:`POSTGRES_MAY_IMPORT`), and services import no backend module or type: nothing of either backend,
``psycopg`` or ``sqlite3``, and no type of the store's contract that one backend's store takes only to drop
it (an argument only the other backend reads). Row types are imported from ``app.storage.rows``, where they
live, never through a module that re-exports them.
"""

from __future__ import annotations

import ast
import functools
import importlib
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

APP = Path(__file__).resolve().parents[1] / "app"

# The SQLite backend's own modules: only storage (and open_store, which picks a backend) may import them.
SQLITE_BACKEND = ("sqlite3", "app.storage.sqlite", "app.storage.repos")
# The SQLite backend's package and its driver.
SQLITE_ONLY = ("sqlite3", "app.storage.sqlite")
# What the PostgreSQL backend may import of the SQLite one: the driver module, whose ``sqlite3.Connection``
# types the connection the shared repository functions take (the PostgreSQL backend hands them a wrapper
# offering the same calls).
POSTGRES_MAY_IMPORT = {"app.storage.sqlite.driver", "app.storage.sqlite.driver.sqlite3"}
# The PostgreSQL backend's modules and its driver.
POSTGRES_BACKEND = ("app.storage.postgres", "psycopg", "psycopg_pool")
# The stores implementing the contract's ``Store``: (module, class).
STORES = (
    (APP / "storage" / "sqlite" / "store.py", "Database"),
    (APP / "storage" / "postgres" / "store.py", "PgStore"),
)
# Modules that still speak SQLite directly, and why; the list only shrinks (a converted module must leave
# it: test_the_allow_list_is_current).
STILL_ON_SQLITE: dict[str, str] = {}

# Statements as this codebase writes them (upper-case keywords); a bare transaction statement only when it
# is the whole string, since "VACUUM" or "COMMIT" also occur in sentences. Docstrings are not looked at.
_SQL = re.compile(
    r"(^|\s)(SELECT\s.+\sFROM\s|INSERT\s+(OR\s+\w+\s+)?INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s|"
    r"PRAGMA\s+\w|SAVEPOINT\s+\w|RELEASE\s+\w|ROLLBACK\s+TO\s|CREATE\s+(TABLE|INDEX|TRIGGER|VIRTUAL)\s|"
    r"DROP\s+(TABLE|INDEX|TRIGGER)\s)"
    r"|^\s*(BEGIN(\s+IMMEDIATE)?|COMMIT|ROLLBACK|VACUUM)\s*;?\s*$",
    re.S,
)


def _modules(layer: str) -> list[Path]:
    return sorted((APP / layer).rglob("*.py"))


def _rel(path: Path) -> str:
    return path.relative_to(APP.parent).as_posix()


def _imports(tree: ast.AST) -> Iterator[str]:
    """Every module a file imports, at any depth (function-level imports included)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


def _docstrings(tree: ast.AST) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _sql_strings(tree: ast.AST) -> list[str]:
    docs = _docstrings(tree)
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docs
        and _SQL.search(node.value)
    ]


def _parse(path: Path) -> ast.AST:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _offending(imported: list[str], prefixes: tuple[str, ...]) -> list[str]:
    """The imported names that are one of ``prefixes`` or inside one of them."""
    return sorted(
        {name for name in imported if name in prefixes or name.startswith(tuple(f"{p}." for p in prefixes))}
    )


@pytest.mark.parametrize("path", _modules("storage"), ids=_rel)
def test_storage_imports_neither_services_nor_api(path: Path) -> None:
    imported = list(_imports(_parse(path)))
    assert _offending(imported, ("app.services", "app.api", "app.mcp")) == []


@pytest.mark.parametrize("path", _modules("domain"), ids=_rel)
def test_domain_imports_no_layer_above_or_storage(path: Path) -> None:
    imported = list(_imports(_parse(path)))
    assert _offending(imported, ("app.services", "app.api", "app.mcp", "app.storage", "sqlite3")) == []


@pytest.mark.parametrize("path", _modules("services"), ids=_rel)
def test_services_never_import_the_api(path: Path) -> None:
    assert _offending(list(_imports(_parse(path))), ("app.api", "app.web", "app.mcp")) == []


_SQLITE_STORAGE = [path for path in _modules("storage") if "postgres" not in path.relative_to(APP).parts]


@pytest.mark.parametrize("path", _SQLITE_STORAGE, ids=_rel)
def test_sqlite_storage_imports_nothing_of_postgresql(path: Path) -> None:
    assert _offending(list(_imports(_parse(path))), POSTGRES_BACKEND) == []


@pytest.mark.parametrize("path", _modules("storage/postgres"), ids=_rel)
def test_postgresql_storage_imports_nothing_of_sqlite(path: Path) -> None:
    offending = set(_offending(list(_imports(_parse(path))), SQLITE_ONLY)) - POSTGRES_MAY_IMPORT
    assert sorted(offending) == []


def _top_level_names(tree: ast.AST) -> set[str]:
    """The names a module defines itself: classes, functions and assigned names at its top level."""
    found: set[str] = set()
    for node in tree.body if isinstance(tree, ast.Module) else ():
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            found.add(node.name)
        elif isinstance(node, ast.Assign):
            found |= {target.id for target in node.targets if isinstance(target, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            found.add(node.target.id)
    return found


ROWS = "app.storage.rows"
_ROW_TYPES = _top_level_names(ast.parse((APP / "storage" / "rows.py").read_text(encoding="utf-8")))
_ALL_MODULES = [
    *_modules("."),
    *sorted((APP.parent / "tests").rglob("*.py")),
    # bench/data holds the stores and other builds' sources the benches extract, not this build's code.
    *sorted(
        p
        for p in (APP.parent / "bench").rglob("*.py")
        if "data" not in p.relative_to(APP.parent / "bench").parts[:1]
    ),
]


@functools.cache
def _defined_in(module: str) -> frozenset[str]:
    """The names ``module`` (a module of this repository) defines itself."""
    base = APP.parent / module.replace(".", "/")
    source = next((p for p in (base.with_suffix(".py"), base / "__init__.py") if p.exists()), None)
    return frozenset(_top_level_names(_parse(source))) if source is not None else frozenset()


def _reexported_rows(tree: ast.AST) -> list[str]:
    """``module.Name`` for each row type of ``app.storage.rows`` a file imports from another module that
    does not define it (a re-export)."""
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.ImportFrom) and node.level == 0 and node.module):
            continue
        if node.module == ROWS or not node.module.startswith("app.storage"):
            continue
        own = _defined_in(node.module)
        found += [f"{node.module}.{a.name}" for a in node.names if a.name in _ROW_TYPES and a.name not in own]
    return found


@pytest.mark.parametrize("path", _ALL_MODULES, ids=lambda p: p.relative_to(APP.parent).as_posix())
def test_row_types_are_imported_from_rows(path: Path) -> None:
    assert _reexported_rows(_parse(path)) == []


def test_the_row_check_sees_a_reexport() -> None:
    """A row type taken from a module that only imports it is caught; one taken from rows is not."""
    tree = ast.parse("from app.storage.protocols import Tx, ListQuery\nfrom app.storage.rows import Hit\n")
    assert _reexported_rows(tree) == ["app.storage.protocols.ListQuery"]


def _class(tree: ast.AST, name: str) -> ast.ClassDef:
    return next(n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == name)


def _methods(cls: ast.ClassDef) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    return {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}


def _parameters(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.arg]:
    return [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]


def _dropped_types(contract: ast.ClassDef, store: ast.ClassDef) -> set[str]:
    """The names in the annotations of ``contract``'s parameters that ``store`` takes and never reads."""
    found: set[str] = set()
    implemented = _methods(store)
    for name, declared in _methods(contract).items():
        method = implemented.get(name)
        if method is None:
            continue
        read = {n.id for statement in method.body for n in ast.walk(statement) if isinstance(n, ast.Name)}
        taken = {arg.arg for arg in _parameters(method)}
        for arg in _parameters(declared):
            if arg.annotation is not None and arg.arg in taken and arg.arg not in read:
                found |= {n.id for n in ast.walk(arg.annotation) if isinstance(n, ast.Name)}
    return found


def _backend_only_types() -> set[str]:
    contract = _class(_parse(APP / "storage" / "protocols.py"), "Store")
    return {name for path, cls in STORES for name in _dropped_types(contract, _class(_parse(path), cls))}


def _storage_imports(tree: ast.AST) -> Iterator[tuple[str, str]]:
    """The (module, name) pairs a module imports from ``app.storage`` (``from app.storage.x import Name``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("app.storage"):
            yield from ((node.module, alias.name) for alias in node.names)


def _storage_names(tree: ast.AST) -> set[str]:
    """The names a module imports from ``app.storage``."""
    return {name for _, name in _storage_imports(tree)}


@pytest.mark.parametrize("path", _modules("services"), ids=_rel)
def test_services_import_no_backend_type(path: Path) -> None:
    tree = _parse(path)
    assert _offending(list(_imports(tree)), (*POSTGRES_BACKEND, *SQLITE_ONLY)) == []
    assert sorted(_storage_names(tree) & _backend_only_types()) == []


# The driver modules: an object whose home is one of them belongs to a backend, whatever name it goes by.
_DRIVERS = ("sqlite3", "pysqlite3", "psycopg", "psycopg_pool")


def _home(obj: object) -> str:
    """The module an imported object comes from (a module's own name, else its class's or its own)."""
    if isinstance(obj, ModuleType):
        return obj.__name__
    return str(getattr(obj, "__module__", None) or type(obj).__module__)


def _resolve(module: str, name: str) -> object:
    """What ``from module import name`` binds (a name, or a submodule not imported yet)."""
    found = getattr(importlib.import_module(module), name, None)
    return importlib.import_module(f"{module}.{name}") if found is None else found


@pytest.mark.parametrize("path", _modules("services"), ids=_rel)
def test_what_services_import_of_storage_is_no_driver_type(path: Path) -> None:
    """An alias (``StorageError = sqlite3.Error``) passes the import check; resolving the names does not."""
    homes = {
        f"{module}.{name}": _home(_resolve(module, name)) for module, name in _storage_imports(_parse(path))
    }
    assert {name: home for name, home in homes.items() if _offending([home], _DRIVERS)} == {}


def test_the_driver_check_sees_an_alias() -> None:
    assert _offending([_home(sqlite3.Error)], _DRIVERS) != []
    assert _offending([_home(sqlite3)], _DRIVERS) != []
    assert _offending([_home(ast.Name)], _DRIVERS) == []


def test_the_contract_check_sees_a_dropped_argument() -> None:
    """A store that takes a typed argument of the contract and never reads it drops that type; one that
    reads every argument it takes, or never takes it, drops nothing."""
    contract = _class(
        ast.parse(
            "class Store(Protocol):\n"
            "    def write(self, fn: Callable[[Tx], T], *, hint: Hint | None = None) -> T: ...\n"
        ),
        "Store",
    )
    dropping = ast.parse("class A:\n    def write(self, fn, *, hint=None):\n        return run(fn)\n")
    reading = ast.parse("class B:\n    def write(self, fn, *, hint=None):\n        return run(fn, hint)\n")
    ignoring = ast.parse("class C:\n    def write(self, fn):\n        return run(fn)\n")
    assert _dropped_types(contract, _class(dropping, "A")) == {"Hint"}
    assert _dropped_types(contract, _class(reading, "B")) == set()
    assert _dropped_types(contract, _class(ignoring, "C")) == set()


_ABOVE_STORAGE = [
    *_modules("services"),
    *_modules("api"),
    *_modules("web"),
    *_modules("mcp"),
    APP / "main.py",
    APP / "runtime.py",
]


@pytest.mark.parametrize("path", _ABOVE_STORAGE, ids=_rel)
def test_no_sqlite_and_no_sql_above_storage(path: Path) -> None:
    if _rel(path) in STILL_ON_SQLITE:
        pytest.skip(STILL_ON_SQLITE[_rel(path)])
    tree = _parse(path)
    assert _offending(list(_imports(tree)), SQLITE_BACKEND) == []
    assert _sql_strings(tree) == []


def test_the_allow_list_is_current() -> None:
    """Every module on the allow-list exists and still needs to be there."""
    for rel in STILL_ON_SQLITE:
        tree = _parse(APP.parent / rel)
        uses_sqlite = _offending(list(_imports(tree)), SQLITE_BACKEND) != []
        assert uses_sqlite or _sql_strings(tree), f"{rel} no longer speaks SQLite: take it off the list"


def test_the_import_check_sees_the_sqlite_store() -> None:
    """The check catches the ways a module reaches the SQLite store, at any depth."""
    tree = ast.parse(
        "import sqlite3\n"
        "from app.storage.sqlite.store import Database\n"
        "from app.storage.sqlite import tx\n"
        "def f():\n    from app.storage.repos.export import plan_chunk\n"
    )
    found = _offending(list(_imports(tree)), SQLITE_BACKEND)
    assert found == [
        "app.storage.repos.export",
        "app.storage.repos.export.plan_chunk",
        "app.storage.sqlite",
        "app.storage.sqlite.store",
        "app.storage.sqlite.store.Database",
        "app.storage.sqlite.tx",
        "sqlite3",
    ]
    neutral = ast.parse(
        "from app.storage.protocols import Store\nfrom app.storage.rows import Hit\n"
        "from app.storage.sqlite_like import x\nfrom app.storage.repository import y\n"
    )
    assert _offending(list(_imports(neutral)), SQLITE_BACKEND) == []


def test_the_sql_detector_sees_sql() -> None:
    """The checks above are only as good as the detector: it flags statements, not prose."""
    flagged = [
        "SELECT id FROM sessions WHERE id = ?",
        "UPDATE sessions SET parent_session_id = NULL WHERE id = ?",
        "INSERT OR REPLACE INTO state_meta VALUES (?, ?)",
        "SAVEPOINT import_session",
        "PRAGMA wal_checkpoint(TRUNCATE)",
        "VACUUM",
        "BEGIN IMMEDIATE",
    ]
    prose = ["Select a session to continue.", "The update was committed.", "VACUUM state.db", "rollback"]
    assert all(_SQL.search(text) for text in flagged)
    assert not any(_SQL.search(text) for text in prose)


_PG_CONNECTION = APP / "storage" / "postgres" / "connection.py"


def _driver_calls(cls: ast.ClassDef) -> Iterator[ast.Call]:
    for method in _methods(cls).values():
        if method.name in ("execute", "executemany"):
            for node in ast.walk(method):
                if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                    continue
                if node.func.attr in ("execute", "executemany"):
                    yield node


@pytest.mark.parametrize("name", ["PgConnection", "PlainCursor"])
def test_the_psycopg_wrapper_passes_statements_as_written(name: str) -> None:
    calls = list(_driver_calls(_class(_parse(_PG_CONNECTION), name)))
    assert calls
    assert all(isinstance(call.args[0], ast.Name) and call.args[0].id == "sql" for call in calls)


_SQL_PATHS = [_PG_CONNECTION, APP / "storage" / "dialect.py", APP / "storage" / "postgres" / "dialect.py"]


@pytest.mark.parametrize("path", _SQL_PATHS, ids=_rel)
def test_no_sql_text_is_rewritten_with_regular_expressions(path: Path) -> None:
    assert "re" not in set(_imports(_parse(path)))
