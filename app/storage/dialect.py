"""What differs between the SQL the two backends take, as named hooks.

Repository SQL is written once, as an f-string over the hooks of its connection's dialect (a repository
holds it as ``self.d``, a function over a connection calls ``d = dialect_of(conn)``; then
``f"... WHERE id = {d.p}"``): each backend receives its own text, built where the statement is, and nothing
rewrites a statement on its way to the driver. Text hooks are attributes (a statement reads several per
call); hooks that wrap an expression are methods over a template the backend gives.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple


class TableColumn(NamedTuple):
    """One column of an agent table, typed as the agent's SQLite schema declares it."""

    name: str
    declared_type: str
    """``INTEGER``, ``REAL``, ``TEXT``, ``BLOB`` or what a newer agent declared (empty when undeclared)."""
    notnull: bool
    default: str | None
    """The column's ``DEFAULT`` expression as SQL text (``None``: no default)."""


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Dialect:
    """The hooks of one backend: the values and templates in which its SQL differs from the other's, stated
    once per backend (:data:`SQLITE` here, ``POSTGRES`` beside the PostgreSQL connection). Each backend has
    its one instance, compared and hashed by identity, so a builder cached on the dialect
    (``functools.cache``) keeps one text per backend, and its lookup on a hot path calls no Python code."""

    name: str
    p: str
    """The positional placeholder."""
    pct: str
    """A literal percent sign (in a ``LIKE`` pattern or a format string)."""
    casefold_like: str
    """The operator matching a ``LIKE`` pattern with case ignored. SQLite's ``LIKE`` folds ASCII letters
    only; on PostgreSQL it is ``ILIKE``, which folds every letter the database's locale folds."""
    named_template: str
    """The placeholder of a parameter given in a mapping, over ``{name}``."""
    int64_type: str
    """The type of a 64-bit integer (SQLite's ``INTEGER``)."""
    index_hint_template: str
    """The clause after a table name that makes the query use the index ``{index}`` (empty where the planner
    picks it by itself)."""
    char_template: str
    """A one-character text value of the code ``{code}`` (below 128), for ``REPLACE`` and comparisons."""
    json_text_template: str
    """The value at a path of the JSON text ``{doc}``, as text; the path is given as written (``{path}``:
    ``$.key.key``) and as its keys (``{keys}``: ``key,key``)."""
    json_is_valid_template: str
    """Whether the text ``{doc}`` parses as JSON (NULL or false for NULL)."""
    json_kind_template: str
    """The JSON type of valid ``{doc}``; ``'object'`` and ``'array'`` are named alike on both backends."""
    json_array_len_template: str
    """The length of the JSON array ``{doc}``."""
    table_columns: Callable[[Any, str], list[TableColumn]]
    """The columns of an agent table (connection, table name) in order; the server's own additions (search
    columns) are left out, so they are the agent's columns on both backends."""

    def __repr__(self) -> str:
        return f"<Dialect {self.name}>"

    def named(self, name: str) -> str:
        """The placeholder of the parameter ``name`` (parameters given as a mapping)."""
        return self.named_template.format(name=name)

    def int64_cast(self, expr: str) -> str:
        """``expr`` as a 64-bit integer."""
        return f"CAST({expr} AS {self.int64_type})"

    def index_hint(self, index: str) -> str:
        """The clause after a table name that makes the query use ``index``."""
        return self.index_hint_template.format(index=index)

    def char(self, code: int) -> str:
        """A one-character text value (``code`` below 128)."""
        return self.char_template.format(code=code)

    def json_text(self, doc: str, path: str) -> str:
        """The value at ``path`` (``$.key`` or ``$.key.key``) of the JSON text ``doc``, as text; ``doc`` must
        be valid JSON (guard it with :meth:`json_is_valid`)."""
        keys = ",".join(path.removeprefix("$.").split("."))
        return self.json_text_template.format(doc=doc, path=path, keys=keys)

    def json_is_valid(self, doc: str) -> str:
        """Whether the text ``doc`` parses as JSON (NULL or false for NULL)."""
        return self.json_is_valid_template.format(doc=doc)

    def json_kind(self, doc: str) -> str:
        """The JSON type of valid ``doc``."""
        return self.json_kind_template.format(doc=doc)

    def json_array_len(self, doc: str) -> str:
        """The length of the JSON array ``doc``."""
        return self.json_array_len_template.format(doc=doc)


def _sqlite_columns(conn: Any, table: str) -> list[TableColumn]:
    # PRAGMA table_info: (cid, name, type, notnull, dflt_value, pk).
    return [
        TableColumn(str(row[1]), str(row[2] or ""), bool(row[3]), row[4])
        for row in conn.execute(f"PRAGMA table_info({table})")
    ]


SQLITE = Dialect(
    name="sqlite",
    p="?",
    pct="%",
    casefold_like="LIKE",
    named_template=":{name}",
    int64_type="INTEGER",
    index_hint_template=" INDEXED BY {index}",
    # A one-byte blob literal, which REPLACE and comparisons take as the character.
    char_template="X'{code:02X}'",
    json_text_template="json_extract({doc}, '{path}')",
    json_is_valid_template="json_valid({doc})",
    json_kind_template="json_type({doc})",
    json_array_len_template="json_array_length({doc})",
    table_columns=_sqlite_columns,
)


def dialect_of(conn: Any) -> Dialect:
    """The dialect of a repository's connection (a bare ``sqlite3`` connection speaks SQLite)."""
    return getattr(conn, "dialect", SQLITE)
