"""What every repository class shares: one connection, the handle's change record, and the descriptor that
makes a module function ``fn(conn, ...)`` (or ``fn(conn, changes, ...)``) the method ``repo.fn(...)``.

The function stays the one place its contract is written (its docstring); the class only says which
functions an aggregate offers. A call through a repository costs a ``functools.partial`` more than calling
the function with the connection. The function is looked up in its module at each access, so a repository
always calls what the module holds now, as a direct call would.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import partial
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, cast, overload

from app.storage.commit_notice import Changes
from app.storage.sqlite.driver import sqlite3

P = ParamSpec("P")
R = TypeVar("R")


class Repository:
    """One aggregate's repository over one connection; what its writes change is noted in ``changes``, the
    record of the transaction handle it belongs to (:mod:`app.storage.commit_notice`)."""

    __slots__ = ("changes", "conn")

    def __init__(self, conn: sqlite3.Connection, changes: Changes) -> None:
        self.conn = conn
        self.changes = changes


class bound(Generic[P, R]):
    """The module function ``fn(conn, ...)`` as the method ``repo.fn(...)``; made by :func:`recorded`, the
    function ``fn(conn, changes, ...)``, whose writes are noted in the repository's change record."""

    def __init__(self, fn: Callable[Concatenate[sqlite3.Connection, P], R], *, records: bool = False) -> None:
        self.module = sys.modules[fn.__module__]
        self.name = fn.__name__
        self.records = records

    @overload
    def __get__(self, obj: None, owner: type) -> bound[P, R]: ...

    @overload
    def __get__(self, obj: Repository, owner: type) -> Callable[P, R]: ...

    def __get__(self, obj: Repository | None, owner: type) -> Any:
        if obj is None:
            return self
        if self.records:
            return partial(getattr(self.module, self.name), obj.conn, obj.changes)
        return partial(getattr(self.module, self.name), obj.conn)


def recorded(fn: Callable[Concatenate[sqlite3.Connection, Changes, P], R]) -> bound[P, R]:
    """The module function ``fn(conn, changes, ...)`` as the method ``repo.fn(...)``: what it writes is noted
    in the repository's change record."""
    return bound(cast(Callable[Concatenate[sqlite3.Connection, P], R], fn), records=True)
