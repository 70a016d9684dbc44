"""API models written once: a storage or domain record's members, with what the API says more.

A model that presents a record (a row of ``app.storage.rows``, a search service record) or takes one in a body
would otherwise list the record's members a second time. :func:`from_row` builds the model from the record
type instead: the class's own members (those the record does not have) first, then the record's members in
the record's order (the order of ``required`` in the OpenAPI document and of validation errors), typed and
defaulted as the record types them (a member a TypedDict may leave out is optional, ``None`` by default); a
member the class declares takes the class's declaration (its type, default and description). The class body
therefore holds only what the API adds to the record.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
import types
import typing
from collections.abc import Callable, Collection, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)


def from_row(
    row: type, *, omit: Collection[str] = (), ruled: Mapping[type, Any] | None = None
) -> Callable[[type[M]], type[M]]:
    """Decorate a model to carry the members of ``row`` (a TypedDict or a dataclass).

    ``omit``: members left out. ``ruled``: the API's type for a type the record uses (``{int: RuledCount}``),
    also inside an optional. A declared field matches a member by its alias when it has one
    (``model_config_`` aliased ``model_config``). Validators are not carried over, so the class may not have
    any.
    """

    def build(declared: type[M]) -> type[M]:
        checks = declared.__pydantic_decorators__
        if checks.field_validators or checks.model_validators:
            raise TypeError(f"{declared.__name__}: a model built by from_row() cannot carry validators")
        hints = {m: h for m, h in typing.get_type_hints(row, include_extras=True).items() if m not in omit}
        defaults = _defaults(row)
        by_member = {info.alias or name: name for name, info in declared.model_fields.items()}
        annotations: dict[str, Any] = {}
        namespace: dict[str, Any] = {}

        def declare(name: str) -> None:
            info = declared.model_fields[name]
            annotations[name] = info.annotation
            namespace[name] = info

        for member, name in by_member.items():
            if member not in hints:
                declare(name)
        for member, hint in hints.items():
            if member in by_member:
                declare(by_member[member])
                continue
            # Read from the hint: under postponed annotations a TypedDict's __optional_keys__ misses it.
            if typing.get_origin(hint) is typing.NotRequired:
                (hint,) = typing.get_args(hint)
                annotations[member] = _ruled(hint, ruled or {}) | None
                namespace[member] = None
            else:
                annotations[member] = _ruled(hint, ruled or {})
                if member in defaults:
                    namespace[member] = defaults[member]
        namespace |= {
            "__module__": declared.__module__,
            "__qualname__": declared.__qualname__,
            "__doc__": declared.__doc__,
            "__annotations__": annotations,
            "model_config": declared.model_config,
        }
        # The class statement again, through pydantic's metaclass, with the record's members in place.
        make_model: Callable[..., type[M]] = type(declared)
        return make_model(declared.__name__, declared.__bases__, namespace)

    return build


def _defaults(row: type) -> dict[str, Any]:
    if not dataclasses.is_dataclass(row):
        return {}
    return {f.name: f.default for f in dataclasses.fields(row) if f.default is not dataclasses.MISSING}


def _ruled(hint: Any, ruled: Mapping[type, Any]) -> Any:
    if isinstance(hint, types.UnionType):
        return functools.reduce(operator.or_, (_ruled(arg, ruled) for arg in typing.get_args(hint)))
    return ruled.get(hint, hint)
