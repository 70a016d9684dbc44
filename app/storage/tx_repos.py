"""The repositories of a transaction handle (``SqliteTx``, ``PgTx``), each built on its first use in the
handle and kept there.

A job touches two or three of the handle's aggregates (an append: messages and events), and a PostgreSQL
handle serves a single job, so building all of them with the handle was most of its cost.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar, overload

from app.storage.commit_notice import Changes
from app.storage.repos.attachments import Attachments
from app.storage.repos.handoff import Handoff
from app.storage.repos.idempotency import Idempotency
from app.storage.repos.platforms import Platforms

H = TypeVar("H")
R = TypeVar("R")


class PerTx(Generic[H, R]):
    """A handle's repository attribute: ``build(handle)`` runs on the attribute's first read in a handle,
    and its result is stored on the handle, where later reads find it without a call (a descriptor with no
    ``__set__`` gives way to the instance's own attribute). The handle needs a ``__dict__``."""

    __slots__ = ("build", "name")

    def __init__(self, build: Callable[[H], R]) -> None:
        self.build = build
        self.name = ""

    def __set_name__(self, owner: type[Any], name: str) -> None:
        self.name = name

    @overload
    def __get__(self, handle: None, owner: type[Any]) -> PerTx[H, R]: ...

    @overload
    def __get__(self, handle: H, owner: type[Any]) -> R: ...

    def __get__(self, handle: H | None, owner: type[Any]) -> PerTx[H, R] | R:
        if handle is None:
            return self
        repo = self.build(handle)
        vars(handle)[self.name] = repo
        return repo

    def built(self, handle: H) -> R | None:
        """The repository if the handle has built it, else ``None`` (nothing is built)."""
        repo: R | None = vars(handle).get(self.name)
        return repo


class _Handle(Protocol):
    @property
    def conn(self) -> Any: ...

    @property
    def changes(self) -> Changes: ...


def repository(cls: Callable[[Any, Changes], R]) -> PerTx[_Handle, R]:
    """The handle's repository of class ``cls``, over its connection and change record."""
    return PerTx(lambda handle: cls(handle.conn, handle.changes))


class SharedRepositories:
    """The repositories of a handle whose class is the same on both backends (their SQL differs in the
    dialect's hooks only)."""

    handoff = repository(Handoff)
    platforms = repository(Platforms)
    attachments = repository(Attachments)
    idempotency = repository(Idempotency)
