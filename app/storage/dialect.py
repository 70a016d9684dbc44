"""What differs between the SQL the two backends take, as named hooks.

Repository SQL is written once, as an f-string over the hooks of its connection's dialect
(``d = dialect_of(conn)``, then ``f"... WHERE id = {d.p}"``): each backend receives its own text, built where
the statement is, and nothing rewrites a statement on its way to the driver. Text hooks are attributes (a
statement reads several per call); hooks that wrap an expression are methods.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, NamedTuple


class TableColumn(NamedTuple):
    """One column of an agent table, typed as the agent's SQLite schema declares it."""

    name: str
    declared_type: str
    """``INTEGER``, ``REAL``, ``TEXT``, ``BLOB`` or what a newer agent declared (empty when undeclared)."""
    notnull: bool
    default: str | None
    """The column's ``DEFAULT`` expression as SQL text (``None``: no default)."""


class Dialect(ABC):
    """The hooks of one backend. Instances are compared and hashed by name, so a builder cached on the
    dialect (``functools.cache``) keeps one text per backend."""

    __slots__ = ()

    name: str
    p: str
    """The positional placeholder."""
    pct: str
    """A literal percent sign (in a ``LIKE`` pattern or a format string)."""
    casefold_like: str
    """The operator matching a ``LIKE`` pattern with case ignored. SQLite's ``LIKE`` folds ASCII letters
    only; on PostgreSQL it is ``ILIKE``, which folds every letter the database's locale folds."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dialect) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return f"<Dialect {self.name}>"

    @abstractmethod
    def named(self, name: str) -> str:
        """The placeholder of the parameter ``name`` (parameters given as a mapping)."""

    @abstractmethod
    def int64_cast(self, expr: str) -> str:
        """``expr`` as a 64-bit integer (SQLite's ``INTEGER``)."""

    @abstractmethod
    def index_hint(self, index: str) -> str:
        """The clause after a table name that makes the query use ``index`` (empty where the planner picks
        it by itself)."""

    @abstractmethod
    def char(self, code: int) -> str:
        """A one-character text value (``code`` below 128) for ``REPLACE`` and comparisons."""

    @abstractmethod
    def json_text(self, doc: str, path: str) -> str:
        """The value at ``path`` (``$.key`` or ``$.key.key``) of the JSON text ``doc``, as text; ``doc`` must
        be valid JSON (guard it with :meth:`json_is_valid`)."""

    @abstractmethod
    def json_is_valid(self, doc: str) -> str:
        """Whether the text ``doc`` parses as JSON (NULL or false for NULL)."""

    @abstractmethod
    def json_kind(self, doc: str) -> str:
        """The JSON type of valid ``doc``; ``'object'`` and ``'array'`` are named alike on both backends."""

    @abstractmethod
    def json_array_len(self, doc: str) -> str:
        """The length of the JSON array ``doc``."""

    @abstractmethod
    def table_columns(self, conn: Any, table: str) -> list[TableColumn]:
        """The columns of the agent table ``table`` in order; the server's own additions (search columns)
        are left out, so they are the agent's columns on both backends."""


class SqliteDialect(Dialect):
    """SQLite's SQL, as the agent writes it."""

    __slots__ = ()
    name = "sqlite"
    p = "?"
    pct = "%"
    casefold_like = "LIKE"

    def named(self, name: str) -> str:
        """``:name``."""
        return f":{name}"

    def int64_cast(self, expr: str) -> str:
        """SQLite's ``INTEGER`` is 64-bit."""
        return f"CAST({expr} AS INTEGER)"

    def index_hint(self, index: str) -> str:
        """SQLite's ``INDEXED BY``."""
        return f" INDEXED BY {index}"

    def char(self, code: int) -> str:
        """A one-byte blob literal, which ``REPLACE`` and comparisons take as the character."""
        return f"X'{code:02X}'"

    def json_text(self, doc: str, path: str) -> str:
        """``json_extract``."""
        return f"json_extract({doc}, '{path}')"

    def json_is_valid(self, doc: str) -> str:
        """``json_valid``."""
        return f"json_valid({doc})"

    def json_kind(self, doc: str) -> str:
        """``json_type``."""
        return f"json_type({doc})"

    def json_array_len(self, doc: str) -> str:
        """``json_array_length``."""
        return f"json_array_length({doc})"

    def table_columns(self, conn: Any, table: str) -> list[TableColumn]:
        """``PRAGMA table_info``."""
        return [
            TableColumn(str(row[1]), str(row[2] or ""), bool(row[3]), row[4])
            for row in conn.execute(f"PRAGMA table_info({table})")
        ]


SQLITE: Dialect = SqliteDialect()


def dialect_of(conn: Any) -> Dialect:
    """The dialect of a repository's connection (a bare ``sqlite3`` connection speaks SQLite)."""
    return getattr(conn, "dialect", SQLITE)
