"""Errors as types: every condition is a class with a fixed code, every class is documented, every documented
code is a class, and each operation documents the classes its own code can raise."""

from __future__ import annotations

import ast
import inspect
import tempfile
import textwrap
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute, iter_route_contexts

from app.api.dashboard.errors import DashboardRoute
from app.api.problem import PROBLEM_MEDIA_TYPE, error_body
from app.errors import HermesError, concrete_errors
from app.main import create_app
from app.openapi_export import generate
from app.settings import Settings
from app.storage.sqlite.driver import sqlite3
from app.storage.sqlite.tx import SqliteTx

ERRORS = concrete_errors()

# Classes the static walk finds on a path the operation cannot take, and why.
UNREACHABLE = {
    ("POST /sessions", "SessionNotFound"): "reads back the session it has just inserted",
    ("POST /handoff/claim", "SessionNotFound"): "reads the handoff of the session it has just claimed",
    ("POST /sessions/{session_id}/fork", "ParentNotFound"): "the parent is the session it has just read",
    ("POST /sessions/{session_id}/continuations", "ParentNotFound"): "the parent is the session just read",
    ("POST /sessions/{session_id}/continuations", "SessionExists"): "the child id is freshly generated",
    (
        "POST /sessions/{session_id}/continuations",
        "TitleTaken",
    ): "it takes the next free title",
    (
        "POST /sessions/{session_id}/continuations",
        "TitleTooLong",
    ): "the parent's title, numbered",
    (
        "POST /sessions/{session_id}/continuations",
        "InvalidTitle",
    ): "the parent's title, numbered",
    ("POST /handoff", "TitleTaken"): "an untitled session gets the next free stub title",
    ("POST /handoff", "TitleTooLong"): "the stub title is short",
    ("POST /handoff", "InvalidTitle"): "the stub title is printable",
    ("POST /sync/batches", "TrigramMembershipLocked"): "a session row it refuses is set aside, not raised",
}


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return generate()


def _problem_examples(op: dict[str, Any]) -> Iterator[tuple[int, dict[str, Any]]]:
    for status, response in op.get("responses", {}).items():
        media = response.get("content", {}).get(PROBLEM_MEDIA_TYPE)
        if status.startswith(("4", "5")) and media is not None:
            for example in media.get("examples", {}).values():
                yield int(status), example["value"]


def _operations(spec: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if isinstance(op, dict) and "responses" in op:
                yield f"{method.upper()} {path}", op


def test_each_class_fixes_its_code_and_builds_its_example() -> None:
    for cls in ERRORS:
        example = cls.example()
        assert type(example) is cls
        assert example.code == cls.code and example.code.isidentifier() and example.code.islower()
        assert example.detail.strip(), f"{cls.__name__} has no sentence"
        assert 400 <= cls.status < 600


def test_every_error_class_is_documented_on_some_route(spec: dict[str, Any]) -> None:
    documented = {
        (status, value["code"], value["detail"])
        for _, op in _operations(spec)
        for status, value in _problem_examples(op)
    }
    missing = [
        cls.__name__
        for cls in ERRORS
        if (cls.status, cls.code, error_body(cls.example(), None)["detail"]) not in documented
    ]
    assert not missing, f"add these classes to some route's operation(...): {missing}"


def test_every_documented_code_exists_as_a_class(spec: dict[str, Any]) -> None:
    known = {(cls.status, cls.code) for cls in ERRORS}
    unknown = sorted(
        {
            f"{where}: {status} {value['code']}"
            for where, op in _operations(spec)
            for status, value in _problem_examples(op)
            if (status, value["code"]) not in known
        }
    )
    assert not unknown, f"documented codes with no error class in app.errors: {unknown}"


def _is_error_class(value: object) -> bool:
    return isinstance(value, type) and issubclass(value, HermesError) and "code" in vars(value)


def _is_own_function(value: object) -> bool:
    return isinstance(value, types.FunctionType) and value.__module__.startswith("app.")


# Services reach storage through the job's Tx (``tx.sessions.insert_session(...)``): on SQLite each such
# method is a method of its repository class, which is what the walk follows.
_TX = SqliteTx(sqlite3.connect(":memory:"))


def _repository_function(aggregate: str, name: str) -> object:
    repository = getattr(_TX, aggregate, None)
    if repository is None or isinstance(repository, sqlite3.Connection):
        return None
    binding = inspect.getattr_static(repository, name, None)
    if isinstance(binding, staticmethod):
        return binding.__func__
    if isinstance(binding, types.FunctionType):
        return binding
    return None


def _resolve(node: ast.expr, scope: dict[str, Any]) -> object:
    """The object a name, a ``module.attribute`` chain, a ``tx.<repository>.<method>``, a repository's
    ``self.<method>`` or a ``Repository(conn, changes).<method>`` refers to in ``scope``, if it is one
    (``scope["self"]`` is the class of the method being walked)."""
    if isinstance(node, ast.Name):
        return scope.get(node.id)
    if isinstance(node, ast.Call):
        return _resolve(node.func, scope)
    if isinstance(node, ast.Attribute):
        owner = _resolve(node.value, scope)
        if isinstance(owner, types.ModuleType | type):
            return getattr(owner, node.attr, None)
        if isinstance(node.value, ast.Attribute):
            return _repository_function(node.value.attr, node.attr)
    return None


def _raisable(fn: Callable[..., Any], seen: set[Callable[..., Any]]) -> set[type[HermesError]]:
    """The error classes named by ``fn`` and by the functions of ours it names, transitively (methods of
    objects are not followed, so this is a lower bound of what the operation can raise)."""
    if fn in seen:
        return set()
    seen.add(fn)
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError):
        return set()
    found: set[type[HermesError]] = set()
    scope = dict(fn.__globals__)
    owner, _, _ = fn.__qualname__.rpartition(".")
    if owner and "<" not in owner:
        scope["self"] = scope.get(owner)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Name | ast.Attribute):
            continue
        value = _resolve(node, scope)
        if _is_error_class(value):
            found.add(value)  # type: ignore[arg-type]
        elif _is_own_function(value):
            found |= _raisable(value, seen)  # type: ignore[arg-type]
    return found


def _dependency_calls(route: APIRoute) -> list[Callable[..., Any]]:
    calls: list[Callable[..., Any]] = []
    stack = list(route.dependant.dependencies)
    while stack:
        dependant = stack.pop()
        if dependant.call is not None:
            calls.append(dependant.call)
        stack.extend(dependant.dependencies)
    return calls


def test_each_operation_documents_the_classes_its_code_raises(spec: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as home:
        app = create_app(Settings(home=Path(home), api_token="x"))
    bad = []
    found_unreachable = set()
    for context in iter_route_contexts(app.router.routes):
        route = context.original_route
        if not isinstance(route, APIRoute) or not route.include_in_schema:
            continue
        if isinstance(route, DashboardRoute):
            # The dashboard's routes answer every class as the dashboard's {"detail"} body and status, not
            # as problem+json (test_openapi.py holds those bodies).
            continue
        seen: set[Callable[..., Any]] = set()
        raisable: set[type[HermesError]] = set()
        for fn in (route.endpoint, *_dependency_calls(route)):
            raisable |= _raisable(fn, seen)
        assert route.methods is not None  # Starlette leaves None to mounted apps: an APIRoute has its methods
        for method in route.methods - {"HEAD"}:
            op = spec["paths"][str(context.path_format)][method.lower()]
            documented = {(status, value["code"]) for status, value in _problem_examples(op)}
            where = f"{method} {context.path_format}"
            for cls in sorted(raisable, key=lambda c: c.__name__):
                if (where, cls.__name__) in UNREACHABLE:
                    found_unreachable.add((where, cls.__name__))
                elif (cls.status, cls.code) not in documented:
                    bad.append(f"{where}: {cls.__name__} ({cls.status} {cls.code})")
    assert not bad, f"these operations can raise classes their operation(...) leaves out: {bad}"
    assert found_unreachable == set(UNREACHABLE), "UNREACHABLE names pairs the walk no longer finds"
