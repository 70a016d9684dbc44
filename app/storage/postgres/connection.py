"""psycopg connections as the repositories use them: rows like ``sqlite3.Row`` and the calls of
``sqlite3.Connection`` the shared repository functions make.

Repository SQL is written once, over the hooks of :mod:`app.storage.dialect`; on a :class:`PgConnection`
those hooks give psycopg's placeholders, so each statement reaches psycopg exactly as the repository wrote
it. Everything only PostgreSQL runs is in ``app/storage/postgres/repos``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import psycopg
from psycopg import pq
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg.rows import RowMaker, tuple_row
from psycopg.types.string import StrBinaryDumper, StrDumperUnknown, TextLoader

from app.storage.dialect import Dialect
from app.storage.errors import StorageError
from app.storage.postgres.dialect import HIDDEN_COLUMNS, POSTGRES
from app.storage.postgres.shape import PG_WATCH

# psycopg_pool's PoolTimeout is a psycopg.OperationalError, so this covers the pool too.
StorageError.register(psycopg.Error)

NUL_STANDIN = "\uffff"
"""What a NUL character is stored as: PostgreSQL text cannot hold NUL, and the agent's own encoding of
structured content starts with one (``\\x00json:``). U+FFFF is a Unicode noncharacter, reserved for exactly
such internal use; it is translated back when read, so repositories see the agent's values unchanged."""


def _nul_free(text: str) -> str:
    return text.replace("\x00", NUL_STANDIN) if "\x00" in text else text


class NulSafeStrDumper(StrDumperUnknown):
    """Binds a ``str`` with each NUL replaced by :data:`NUL_STANDIN`."""

    def dump(self, obj: str) -> Any:
        """The text's UTF-8 bytes, NUL-free."""
        return super().dump(_nul_free(obj))


class NulSafeStrBinaryDumper(StrBinaryDumper):
    """The binary-format counterpart of :class:`NulSafeStrDumper` (``%b`` parameters, arrays of text)."""

    def dump(self, obj: str) -> Any:
        """The text's UTF-8 bytes, NUL-free."""
        return super().dump(_nul_free(obj))


class NulSafeTextLoader(TextLoader):
    """Reads text with :data:`NUL_STANDIN` back as NUL."""

    def load(self, data: Any) -> Any:
        """The column's ``str`` (``bytes`` in a ``SQL_ASCII`` database, as the base class gives)."""
        # Decoded here rather than through the base class: this runs for every text cell a query returns.
        if not self._encoding:
            return super().load(data)
        value = str(data, self._encoding)
        return value.replace(NUL_STANDIN, "\x00") if NUL_STANDIN in value else value


POOL_SETTINGS = "-c jit=off"
"""Session settings of the pooled connections. PostgreSQL compiles a statement with LLVM once its estimated
cost passes ``jit_above_cost``, which the listing's and discover's statements do on a table of some size: the
compilation then cost far more than the statement (the listing's search on the 100,000-message store: 53 ms
with JIT, 1.5 ms without), on every call."""


def with_options(url: str, options: str, **params: Any) -> str:
    """The connection string of ``url`` with ``options`` (``-c name=value`` settings) after the URL's own
    ``options``, and any other ``params`` (libpq keywords) set."""
    own = str(conninfo_to_dict(url).get("options") or "")
    return make_conninfo(url, options=" ".join(part for part in (own, options) if part), **params)


def configure(conn: psycopg.Connection[Any]) -> None:
    """Set a new connection up for the repositories: NUL-safe text in both directions. The text dumper is
    registered last, so ``%s`` keeps binding text as PostgreSQL's ``unknown``; ``%b`` binds binary."""
    conn.adapters.register_dumper(str, NulSafeStrBinaryDumper)
    conn.adapters.register_dumper(str, NulSafeStrDumper)
    conn.adapters.register_loader("text", NulSafeTextLoader)


class PgRow(tuple[Any, ...]):
    """A result row readable by position and by column name (what ``sqlite3.Row`` offers)."""

    __slots__ = ()
    _index: dict[str, int]

    def __getitem__(self, key: Any, _item: Any = tuple.__getitem__) -> Any:
        if key.__class__ is str or isinstance(key, str):
            return _item(self, self._index[key])
        return _item(self, key)

    def keys(self) -> list[str]:
        """The column names, in order (so ``dict(row)`` works as with ``sqlite3.Row``)."""
        return list(self._index)


@functools.lru_cache(maxsize=256)
def _row_class(names: tuple[str, ...]) -> type[PgRow]:
    # One subclass per column list: each row then carries only its values, like a plain tuple.
    return type("PgRow", (PgRow,), {"__slots__": (), "_index": {n: i for i, n in enumerate(names)}})


def pg_row(cursor: psycopg.Cursor[Any]) -> RowMaker[PgRow]:
    """psycopg row factory producing :class:`PgRow`."""
    # The names straight from the result: ``description`` builds a column object (a type lookup) for each.
    result = cursor.pgresult
    names: tuple[str, ...] = ()
    if result is not None:
        encoding = cursor.connection.info.encoding
        names = tuple((result.fname(i) or b"").decode(encoding) for i in range(result.nfields))
    cls = _row_class(names)

    def make(values: Sequence[Any]) -> PgRow:
        return cls(values)

    return make


def kept_cursor(pg: psycopg.Connection[Any], sql: str) -> psycopg.Cursor[Any]:
    """The cursor ``pg`` keeps for the statement ``sql`` (one of the few run on every write: an append's
    insert, its events, ``BEGIN``, ``COMMIT``), with plain tuple rows. Making a cursor copies the
    connection's adapters, and psycopg keeps a cursor's choice of dumpers while it runs the same statement
    object again: a fresh cursor chose every parameter's dumper anew (for each array, by looking for its
    element type), which cost more than the rest of the statement's Python work. The cursors live on the
    connection and end with it."""
    kept: dict[str, psycopg.Cursor[Any]] = vars(pg).setdefault("_hermes_kept_cursors", {})
    cur = kept.get(sql)
    if cur is None:
        cur = kept[sql] = pg.cursor(row_factory=tuple_row)
    return cur


class PgCursor:
    """The part of ``sqlite3.Cursor`` the shared repository code uses."""

    __slots__ = ("_conn", "_cur")

    def __init__(self, conn: psycopg.Connection[Any], cur: psycopg.Cursor[PgRow]) -> None:
        self._conn = conn
        self._cur = cur

    def _has_rows(self) -> bool:
        # What ``description is not None`` says, without building a column object per column.
        result = self._cur.pgresult
        return result is not None and result.status == pq.ExecStatus.TUPLES_OK

    def fetchone(self) -> PgRow | None:
        """The next row, or ``None``."""
        return self._cur.fetchone() if self._has_rows() else None

    def fetchall(self) -> list[PgRow]:
        """Every remaining row."""
        return self._cur.fetchall() if self._has_rows() else []

    def __iter__(self) -> Iterator[PgRow]:
        return iter(self.fetchall())

    @property
    def rowcount(self) -> int:
        """Rows the statement changed."""
        return self._cur.rowcount

    @property
    def description(self) -> tuple[tuple[str, None, None, None, None, None, None], ...] | None:
        """The result's column names as ``sqlite3`` gives them (the other six fields ``None``)."""
        columns = self._cur.description
        return None if columns is None else tuple((c.name, *(None,) * 6) for c in columns)

    @property
    def lastrowid(self) -> int:
        """The id the last INSERT into an identity-keyed table drew in this session."""
        row = self._conn.execute("SELECT lastval()").fetchone()
        assert row is not None
        return int(row[0])


class PgConnection:
    """A psycopg connection behind the ``sqlite3.Connection`` calls of the shared repository functions."""

    __slots__ = ("pg",)
    watch = PG_WATCH
    """What the shared repositories read of the store's shape (:func:`app.storage.agent_shape.shape_of`)."""
    dialect: Dialect = POSTGRES
    """The hooks the shared repositories write their SQL with (:func:`app.storage.dialect.dialect_of`)."""

    def __init__(self, pg: psycopg.Connection[Any]) -> None:
        self.pg = pg

    def execute(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> PgCursor:
        """Run one statement, as written, on a fresh cursor."""
        cur = self.pg.cursor(row_factory=pg_row)
        # Parameters always go with the query (an empty tuple too), so psycopg undoubles every %%.
        cur.execute(sql, params)
        return PgCursor(self.pg, cur)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any] | Mapping[str, Any]]) -> PgCursor:
        """Run one statement for each parameter row."""
        cur = self.pg.cursor(row_factory=pg_row)
        batch = list(rows)
        if batch:
            cur.executemany(sql, batch)
        return PgCursor(self.pg, cur)

    def cursor(self) -> PlainCursor:
        """A cursor with plain tuple rows (``sqlite3``'s ``row_factory = None``)."""
        return PlainCursor(self.pg)

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction is open and usable."""
        return self.pg.info.transaction_status == psycopg.pq.TransactionStatus.INTRANS


class PlainCursor:
    """``sqlite3.Cursor`` with ``row_factory = None`` as the export reads rows: plain tuples and
    ``description``, the server's search columns (:data:`HIDDEN_COLUMNS`) left out."""

    __slots__ = ("_cur", "_keep", "row_factory")

    def __init__(self, pg: psycopg.Connection[Any]) -> None:
        self._cur = pg.cursor()
        self._keep: list[int] | None = None
        self.row_factory: Any = None

    def execute(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> PlainCursor:
        """Run one statement, as written."""
        self._cur.execute(sql, params)
        names = [c.name for c in self._cur.description or ()]
        hidden = [i for i, name in enumerate(names) if name in HIDDEN_COLUMNS]
        self._keep = [i for i in range(len(names)) if i not in hidden] if hidden else None
        return self

    @property
    def description(self) -> list[tuple[str, None, None, None, None, None, None]]:
        """One 7-tuple per column, the name first, as ``sqlite3`` gives it."""
        names = [c.name for c in self._cur.description or ()]
        if self._keep is not None:
            names = [names[i] for i in self._keep]
        return [(n, None, None, None, None, None, None) for n in names]

    def fetchall(self) -> list[tuple[Any, ...]]:
        """Every remaining row as a tuple."""
        rows = self._cur.fetchall() if self._cur.description is not None else []
        if self._keep is None:
            return [tuple(r) for r in rows]
        keep = self._keep
        return [tuple(r[i] for i in keep) for r in rows]
